import Foundation
@testable import StateMachine
import StateMachineExamples
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A table whose context is an `Int`, to log numbers of the wrong type.
let tallyTable = try! TransitionTable<String, String, Int, String>(
  name: "tally", initial: "open", rows: [.stay(in: "open", on: "add").update { count, _ in count += 1 }])
typealias TallyLog = EventLog<String, String, Int, String>

@Suite("Log input: strict JSON, clear reasons, streaming")
struct LogInputTests {
  static let header = LogTests.header
  static let entry1 = LogTests.entry1

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let lines: [String]
    let error: LogError
    var testDescription: String { label }
  }

  static func entry(_ replace: String, with replacement: String) -> String {
    entry1.replacingOccurrences(of: replace, with: replacement)
  }

  static let invalidJSON: [Case] = [
    Case(label: "NaN", lines: [header, entry(#""sequence":1"#, with: #""sequence":NaN"#)],
         error: .malformed(line: 2, detail: "not JSON: NaN is not JSON at byte 96")),
    Case(label: "Infinity", lines: [header, entry(#""sequence":1"#, with: #""sequence":1,"time":Infinity"#)],
         error: .malformed(line: 2, detail: "not JSON: Infinity is not JSON at byte 105")),
    Case(label: "hexadecimal", lines: [header, entry(#""sequence":1"#, with: #""sequence":0x1"#)],
         error: .malformed(line: 2, detail: "not JSON: invalid number: hexadecimal is not JSON at byte 96")),
    Case(label: "a leading plus", lines: [header, entry(#""sequence":1"#, with: #""sequence":+1"#)],
         error: .malformed(line: 2, detail: "not JSON: invalid number: a leading '+' is not JSON at byte 96")),
    Case(label: "a leading zero", lines: [header, entry(#""sequence":1"#, with: #""sequence":01"#)],
         error: .malformed(line: 2, detail: "not JSON: invalid number: leading zero at byte 96")),
    Case(label: "duplicate top-level key", lines: [header, entry(#""sequence":1"#, with: #""sequence":1,"sequence":1"#)],
         error: .malformed(line: 2, detail: "not JSON: duplicate key \"sequence\" at byte 98")),
    Case(label: "duplicate key in a value", lines: [header, entry(#""context":{}"#, with: #""context":{"a":1,"a":2}"#)],
         error: .malformed(line: 2, detail: "not JSON: duplicate key \"a\" at byte 19")),
    Case(label: "duplicate key spelled with an escape", lines: [header, entry(#""context":{}"#, with: #""context":{"a":1,"\u0061":2}"#)],
         error: .malformed(line: 2, detail: "not JSON: duplicate key \"\\u0061\" at byte 19")),
    Case(label: "duplicate key in the header",
         lines: [header.replacingOccurrences(of: #""machine":"cd-player""#, with: #""machine":"cd-player","machine":"jukebox""#)],
         error: .malformed(line: 1, detail: "not JSON: duplicate key \"machine\" at byte 89")),
    Case(label: "invalid UTF-8", lines: [header, entry(#""event":"openClose""#, with: "\"event\":\"open\u{FFFD}Close\"")],
         error: .malformed(line: 2, detail: "not JSON: invalid UTF-8 at byte 53")),
    Case(label: "a control character in a string", lines: [header, entry(#""event":"openClose""#, with: "\"event\":\"open\tClose\"")],
         error: .malformed(line: 2, detail: "not JSON: control character 0x9 in a string; expected it escaped at byte 53")),
    Case(label: "nesting 10 000 deep", lines: [header, entry(#""context":{}"#, with: #""context":"# + String(repeating: "[", count: 10_000))],
         error: .malformed(line: 2, detail: "not JSON: nested deeper than 512 levels at byte 523")),
  ]

  /// The line bytes, with the U+FFFD placeholder turned into a lone 0xFF byte (invalid UTF-8).
  static func bytes(_ lines: [String]) -> Data {
    var data = Data((lines.joined(separator: "\n") + "\n").utf8)
    while let range = data.range(of: Data("\u{FFFD}".utf8)) { data.replaceSubrange(range, with: [0xFF]) }
    return data
  }

  @Test("JSON that is not strictly valid is refused with its line and what is wrong", arguments: invalidJSON)
  func strictJSON(_ c: Case) {
    let result = CDLog.read(Self.bytes(c.lines), for: CDPlayer.table)
    #expect(result.error == c.error)
  }

  static let wrongValues: [Case] = [
    Case(label: "a fraction for the sequence", lines: [header, entry(#""sequence":1"#, with: #""sequence":1.5"#)],
         error: .invalidValue(line: 2, field: "sequence", detail: "1.5 is not an integer in range; expected an integer")),
    Case(label: "1e400 for the sequence", lines: [header, entry(#""sequence":1"#, with: #""sequence":1e400"#)],
         error: .invalidValue(line: 2, field: "sequence", detail: "1e400 is not an integer in range; expected an integer")),
    Case(label: "1e400 for the time", lines: [header, entry(#""sequence":1"#, with: #""sequence":1,"time":1e400"#)],
         error: .invalidValue(line: 2, field: "time", detail: "1e400 is out of range; expected a number of seconds")),
    Case(label: "a string for the time", lines: [header, entry(#""sequence":1"#, with: #""sequence":1,"time":"soon""#)],
         error: .invalidValue(line: 2, field: "time", detail: "\"soon\" is not a number; expected a number of seconds")),
  ]

  @Test("valid JSON of the wrong type names the field, never 'not JSON'", arguments: wrongValues)
  func wrongValue(_ c: Case) {
    #expect(CDLog.read(Self.bytes(c.lines), for: CDPlayer.table).error == c.error)
  }

  @Test("a fraction or 1e400 for an Int in the user's context is a wrong value, not 'not JSON'", arguments: ["1.5", "1e400", "\"one\""])
  func userNumberOfTheWrongType(_ value: String) throws {
    let header = #"{"context":0,"fingerprint":"\#(tallyTable.fingerprint)","format":"fsm-log","machine":"tally","state":"open","version":1}"#
    let entry = #"{"context":\#(value),"effects":[],"event":"add","outcome":"stayed","sequence":1,"state":"open"}"#
    let error = try #require(TallyLog.read(Data((header + "\n" + entry + "\n").utf8), for: tallyTable).error)
    guard case .invalidValue(line: 2, field: "context", let detail) = error else {
      Issue.record("expected an invalid value of field 'context' on line 2, got \(error)")
      return
    }
    #expect(!detail.contains("not JSON") && !detail.isEmpty)
    let badHeader = header.replacingOccurrences(of: #""context":0"#, with: #""context":\#(value)"#)
    #expect(TallyLog.read(Data((badHeader + "\n").utf8), for: tallyTable).error?.line == 1)
  }

  @Test("a log of another machine says so from its header, before its state is decoded")
  func otherMachine() {
    let login = #"{"context":{},"fingerprint":"0123456789abcdef","format":"fsm-log","machine":"login","state":"welcome","version":1}"#
    #expect(CDLog.read(Data((login + "\n").utf8), for: CDPlayer.table).error
      == .otherMachine(line: 1, found: "login", expected: "cd-player"))
    #expect(throws: LogError.otherMachine(line: 1, found: "login", expected: "cd-player")) {
      try LogReader(Data((login + "\n").utf8), for: CDPlayer.table)
    }
  }

  struct PathCase: Sendable, CustomTestStringConvertible {
    let label: String
    let make: @Sendable (String) -> String  // makes the thing, returns its path
    let reason: String
    var testDescription: String { label }
  }

  static let paths: [PathCase] = [
    PathCase(label: "missing", make: { $0 + "-missing" }, reason: "no such file"),
    PathCase(label: "a directory", make: { path in
      try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      return path
    }, reason: "is a directory; expected a file"),
    PathCase(label: "a FIFO (no writer: opening must not block)", make: { path in
      _ = mkfifo(path, 0o644)
      return path
    }, reason: "is a named pipe (FIFO); expected a regular file"),
    PathCase(label: "a device", make: { _ in "/dev/zero" }, reason: "is a device; expected a regular file"),
    PathCase(label: "under a file", make: { path in
      _ = FileManager.default.createFile(atPath: path, contents: Data())
      return path + "/log.jsonl"
    }, reason: "a component of the path is not a directory"),
  ]

  @Test("what is not a readable regular file gets its own reason", arguments: paths)
  func notAFile(_ c: PathCase) {
    let base = temporaryPath("kind")
    defer { try? FileManager.default.removeItem(atPath: base) }
    let path = c.make(base)
    #expect(throws: LogError.io(path: path, detail: c.reason)) { try LogReader(contentsOf: path, for: CDPlayer.table) }
    #expect(CDLog.read(contentsOf: path, for: CDPlayer.table).error == .io(path: path, detail: c.reason))
    #expect(throws: LogError.io(path: path, detail: c.reason)) { try CDPlayer.table.replay(logAt: path) }
  }

  @Test("an unreadable file says permission denied", .enabled(if: geteuid() != 0, "root reads any file"))
  func unreadable() throws {
    let path = temporaryPath("unreadable")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try cdSession(2).encoded().write(to: URL(fileURLWithPath: path))
    chmod(path, 0)
    #expect(throws: LogError.io(path: path, detail: "permission denied: cannot read the file")) {
      try LogReader(contentsOf: path, for: CDPlayer.table)
    }
  }

  @Test("a log file is read as a stream: lines across chunk boundaries, a line too long, the same result as in memory")
  func streaming() throws {
    let path = temporaryPath("stream")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let log = try cdSession(3000)  // about 390 KB: several 64 KiB chunks
    let data = try log.encoded()
    try data.write(to: URL(fileURLWithPath: path))
    var reader = try LogReader(contentsOf: path, for: CDPlayer.table)
    var count = 0
    while let entry = try reader.next() {
      count += 1
      #expect(entry.sequence == count)
    }
    #expect(count == 3000)
    #expect(try CDPlayer.table.replay(logAt: path).replayed == 3000)

    // A line of 3 MiB after 10 valid entries: counted, never held.
    let long = try cdSession(10).encoded() + Data(repeating: 0x78, count: 3 << 20) + Data("\n".utf8)
    try long.write(to: URL(fileURLWithPath: path))
    let fromFile = CDLog.read(contentsOf: path, for: CDPlayer.table)
    let fromMemory = CDLog.read(long, for: CDPlayer.table)
    #expect(fromFile.error == .lineTooLong(line: 12, length: 3 << 20, limit: 1 << 20))
    #expect(fromFile.error == fromMemory.error)
    #expect(fromFile.log?.entries.count == 10)
  }

  @Test("fuzz: 10 000 mutated logs (structural bytes, deletions, bit flips); every 10th through a file gives the in-memory reader's error")
  func fuzzFiles() throws {
    let base = try cdSession(8).encoded()
    var generator = SplitMix64(seed: 12)
    let path = temporaryPath("fuzz")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var kinds = Set<String>()
    for round in 0..<10_000 {
      var mutated = base
      for _ in 0..<(1 + Int(generator.next() % 3)) {
        let i = mutated.startIndex + Int(generator.next() % UInt64(mutated.count))
        switch generator.next() % 3 {
        case 0: mutated[i] ^= UInt8(1 << (generator.next() % 8))
        case 1: mutated[i] = [0x22, 0x2C, 0x7B, 0x7D, 0x5B, 0x5D, 0x3A, 0x0A, 0x30, 0x2D, 0xFF][Int(generator.next() % 11)]
        default: mutated.remove(at: i)
        }
      }
      let memory = CDLog.read(mutated, for: CDPlayer.table)
      if round % 10 == 0 {  // the file path, on a sample (each costs a write)
        try mutated.write(to: URL(fileURLWithPath: path))
        let file = CDLog.read(contentsOf: path, for: CDPlayer.table)
        #expect(file.error == memory.error)
        #expect(file.log?.entries.count == memory.log?.entries.count)
      }
      if let error = memory.error {
        #expect(error.line >= 1 && error.line <= 10, "every rejection names its line: \(error)")
        kinds.insert(String(String(describing: error).prefix(while: { $0 != "(" && $0 != ":" })))
      }
    }
    #expect(kinds.count >= 3, "\(kinds)")
  }
}
