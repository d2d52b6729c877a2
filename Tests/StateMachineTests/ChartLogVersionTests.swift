import Foundation
import StateMachine
import Testing

/// A chart's sends, cancels and messages are among the effects its log records (format version
/// 2), as a table's timers, cancels and messages are; a log of version 1 (0.1.0), which left them
/// out, still replays.
@Suite("Chart logs list every command a step asked for; logs of format version 1 still replay")
struct ChartLogVersionTests {
  typealias Asking = Chart<String, String, NoContext, Command<String, String>>

  /// On `go`: a send to itself and work; on `stop`: a cancel; on `tell`: a message.
  static func chart() throws -> Asking {
    try Asking(name: "asking", states: [
      .atomic("idle", transitions: [
        .on("go", do: [.send("tick", after: .seconds(1), id: "t"), .effect(.perform("work"))]),
        .on("stop", do: [.cancel("t")]),
        .on("tell", do: [.message("hi", to: "c")]),
      ])
    ])
  }

  static let events = ["go", "stop", "tell"]

  /// The session recorded into a new file; returns its lines.
  static func recorded() throws -> [String] {
    let chart = try chart()
    let path = temporaryPath("chart-log-version")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var machine = ChartMachine(chart, context: NoContext())
    _ = try machine.start()
    let recorder = try LogRecorder(chart: chart, machine: machine, file: path)
    for event in events { try recorder.record(event, step: try machine.send(event), machine: machine) }
    try recorder.close()
    return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  @Test("an entry lists the chart's sends, cancels and messages among its effects, in order, as a table's commands")
  func recordsEveryCommand() throws {
    let lines = try Self.recorded()
    #expect(lines[0].contains(#""version":2"#), "\(lines[0])")
    #expect(lines[1].contains(#""effects":[{"send":{"after":1,"event":"tick","id":"t"}},{"perform":{"work":"work"}}]"#), "\(lines[1])")
    #expect(lines[2].contains(#""effects":[{"cancel":{"id":"t"}}]"#), "\(lines[2])")
    #expect(lines[3].contains(#""effects":[{"message":{"message":"hi","to":"c"}}]"#), "\(lines[3])")
  }

  struct Written: Sendable, CustomTestStringConvertible {
    let label: String
    /// The header's format version.
    let version: Int
    /// The entries list the `.effect` outputs alone (as version 1 wrote them).
    let effectOutputsAlone: Bool
    /// The `perform` the first entry lists is left out too.
    var dropsWork = false
    /// The first divergence's differing fields; none: the log replays identically.
    let diverges: [String]
    var testDescription: String { label }
  }

  static let written: [Written] = [
    .init(label: "version 2, every command listed", version: 2, effectOutputsAlone: false, diverges: []),
    .init(label: "version 2, the .effect outputs alone: the send is missing", version: 2, effectOutputsAlone: true, diverges: ["effects"]),
    .init(label: "version 1 (0.1.0), the .effect outputs alone", version: 1, effectOutputsAlone: true, diverges: []),
    .init(label: "version 1, resumed by this version: every command listed", version: 1, effectOutputsAlone: false, diverges: []),
    .init(label: "version 1, an .effect output missing", version: 1, effectOutputsAlone: true, dropsWork: true, diverges: ["effects"]),
  ]

  @Test("a log replays when its entries list what its format version lists", arguments: written)
  func replays(_ c: Written) throws {
    var lines = try Self.recorded()
    lines[0] = lines[0].replacingOccurrences(of: #""version":2"#, with: #""version":\#(c.version)"#)
    if c.effectOutputsAlone {
      lines[1] = lines[1].replacingOccurrences(of: #"{"send":{"after":1,"event":"tick","id":"t"}},"#, with: "")
      lines[2] = lines[2].replacingOccurrences(of: #"{"cancel":{"id":"t"}}"#, with: "")
      lines[3] = lines[3].replacingOccurrences(of: #"{"message":{"message":"hi","to":"c"}}"#, with: "")
    }
    if c.dropsWork { lines[1] = lines[1].replacingOccurrences(of: #"{"perform":{"work":"work"}}"#, with: "") }
    let path = temporaryPath("chart-log-version")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    let chart = try Self.chart()
    // From the file as a stream, and read whole into memory: the same report.
    let streamed = try chart.replay(logAt: path)
    let read = EventLog<ChartLogState<String>, String, NoContext, Command<String, String>>.read(try Data(contentsOf: URL(fileURLWithPath: path)), for: chart)
    let log = try #require(read.log, "\(read.error.map { "\($0)" } ?? "")")
    #expect(read.error == nil)
    let whole = chart.replay(log)
    for report in [streamed, whole] {
      // (A replay stops at its first divergence.)
      #expect(report.replayed == (c.diverges.isEmpty ? 3 : 1))
      #expect((report.divergences.first?.differences.map(\.field) ?? []) == c.diverges, "\(report)")
      if !c.diverges.isEmpty { #expect(report.divergences.first?.sequence == 1) }
    }
  }
}
