import Foundation
@testable import StateMachine
import StateMachineExamples
import Testing

typealias CDLog = EventLog<CDPlayer.State, CDPlayer.Event, NoContext, CDPlayer.Action>

/// A CD player session of `count` steps, recorded from a bare machine.
func cdSession(_ count: Int) throws -> CDLog {
  let recorder = try LogRecorder(table: CDPlayer.table, state: .empty, context: NoContext())
  var machine = Machine(CDPlayer.table)
  for i in 0..<count { try recorder.send(CDPlayer.benchmarkCycle[i % 11], to: &machine) }
  return recorder.log
}

@Suite("Event logs: record, read, replay")
struct LogTests {
  @Test("a recorded session reads back and replays identically")
  func roundTrip() throws {
    let log = try cdSession(22)
    let data = try log.encoded()
    #expect(data.split(separator: 0x0A).count == 23)
    let read = CDLog.read(data, for: CDPlayer.table)
    #expect(read.error == nil)
    #expect(read.log?.entries.count == 22)
    #expect(read.log?.entries[2].outcome == .transitioned)
    #expect(read.log?.entries[0].effects == [.openDrawer])
    #expect(read.log?.entries[3].state == .playing)
    let report = CDPlayer.table.replay(try #require(read.log))
    #expect(report.isIdentical)
    #expect(report.replayed == 22)
  }

  @Test("the shipped session log in Specs/ replays identically")
  func shippedSession() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Specs/cd-player-session.jsonl")
    let read = CDLog.read(try Data(contentsOf: url), for: CDPlayer.table)
    #expect(read.error == nil)
    #expect(CDPlayer.table.replay(try #require(read.log)).isIdentical)
  }

  @Test("a changed table is detected: its fingerprint differs, and replay names the first divergence")
  func divergence() throws {
    let log = try cdSession(11)
    var rows = CDPlayer.table.rows
    rows[3] = .transition(from: .empty, on: .openClose, to: .open, effects: .closeDrawer)  // was openDrawer
    let changed = try TransitionTable(name: "cd-player", initial: CDPlayer.State.empty, rows: rows, policy: .ignore)
    #expect(changed.fingerprint != CDPlayer.table.fingerprint)
    let read = CDLog.read(try log.encoded(), for: changed)
    #expect(read.error == .fingerprintMismatch(line: 1, found: CDPlayer.table.fingerprint, expected: changed.fingerprint))
    let report = changed.replay(log)
    #expect(report.divergences.count == 1)
    let first = try #require(report.divergences.first)
    #expect(first.sequence == 1 && first.line == 2 && first.event == "openClose")
    #expect(first.differences == [.init(field: "effects", expected: "[openDrawer]", actual: "[closeDrawer]")])
    let all = changed.replay(log, reportingAll: true)
    #expect(all.divergences.map(\.sequence) == [1], "the changed row fires once per cycle")
    let twoCycles = changed.replay(try cdSession(22), reportingAll: true)
    #expect(twoCycles.divergences.map(\.sequence) == [1, 12])
  }

  @Test("a tampered entry is reported with expected and actual state")
  func tampered() throws {
    var log = try cdSession(4)
    log.entries[2].state = .paused
    let report = CDPlayer.table.replay(log)
    #expect(report.description == """
      replayed 3 entries: 1 divergence
      entry 3 (line 4), event cdDetected:
        state: expected paused, got stopped
      """)
  }

  struct BadCase: Sendable, CustomTestStringConvertible {
    let label: String
    let lines: [String]
    let trailingNewline: Bool
    let error: LogError
    let validEntries: Int?
    var testDescription: String { label }
  }

  static let header = #"{"context":{},"fingerprint":"\#(CDPlayer.table.fingerprint)","format":"fsm-log","machine":"cd-player","state":"empty","version":1}"#
  static let entry1 = #"{"context":{},"effects":["openDrawer"],"event":"openClose","outcome":"transitioned","sequence":1,"state":"open"}"#
  static let entry2 = #"{"context":{},"effects":["closeDrawer"],"event":"openClose","outcome":"transitioned","sequence":2,"state":"empty"}"#

  static let badCases: [BadCase] = [
    .init(label: "empty file", lines: [], trailingNewline: false, error: .empty, validEntries: nil),
    .init(label: "header is not JSON", lines: ["hello"], trailingNewline: true, error: .notALog(line: 1), validEntries: nil),
    .init(label: "header of another format", lines: [#"{"format":"csv","version":1}"#], trailingNewline: true,
          error: .notALog(line: 1), validEntries: nil),
    .init(label: "a later format version", lines: [header.replacingOccurrences(of: #""version":1"#, with: #""version":3"#)],
          trailingNewline: true, error: .unsupportedVersion(line: 1, found: 3, expected: 2), validEntries: nil),
    .init(label: "no format version before the first", lines: [header.replacingOccurrences(of: #""version":1"#, with: #""version":0"#)],
          trailingNewline: true, error: .unsupportedVersion(line: 1, found: 0, expected: 2), validEntries: nil),
    .init(label: "another machine", lines: [header.replacingOccurrences(of: "cd-player", with: "jukebox")], trailingNewline: true,
          error: .otherMachine(line: 1, found: "jukebox", expected: "cd-player"), validEntries: nil),
    .init(label: "malformed JSON in an entry", lines: [header, entry1, "{not json"], trailingNewline: true,
          error: .malformed(line: 3, detail: "not JSON: expected a key in quotes, found 'n' at byte 2"), validEntries: 1),
    .init(label: "unknown event case", lines: [header, entry1.replacingOccurrences(of: #""event":"openClose""#, with: #""event":"eject""#)],
          trailingNewline: true, error: .invalidValue(line: 2, field: "event", detail: "Cannot initialize Event from invalid String value eject"),
          validEntries: 0),
    .init(label: "missing field", lines: [header, entry1.replacingOccurrences(of: #","state":"open""#, with: "")],
          trailingNewline: true, error: .missingField(line: 2, field: "state"), validEntries: 0),
    .init(label: "unknown outcome", lines: [header, entry1.replacingOccurrences(of: "transitioned", with: "teleported")],
          trailingNewline: true,
          error: .invalidValue(line: 2, field: "outcome", detail: "'teleported' is not an outcome; expected transitioned, stayed, ignored or rejected(<reason>)"),
          validEntries: 0),
    .init(label: "entries out of sequence", lines: [header, entry1, entry1], trailingNewline: true,
          error: .outOfSequence(line: 3, found: 1, expected: 2), validEntries: 1),
    .init(label: "torn last line", lines: [header, entry1, String(entry2.prefix(30))], trailingNewline: false,
          error: .tornTail(line: 3, bytes: 30), validEntries: 1),
    .init(label: "huge line", lines: [header, entry1, String(repeating: "x", count: (1 << 20) + 1)], trailingNewline: true,
          error: .lineTooLong(line: 3, length: (1 << 20) + 1, limit: 1 << 20), validEntries: 1),
  ]

  @Test("bad input gets a typed error with its line; the valid prefix stays", arguments: badCases)
  func badInput(_ c: BadCase) {
    let text = c.lines.joined(separator: "\n") + (c.trailingNewline && !c.lines.isEmpty ? "\n" : "")
    let result = CDLog.read(Data(text.utf8), for: CDPlayer.table)
    #expect(result.error == c.error)
    #expect(result.log?.entries.count == c.validEntries)
  }

  @Test("fuzz: mutated logs (FSM_FUZZ_COUNT, see FuzzTests) give only typed errors naming a line, never a crash")
  func fuzz() throws {
    let base = try cdSession(8).encoded()
    let lines = base.split(separator: 0x0A, omittingEmptySubsequences: false).map { Data($0) }
    var generator = SplitMix64(seed: 2026)
    var outcomes: [String: Int] = [:]
    var slowest = Duration.zero
    for _ in 0..<FuzzTests.count {
      var mutated: Data
      switch generator.next() % 4 {
      case 0:  // bit flips
        mutated = base
        for _ in 0..<(1 + Int(generator.next() % 3)) {
          let i = Int(generator.next() % UInt64(mutated.count))
          mutated[mutated.startIndex + i] ^= UInt8(1 << (generator.next() % 8))
        }
      case 1:  // truncation
        mutated = base.prefix(Int(generator.next() % UInt64(base.count)))
      case 2:  // two lines swapped
        var copy = lines
        let a = Int(generator.next() % UInt64(copy.count - 1))
        let b = Int(generator.next() % UInt64(copy.count - 1))
        copy.swapAt(a, b)
        mutated = Data(copy.joined(separator: [0x0A]))
      default:  // a line duplicated
        var copy = lines
        let a = Int(generator.next() % UInt64(copy.count - 1))
        copy.insert(copy[a], at: a)
        mutated = Data(copy.joined(separator: [0x0A]))
      }
      let started = ContinuousClock.now
      let result = CDLog.read(mutated)
      slowest = max(slowest, ContinuousClock.now - started)
      let kind = result.error.map { String(describing: $0).prefix(while: { $0 != "(" && $0 != ":" }) } ?? "ok"
      outcomes[String(kind), default: 0] += 1
      if let log = result.log { #expect(log.entries.count <= 9) }
      if let error = result.error { #expect(error.line >= 1 || error == .empty, "\(error)") }
      #expect(result.error != nil || result.log != nil)
    }
    #expect(outcomes.values.reduce(0, +) == FuzzTests.count)
    #expect(slowest < .seconds(10), "no input hangs the reader")
    #expect(outcomes.count >= 4, "mutations reach several kinds of error: \(outcomes)")
  }

  @Test("a log file reopened after a torn write keeps every complete line and cuts the tail")
  func tornFile() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-torn-\(UInt32.random(in: 0...UInt32.max)).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let log = try cdSession(3)
    try (try log.encoded() + Data(#"{"context":{},"eff"#.utf8)).write(to: URL(fileURLWithPath: path))
    let recorder = try LogRecorder(resuming: path, table: CDPlayer.table)
    #expect(recorder.recovery == LogFile.Recovery(lines: 4, truncatedBytes: 18))
    #expect(recorder.log.entries.count == 3)
    var machine = try Machine(CDPlayer.table, state: recorder.lastSnapshot.state, context: NoContext())
    try recorder.send(.play, to: &machine)
    try recorder.close()
    let read = CDLog.read(try Data(contentsOf: URL(fileURLWithPath: path)), for: CDPlayer.table)
    #expect(read.error == nil)
    #expect(read.log?.entries.map(\.sequence) == [1, 2, 3, 4])
    #expect(CDPlayer.table.replay(try #require(read.log)).isIdentical)
  }
}
