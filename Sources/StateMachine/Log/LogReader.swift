import Foundation

/// Reads an event log one entry at a time, from a file or from memory. A file is read as a
/// stream: memory stays constant however long the log is (one line of at most
/// `EventLog.maxLineLength` bytes is held at a time).
///
/// ```swift
/// var reader = try LogReader(contentsOf: "session.jsonl", for: table)
/// print(reader.header.state)
/// while let entry = try reader.next() { print(entry.sequence, entry.event) }
/// ```
///
/// The header is checked when the reader is made: that it is an `fsm-log` header of this
/// format version, then (with a table) that it names the table's machine and fingerprint, and
/// only then its state and context are decoded — so a log of another machine is reported as
/// such, not as a state this table cannot decode. Every line is checked as strict JSON first.
public struct LogReader<State: Codable, Event: Codable, Context: Codable, Effect: Codable> {
  /// One entry the reader reads.
  public typealias Entry = LogEntry<State, Event, Context, Effect>

  /// The log's header.
  public let header: LogHeader<State, Context>
  @usableFromInline var lines: LogLines
  @usableFromInline var scanner = EntryScanner<State, Event, Context, Effect>()
  @usableFromInline var count = 0
  @usableFromInline var stopped = false
  /// Children's lines read and not taken yet (see ``takeChildLines()``).
  @usableFromInline var childLines: [ChildLogLine] = []

  /// Opens the log file at `path`, checks its header against `table`, and decodes it.
  ///
  /// - Throws: ``LogError``: `.io` naming why the path cannot be read (missing, a directory, a
  ///   FIFO, a device, unreadable), or the header's problem.
  @inlinable
  public init(contentsOf path: String, for table: TransitionTable<State, Event, Context, Effect>) throws(LogError)
  where State: Discriminated, Event: Discriminated, Effect: Sendable {
    try self.init(.file(FileLines.open(path)), expecting: (table.name, table.fingerprint))
  }

  /// Opens the log file at `path` without checking which machine recorded it.
  @inlinable
  public init(contentsOf path: String) throws(LogError) {
    try self.init(.file(FileLines.open(path)), expecting: nil)
  }

  /// Reads a log held in memory, checking its header against `table`.
  @inlinable
  public init(_ data: Data, for table: TransitionTable<State, Event, Context, Effect>) throws(LogError)
  where State: Discriminated, Event: Discriminated, Effect: Sendable {
    try self.init(.memory(MemoryLines(data: data)), expecting: (table.name, table.fingerprint))
  }

  @inlinable
  init(_ lines: LogLines, expecting table: (name: String, fingerprint: String)?) throws(LogError) {
    self.lines = lines
    guard let first = try self.lines.next() else { throw .empty }
    header = try Self.header(first, expecting: table)
  }

  /// Entries read so far.
  @inlinable public var entriesRead: Int { count }

  /// The next entry; `nil` at the end of the log. After an error, reading is over: the next
  /// call returns `nil`.
  ///
  /// - Throws: ``LogError`` naming the line: a torn or too long line, invalid JSON, a missing
  ///   or invalid field, an entry out of sequence.
  @inlinable
  public mutating func next() throws(LogError) -> Entry? {
    guard !stopped else { return nil }
    do throws(LogError) {
      guard var line = try lines.next() else {
        stopped = true
        return nil
      }
      if line.isChild {
        guard let following = try keepChildLines(from: line) else {
          stopped = true
          return nil
        }
        line = following
      }
      if let problem = line.problem { throw problem }
      let entry = try scanner.entry(line.bytes, number: line.number)
      guard entry.sequence == count + 1 else {
        throw LogError.outOfSequence(line: line.number, found: entry.sequence, expected: count + 1)
      }
      count += 1
      return entry
    } catch {
      stopped = true
      throw error
    }
  }

  /// Keeps `line`, a child's step (a system's log), and the children's lines after it, for a
  /// system's replay; returns the first line that is not a child's (`nil` at the end).
  @usableFromInline
  mutating func keepChildLines(from line: LogLine) throws(LogError) -> LogLine? {
    var line = line
    while true {
      if let problem = line.problem { throw problem }
      childLines.append(try ChildLogLine.read(line.bytes, number: line.number, afterEntry: count))
      guard let next = try lines.next() else { return nil }
      guard next.isChild else { return next }
      line = next
    }
  }

  /// The children's lines read since the last call (a system's log: each child's steps,
  /// between the entries they followed), handed over once.
  @inlinable
  package mutating func takeChildLines() -> [ChildLogLine] {
    guard !childLines.isEmpty else { return [] }
    defer { childLines.removeAll() }
    return childLines
  }

  /// Checks and decodes the header line: format and version, then the machine and fingerprint,
  /// then the typed state and context.
  @usableFromInline
  static func header(_ line: LogLine, expecting table: (name: String, fingerprint: String)?) throws(LogError) -> LogHeader<State, Context> {
    let probe = try LogHeaderProbe.check(line)
    if let table {
      guard probe.machine == table.name else { throw .otherMachine(line: 1, found: probe.machine, expected: table.name) }
      guard probe.fingerprint == table.fingerprint else {
        throw .fingerprintMismatch(line: 1, found: probe.fingerprint, expected: table.fingerprint)
      }
    }
    do {
      return try JSONDecoder().decode(LogHeader<State, Context>.self, from: line.bytes)
    } catch {
      throw LogError(decoding: error, line: 1)
    }
  }
}

/// The untyped part of a log header: enough to tell whether a line is a header of this format
/// and which machine wrote it, before the typed state and context are decoded.
@usableFromInline
struct LogHeaderProbe: Decodable {
  @usableFromInline var version: Int
  @usableFromInline var machine: String
  @usableFromInline var fingerprint: String

  /// Checks `line` (the first of a file) is a complete, strict-JSON `fsm-log` header of this
  /// format version.
  @usableFromInline
  static func check(_ line: LogLine) throws(LogError) -> LogHeaderProbe {
    if let problem = line.problem { throw problem }
    if let problem = StrictJSON.problem(in: line.bytes) {
      let opensObject = line.bytes.first { $0 != 0x20 && $0 != 0x09 } == UInt8(ascii: "{")
      throw opensObject ? .malformed(line: 1, detail: "not JSON: \(problem)") : .notALog(line: 1)
    }
    let decoder = JSONDecoder()
    guard let format = try? decoder.decode(FormatProbe.self, from: line.bytes), format.format == "fsm-log" else {
      throw .notALog(line: 1)
    }
    let probe: LogHeaderProbe
    do { probe = try decoder.decode(LogHeaderProbe.self, from: line.bytes) } catch { throw LogError(decoding: error, line: 1) }
    guard LogFormat.readable.contains(probe.version) else {
      throw .unsupportedVersion(line: 1, found: probe.version, expected: LogFormat.version)
    }
    return probe
  }

  @usableFromInline
  struct FormatProbe: Decodable {
    @usableFromInline var format: String
  }
}
