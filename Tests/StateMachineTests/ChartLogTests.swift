import Foundation
@testable import StateMachine
import Testing

@Suite("Chart logs: record configurations and history, replay with the first divergence")
struct ChartLogTests {
  typealias PlayerLog = EventLog<ChartLogState<String>, String, NoContext, String>

  static func player() throws -> TextChart {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try SCXMLDocument.load(contentsOf: root.appendingPathComponent("Specs/player.scxml").path)
  }

  static let session = ["power", "play", "louder", "louder", "power", "stop", "power", "pause", "quieter"]

  /// Records `session` into a new file; returns its path.
  static func record(_ chart: TextChart, _ events: [String]) throws -> String {
    let path = temporaryPath("chart-log")
    var machine = TextMachine(chart, context: NoContext())
    _ = try machine.start()
    let recorder = try LogRecorder(chart: chart, machine: machine, file: path)
    for event in events { try recorder.record(event, step: try machine.send(event), machine: machine) }
    try recorder.close()
    return path
  }

  @Test("a recorded chart session replays identically from its file, history included")
  func roundTrip() throws {
    let chart = try Self.player()
    let path = try Self.record(chart, Self.session)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let report = try chart.replay(logAt: path)
    #expect(report.isIdentical, "\(report)")
    #expect(report.replayed == Self.session.count)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""history":{"resume":["playing","loud"]}"#), "the history the power cycle relies on is logged")
    #expect(text.contains(#""effects":["volume: too loud, turned back down"]"#))
    #expect(text.contains(#""outcome":"ignored""#), "quieter in normal is not handled")
  }

  @Test("a changed entry is reported at its line, with the expected and actual configuration")
  func divergence() throws {
    let chart = try Self.player()
    let path = try Self.record(chart, Self.session)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var text = try String(contentsOfFile: path, encoding: .utf8)
    text = text.replacingOccurrences(of: #""configuration":["playing","normal"]"#, with: #""configuration":["paused","normal"]"#)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let report = try chart.replay(logAt: path)
    let first = try #require(report.divergences.first)
    #expect(first.sequence == 2 && first.event == "play")
    #expect(first.differences == [.init(field: "state", expected: "[paused, normal]", actual: "[playing, normal]")])
  }

  @Test("a log of a changed chart is refused by its fingerprint; another chart's by its name")
  func fingerprint() throws {
    let chart = try Self.player()
    let path = try Self.record(chart, Self.session)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let changed = try SCXMLDocument.parse(Data(chart.scxml().replacingOccurrences(of: "event=\"stop\"", with: "event=\"halt\"").utf8), file: "player.scxml")
    #expect(changed.fingerprint != chart.fingerprint)
    #expect(throws: LogError.fingerprintMismatch(line: 1, found: chart.fingerprint, expected: changed.fingerprint)) {
      try changed.replay(logAt: path)
    }
    let other = try scxml("<state id=\"x\"/>")
    #expect(throws: LogError.otherMachine(line: 1, found: "player", expected: "test")) { try other.replay(logAt: path) }
  }

  @Test("a typed chart with a context: updates and guards replay, payload events decode")
  func typed() throws {
    let chart = try TypedChartTests.player()
    let path = temporaryPath("typed-chart-log")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var machine = ChartMachine(chart, context: Deck())
    _ = try machine.start()
    let recorder = try LogRecorder(chart: chart, machine: machine, file: path)
    for event: Key in [.power, .play, .seek(seconds: 30), .power, .power, .louder, .louder] {
      try recorder.record(event, step: try machine.send(event), machine: machine)
    }
    try recorder.close()
    #expect(try chart.replay(logAt: path).isIdentical)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""event":{"seek":{"seconds":30}}"#), "\(text)")
    #expect(text.contains(#""context":{"position":30}"#))
  }

  /// An edit of a logged state the replay must see: the first line holding `find` gets
  /// `replacement` instead.
  struct StateEdit: Sendable, CustomTestStringConvertible {
    let label: String
    let find: String
    let replacement: String
    var testDescription: String { label }
  }

  static let stateEdits = [
    StateEdit(label: "a state left out", find: #""configuration":["playing","normal"]"#, replacement: #""configuration":["playing"]"#),
    StateEdit(
      label: "a state more", find: #""configuration":["playing","normal"]"#, replacement: #""configuration":["playing","normal","loud"]"#),
    StateEdit(label: "another state in its place", find: #""configuration":["playing","loud"]"#, replacement: #""configuration":["playing","normal"]"#),
    StateEdit(
      label: "history remembering other states", find: #""history":{"resume":["playing","loud"]}"#,
      replacement: #""history":{"resume":["playing","normal"]}"#),
    StateEdit(label: "history left out", find: #","history":{"resume":["playing","loud"]}"#, replacement: ""),
    StateEdit(
      label: "halted when it was not", find: #""configuration":["playing","normal"]}"#,
      replacement: #""configuration":["playing","normal"],"halted":true}"#),
  ]

  @Test("a logged state that differs in any part is a divergence at its entry, in memory and from a file", arguments: stateEdits)
  func stateDivergence(_ edit: StateEdit) throws {
    let chart = try Self.player()
    let path = try Self.record(chart, Self.session)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let edited = try #require(lines.firstIndex { $0.contains(edit.find) }, "the session logs \(edit.find)")
    lines[edited] = lines[edited].replacingOccurrences(of: edit.find, with: edit.replacement)
    let entry = try #require(JSONSerialization.jsonObject(with: Data(lines[edited].utf8)) as? [String: Any])
    let sequence = try #require(entry["sequence"] as? Int)
    let text = lines.joined(separator: "\n")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let read = PlayerLog.read(Data(text.utf8), for: chart)
    let log = try #require(read.log, "\(String(describing: read.error))")
    for report in [chart.replay(log), try chart.replay(logAt: path)] {
      let first = try #require(report.divergences.first, "\(edit.label) is not seen")
      #expect(first.sequence == sequence)
      #expect(first.differences.map(\.field) == ["state"])
    }
  }
}
