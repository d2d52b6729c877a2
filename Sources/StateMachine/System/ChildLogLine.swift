import Foundation

/// A step of a child machine as a line of its parent's log: the fields of a log entry (the
/// child's event, outcome, state, context and effects, its own sequence and time), led by the
/// child's path, `{"child":"uploads/a.jpg","context":…}`; or the child's end,
/// `{"child":"uploads/a.jpg","ended":"cancelled"}`.
///
/// A system records one log: its root's entries, and between them its children's steps, each
/// in the order it was taken, and each child's end (finished, cancelled, or failed with its
/// `error`), once. Readers of a single machine's log pass these lines by; a replay of the
/// system's log steps each child alongside its own lines.
public struct ChildLogLine: Hashable, Sendable, CustomStringConvertible {
  /// The child's path below the root (`"uploads/a.jpg"`).
  public let path: String
  /// The step's number in the child's own store (from 1); 0 on the line of its end.
  public let sequence: Int
  /// How the child ended, on the line of its end: `finished` (done), `cancelled` or `failed`;
  /// `nil` on a step's line.
  public let ended: String?
  /// How many of the root's entries come before this line.
  @usableFromInline package let afterEntry: Int
  /// The line's number in the log file (the header is line 1).
  package let line: Int
  /// The line, without its newline.
  public let text: String

  /// A line read from a log, or recorded.
  package init(path: String, sequence: Int, afterEntry: Int, line: Int, text: String, ended: String? = nil) {
    (self.path, self.sequence, self.afterEntry, self.line, self.text, self.ended) = (path, sequence, afterEntry, line, text, ended)
  }

  public var description: String { text }

  /// How a child's end reads where a tool shows it (`fsm view`'s lane, `fsm demo`'s line):
  /// `(finished)`, `(cancelled)`, `(failed: …)` with the error.
  package static func shownEnd(_ how: String, error: String? = nil) -> String {
    "(\(how)" + (error.map { ": \($0)" } ?? "") + ")"
  }

  /// The key that leads every child line (it sorts before every entry field).
  @usableFromInline static let prefix = Array(#"{"child":"#.utf8)

  /// Whether `bytes` (a line) is a child's line, not an entry of the root: it starts with the key.
  @inlinable
  static func starts(_ bytes: UnsafeRawBufferPointer) -> Bool {
    // An entry's line starts `{"context":`: the fourth byte tells them apart before the rest.
    bytes.count > 9 && bytes[3] == UInt8(ascii: "h") && bytes.starts(with: prefix)
  }

  /// Reads a child line's path and sequence (the rest is the child's, read when it is replayed).
  @usableFromInline
  static func read(_ bytes: Data, number: Int, afterEntry: Int) throws(LogError) -> ChildLogLine {
    guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
      throw .malformed(line: number, detail: "a child's line is not a JSON object")
    }
    guard let path = object["child"] as? String, !path.isEmpty else {
      throw .invalidValue(line: number, field: "child", detail: "expected the child's path, a non-empty string")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    if let ended = object["ended"] {
      guard let how = ended as? String, ChildEnd.How(rawValue: how) != nil else {
        let expected = ChildEnd.How.allCases.map(\.rawValue).joined(separator: ", ")
        throw .invalidValue(line: number, field: "ended", detail: "expected how the child ended: one of \(expected)")
      }
      return ChildLogLine(path: path, sequence: 0, afterEntry: afterEntry, line: number, text: text, ended: how)
    }
    guard let sequence = (object["sequence"] as? NSNumber)?.intValue, sequence >= 1 else {
      throw .missingField(line: number, field: "sequence")
    }
    return ChildLogLine(path: path, sequence: sequence, afterEntry: afterEntry, line: number, text: text)
  }
}

/// What a child's step is as a log line, after its path: the entry's fields, or why they
/// cannot be written (a type of the child's that is not `Encodable`).
@usableFromInline
enum ChildLogBody: Sendable {
  /// The JSON object of the entry's fields, sorted by key.
  case fields([UInt8])
  case unrecordable(String)

  /// The step's entry fields, encoded as a log encodes an entry (keys sorted).
  @inlinable
  static func of<Definition: StoreDefinition>(_ step: StoreStep<Definition>) -> ChildLogBody {
    let (outcome, state) = Definition._logged(step)
    return encode(
      sequence: step.sequence, time: step.time.inSeconds, event: step.event, outcome: outcome, state: state,
      context: step.context, effects: step.effects)
  }

  /// The fields of an entry, each value encoded as it is when it is `Encodable`.
  @usableFromInline
  static func encode(
    sequence: Int, time: Double?, event: Any, outcome: LoggedOutcome, state: Any, context: Any, effects: [Any]
  ) -> ChildLogBody {
    let values: [(String, Any)] = [("event", event), ("state", state), ("context", context)]
    for (field, value) in values where !(value is any Encodable) {
      return .unrecordable("its \(field) type \(type(of: value)) is not Encodable")
    }
    guard let encodable = effects as? [any Encodable] else { return .unrecordable("its effects are not Encodable") }
    let fields = Fields(
      context: Value(context as! any Encodable), effects: encodable.map(Value.init), event: Value(event as! any Encodable),
      outcome: outcome, sequence: sequence, state: Value(state as! any Encodable), time: time)
    do {
      return .fields(Array(try AnyJSON.encoder.encode(fields)))
    } catch {
      return .unrecordable("its step could not be encoded: \(error)")
    }
  }

  /// The line: the path, then the fields.
  @usableFromInline
  static func line(path: String, fields: [UInt8]) -> [UInt8] {
    var line = ChildLogLine.prefix
    line += AnyJSON.encode(path).map(Array.init) ?? Array("\"\"".utf8)
    // The fields' object without its opening brace (an empty object cannot happen: it has a
    // sequence).
    line.append(UInt8(ascii: ","))
    line += fields.dropFirst()
    return line
  }

  /// An entry's fields, in a log's key order (sorted), with values of any type.
  struct Fields: Encodable {
    let context: Value
    let effects: [Value]
    let event: Value
    let outcome: LoggedOutcome
    let sequence: Int
    let state: Value
    let time: Double?
  }

  /// Any `Encodable` value, encoded as itself.
  struct Value: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
  }
}
