import Foundation

/// A recorded session of a machine: a header and one entry per step, stored as JSON Lines.
///
/// ```swift
/// let result = EventLog<S, E, C, F>.read(data, for: table)
/// if let error = result.error { print(error) }          // names the line
/// let report = table.replay(result.log!)                // first divergence, if any
/// ```
public struct EventLog<State: Codable, Event: Codable, Context: Codable, Effect: Codable> {
  public typealias Entry = LogEntry<State, Event, Context, Effect>
  public typealias Header = LogHeader<State, Context>

  /// The version of the format this library writes and reads.
  public static var formatVersion: Int { 1 }
  /// The longest line the reader accepts, in bytes.
  public static var maxLineLength: Int { LineSplitter.maxLineLength }

  /// The header line.
  public var header: Header
  /// The entries, in order.
  public var entries: [Entry]

  @inlinable
  public init(header: Header, entries: [Entry] = []) {
    self.header = header
    self.entries = entries
  }

  /// What ``read(_:for:)`` found: the valid prefix, and the error that stopped it, if any.
  public struct ReadResult {
    /// The header and every entry before the first bad line; `nil` when the header is unusable.
    public var log: EventLog?
    /// Why reading stopped early; `nil` when the whole input was read.
    public var error: LogError?

    @inlinable
    init(log: EventLog?, error: LogError?) {
      self.log = log
      self.error = error
    }
  }

  /// Reads a log. When `table` is given, the header must name its machine and fingerprint.
  /// Never throws and never traps: a bad line ends the read with a typed error, and the
  /// entries before it stay available.
  @inlinable
  public static func read<Ctx, Eff>(_ data: Data, for table: TransitionTable<State, Event, Ctx, Eff>) -> ReadResult {
    read(data, expecting: (table.name, table.fingerprint))
  }

  /// Reads a log without checking which machine recorded it.
  @inlinable
  public static func read(_ data: Data) -> ReadResult {
    read(data, expecting: nil)
  }

  @inlinable
  static func read(_ data: Data, expecting table: (name: String, fingerprint: String)?) -> ReadResult {
    var lines = LineSplitter(data: data)
    guard let first = lines.next() else { return ReadResult(log: nil, error: .empty) }
    if let error = lines.problem(of: first) { return ReadResult(log: nil, error: error) }
    let header: Header
    do {
      let probe = try decoder.decode(HeaderProbe.self, from: first.bytes)
      guard probe.format == "fsm-log" else { return ReadResult(log: nil, error: .notALog(line: 1)) }
      guard probe.version == formatVersion else {
        return ReadResult(log: nil, error: .unsupportedVersion(line: 1, found: probe.version, expected: formatVersion))
      }
      header = try decoder.decode(Header.self, from: first.bytes)
    } catch {
      return ReadResult(log: nil, error: LogError(decoding: error, line: 1, notJSON: .notALog(line: 1)))
    }
    if let table {
      if header.machine != table.name {
        return ReadResult(log: nil, error: .otherMachine(line: 1, found: header.machine, expected: table.name))
      }
      if header.fingerprint != table.fingerprint {
        return ReadResult(log: nil, error: .fingerprintMismatch(line: 1, found: header.fingerprint, expected: table.fingerprint))
      }
    }
    var log = EventLog(header: header)
    var scanner = EntryScanner<State, Event, Context, Effect>()
    while let line = lines.next() {
      if let error = lines.problem(of: line) { return ReadResult(log: log, error: error) }
      do throws(LogError) {
        let entry = try scanner.entry(line.bytes, number: line.number)
        let expected = log.entries.count + 1
        guard entry.sequence == expected else {
          return ReadResult(log: log, error: .outOfSequence(line: line.number, found: entry.sequence, expected: expected))
        }
        log.entries.append(entry)
      } catch {
        return ReadResult(log: log, error: error)
      }
    }
    return ReadResult(log: log, error: nil)
  }

  /// The log as JSON Lines: the header, then one line per entry, each ending with a newline.
  public func encoded() throws -> Data {
    var data = try Self.line(header)
    for entry in entries { data += try Self.line(entry) }
    return data
  }

  /// One value as a log line (JSON and a newline).
  public static func line(_ value: some Encodable) throws -> Data {
    var data = try encoder.encode(value)
    data.append(0x0A)
    return data
  }

  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  @usableFromInline
  static var decoder: JSONDecoder { JSONDecoder() }

  @usableFromInline
  struct HeaderProbe: Decodable {
    @usableFromInline var format: String
    @usableFromInline var version: Int
  }
}

/// Splits a log into lines, noting lines that are too long or torn (no final newline).
@usableFromInline
struct LineSplitter {
  @usableFromInline
  struct Line {
    @usableFromInline var number: Int
    @usableFromInline var bytes: Data
    @usableFromInline var torn: Bool
  }

  /// The longest line the reader accepts, in bytes.
  @usableFromInline static var maxLineLength: Int { 1 << 20 }

  @usableFromInline let data: Data
  @usableFromInline var offset: Data.Index
  @usableFromInline var number = 0

  @usableFromInline
  init(data: Data) {
    self.data = data
    offset = data.startIndex
  }

  @usableFromInline
  mutating func next() -> Line? {
    guard offset < data.endIndex else { return nil }
    number += 1
    if let newline = data[offset...].firstIndex(of: 0x0A) {
      defer { offset = newline + 1 }
      return Line(number: number, bytes: data[offset..<newline], torn: false)
    }
    defer { offset = data.endIndex }
    return Line(number: number, bytes: data[offset...], torn: true)
  }

  @usableFromInline
  func problem(of line: Line) -> LogError? {
    if line.bytes.count > Self.maxLineLength {
      return .lineTooLong(line: line.number, length: line.bytes.count, limit: Self.maxLineLength)
    }
    if line.torn { return .tornTail(line: line.number, bytes: line.bytes.count) }
    return nil
  }
}

extension LogError {
  static func isValueError(_ context: DecodingError.Context) -> Bool {
    context.underlyingError == nil && !context.debugDescription.lowercased().contains("json")
  }

  /// The typed error for a decoding failure on `line`.
  @usableFromInline
  init(decoding error: any Error, line: Int, notJSON: LogError?) {
    guard let error = error as? DecodingError else {
      self = .malformed(line: line, detail: "\(error)")
      return
    }
    let path = { (context: DecodingError.Context) in context.codingPath.map(\.stringValue).joined(separator: ".") }
    switch error {
    case .keyNotFound(let key, let context):
      let prefix = path(context)
      self = .missingField(line: line, field: prefix.isEmpty ? key.stringValue : prefix + "." + key.stringValue)
    case .valueNotFound(_, let context), .typeMismatch(_, let context):
      self = .invalidValue(line: line, field: path(context), detail: context.debugDescription)
    case .dataCorrupted(let context):
      // An empty path with an underlying error is a JSON syntax error; without one, a value
      // the type refused (an unknown enum case decoded on its own, say).
      if context.codingPath.isEmpty, !Self.isValueError(context) {
        self = notJSON ?? .malformed(line: line, detail: "not JSON")
      } else {
        self = .invalidValue(line: line, field: path(context), detail: context.debugDescription)
      }
    @unknown default:
      self = .malformed(line: line, detail: "\(error)")
    }
  }
}
