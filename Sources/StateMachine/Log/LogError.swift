/// Why (part of) an event log could not be read. Every case names the line (counted from 1).
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum LogError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file is empty: not even a header.
  case empty
  /// A line is not JSON, or not the JSON expected there.
  case malformed(line: Int, detail: String)
  /// A required field is missing.
  case missingField(line: Int, field: String)
  /// A field has the wrong type or an unknown value (an unknown event case, for example).
  case invalidValue(line: Int, field: String, detail: String)
  /// The header is not an `fsm-log` header.
  case notALog(line: Int)
  /// The log was written in a format version this library does not read (it reads from the
  /// first, 1, to `expected`, the version it writes).
  case unsupportedVersion(line: Int, found: Int, expected: Int)
  /// The log was recorded by another machine.
  case otherMachine(line: Int, found: String, expected: String)
  /// The log was recorded by another version of the table.
  case fingerprintMismatch(line: Int, found: String, expected: String)
  /// A line is longer than the reader accepts.
  case lineTooLong(line: Int, length: Int, limit: Int)
  /// The last line has no newline: the writer died while writing it.
  case tornTail(line: Int, bytes: Int)
  /// Entries are not numbered 1, 2, 3, ...
  case outOfSequence(line: Int, found: Int, expected: Int)
  /// The file could not be read or written.
  case io(path: String, detail: String)
  /// A new log was to be created where a file already exists (it is left untouched).
  case alreadyExists(path: String)
  /// A child machine's step cannot be recorded in its system's log (a type of the child's that
  /// is not `Codable`).
  case unrecordable(machine: String, detail: String)

  /// The line the error is about (0 for the whole file).
  public var line: Int {
    switch self {
    case .empty, .io, .alreadyExists, .unrecordable: 0
    case .malformed(let l, _), .missingField(let l, _), .invalidValue(let l, _, _), .notALog(let l),
      .unsupportedVersion(let l, _, _), .otherMachine(let l, _, _), .fingerprintMismatch(let l, _, _),
      .lineTooLong(let l, _, _), .tornTail(let l, _), .outOfSequence(let l, _, _):
      l
    }
  }

  public var description: String {
    switch self {
    case .empty: "the log is empty; expected a header line"
    case .malformed(let l, let d): "line \(l): not a valid log line (\(d))"
    case .missingField(let l, let f): "line \(l): field '\(f)' is missing"
    case .invalidValue(let l, let f, let d): "line \(l): field '\(f)': \(d)"
    case .notALog(let l): "line \(l): not an fsm-log header; expected {\"format\":\"fsm-log\",...}"
    case .unsupportedVersion(let l, let found, let expected):
      "line \(l): format version \(found); expected \(LogFormat.oldestVersion) to \(expected)"
    case .otherMachine(let l, let found, let expected): "line \(l): recorded by machine '\(found)'; expected '\(expected)'"
    case .fingerprintMismatch(let l, let found, let expected):
      "line \(l): recorded by a different table (fingerprint \(found); this table's is \(expected))"
    case .lineTooLong(let l, let length, let limit): "line \(l): \(length) bytes long; expected at most \(limit)"
    case .tornTail(let l, let bytes): "line \(l): torn (\(bytes) bytes without a newline): the writer stopped mid-line"
    case .outOfSequence(let l, let found, let expected): "line \(l): entry \(found); expected entry \(expected)"
    case .io(let path, let detail): "\(path): \(detail)"
    case .alreadyExists(let path):
      "\(path): already exists; resume it with LogRecorder(resuming:table:), or choose another path"
    case .unrecordable(let machine, let detail): "child machine \(machine): \(detail)"
    }
  }
}
