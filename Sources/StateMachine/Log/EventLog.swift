import Foundation

/// A recorded session of a machine: a header and one entry per step, stored as JSON Lines.
///
/// ```swift
/// let result = EventLog<S, E, C, F>.read(data, for: table)
/// if let error = result.error { print(error) }          // names the line
/// let report = table.replay(result.log!)                // first divergence, if any
/// ```
public struct EventLog<State: Codable, Event: Codable, Context: Codable, Effect: Codable> {
  /// One step of this log.
  public typealias Entry = LogEntry<State, Event, Context, Effect>
  /// The first line of this log.
  public typealias Header = LogHeader<State, Context>

  /// The longest line the reader accepts, in bytes.
  static var maxLineLength: Int { LogLine.maxLength }

  /// The header line.
  public var header: Header
  /// The entries, in order.
  public var entries: [Entry]
  /// A system's log: its children's steps, each after the entries it followed.
  public var childLines: [ChildLogLine] = []

  /// A log with this header and these entries.
  @inlinable
  package init(header: Header, entries: [Entry] = []) {
    self.header = header
    self.entries = entries
  }

  /// What `read(_:for:)` found: the valid prefix, and the error that stopped it, if any.
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
    read(.memory(MemoryLines(data: data)), expecting: (table.name, table.fingerprint))
  }

  /// Reads a log without checking which machine recorded it.
  @inlinable
  public static func read(_ data: Data) -> ReadResult {
    read(.memory(MemoryLines(data: data)), expecting: nil)
  }

  /// Reads the log file at `path` (a regular file; anything else is refused with its reason).
  /// The entries are kept in memory: to go through a long log in constant memory, use a
  /// ``LogReader``.
  @inlinable
  public static func read<Ctx, Eff>(contentsOf path: String, for table: TransitionTable<State, Event, Ctx, Eff>) -> ReadResult {
    do {
      return read(.file(try FileLines.open(path)), expecting: (table.name, table.fingerprint))
    } catch {
      return ReadResult(log: nil, error: error)
    }
  }

  @inlinable
  static func read(_ lines: LogLines, expecting table: (name: String, fingerprint: String)?) -> ReadResult {
    var reader: LogReader<State, Event, Context, Effect>
    do { reader = try LogReader(lines, expecting: table) } catch { return ReadResult(log: nil, error: error) }
    var log = EventLog(header: reader.header)
    while true {
      do throws(LogError) {
        let entry = try reader.next()
        if !reader.childLines.isEmpty { log.childLines += reader.takeChildLines() }
        guard let entry else { return ReadResult(log: log, error: nil) }
        log.entries.append(entry)
      } catch {
        // The children's lines before the bad one stay, as the entries before it do.
        log.childLines += reader.takeChildLines()
        return ReadResult(log: log, error: error)
      }
    }
  }

  /// The log as JSON Lines: the header, then one line per entry, each ending with a newline.
  @inlinable
  public func encoded() throws -> Data {
    try encoded(with: LogLineWriter())
  }

  /// The log's lines written by `writer`.
  @inlinable
  func encoded(with writer: LogLineWriter<State, Event, Context, Effect>) throws -> Data {
    var writer = writer
    var bytes = Array(try Self.line(header))
    var children = childLines.makeIterator()
    var child = children.next()
    for (index, entry) in entries.enumerated() {
      while let line = child, line.afterEntry <= index {
        bytes += Array(line.text.utf8) + [0x0A]
        child = children.next()
      }
      try writer.append(entry, to: &bytes)
    }
    while let line = child {
      bytes += Array(line.text.utf8) + [0x0A]
      child = children.next()
    }
    return Data(bytes)
  }

  /// One value as a log line (JSON and a newline).
  @usableFromInline
  package static func line(_ value: some Encodable) throws -> Data {
    var data = try encoder.encode(value)
    data.append(0x0A)
    return data
  }

  static var encoder: JSONEncoder { AnyJSON.encoder }

  @usableFromInline
  static var decoder: JSONDecoder { JSONDecoder() }

}

extension EventLog where State: Hashable {
  /// The log as JSON Lines: the header, then one line per entry, each ending with a newline.
  /// (States known to be `Hashable` here, a chart's for one, are remembered by a cache
  /// specialised for them.)
  @inlinable
  public func encoded() throws -> Data {
    try encoded(with: LogLineWriter(states: .hashing()))
  }
}

extension LogError {
  /// The typed error for a decoding failure on `line`, whose JSON is known to be valid (the
  /// reader checks it strictly first): every failure is about a value, never about syntax.
  @usableFromInline
  init(decoding error: any Error, line: Int) {
    guard let error = error as? DecodingError else {
      self = .malformed(line: line, detail: "\(error)")
      return
    }
    let path = { (context: DecodingError.Context) in context.codingPath.map(\.stringValue).joined(separator: ".") }
    switch error {
    case .keyNotFound(let key, let context):
      let prefix = path(context)
      self = .missingField(line: line, field: prefix.isEmpty ? key.stringValue : prefix + "." + key.stringValue)
    case .valueNotFound(_, let context), .typeMismatch(_, let context), .dataCorrupted(let context):
      self = .invalidValue(line: line, field: path(context), detail: context.debugDescription)
    @unknown default:
      self = .malformed(line: line, detail: "\(error)")
    }
  }
}
