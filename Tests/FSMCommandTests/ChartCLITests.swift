import FSMTool
import FSMCommand
import Foundation
import StateMachine
import StateMachineExamples
import Testing

@Suite("fsm on SCXML charts")
struct ChartCLITests {
  static func charts() -> [String] {
    guard SCION.present else { return [] }
    let enumerator = FileManager.default.enumerator(atPath: SCION.folder)
    return (enumerator?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".scxml") }.sorted()
  }

  @Test("fsm show --format scxml writes a shipped chart's SCXML, which its bindings read back; a flat table has none")
  func showSCXML() throws {
    let result = PackageFSM.run(["show", "phone-login", "--format", "scxml"])
    #expect(result.code == 0, "\(result.errorOutput)")
    #expect(try result.output == PhoneLogin.chart.scxml())
    let back = try Chart(scxml: Data(result.output.utf8), file: "phone-login.scxml", bindings: PhoneLogin.chart.scxmlBindings)
    #expect(back.markdown() == PhoneLogin.chart.markdown())
    let table = PackageFSM.run(["show", "login", "--format", "scxml"])
    #expect(table.code == 2)
    #expect(table.errorOutput.contains("'scxml' is for charts; 'login' is a flat transition table"))
  }

  @Test("fsm run walks a chart: configuration and effects after each event, virtual time with 'after'")
  func runCommand() {
    let result = PackageFSM.run(["run", SCION.folder + "/delayedSend/send1.scxml", "--events", "t1,after 100ms,t2,nothing"])
    #expect(result.code == 0, "\(result.errorOutput)")
    #expect(result.output == """
      start -> [a]
      t1 -> [b]
      after 100ms -> [c]
      t2 -> [d]
      nothing: no transition
      nothing -> [d]

      """)
  }

  struct BlankInput: Sendable, CustomTestStringConvertible {
    let label: String
    let events: String
    let output: String
    var testDescription: String { label }
  }

  static let blankInputs: [BlankInput] = [
    BlankInput(label: "an empty list", events: "", output: "start -> [s]\n"),
    BlankInput(label: "empty items among events", events: "a,, ,b", output: "start -> [s]\na -> [t]\nb -> [s]\n"),
  ]

  @Test("fsm run sends no event for a blank input: an empty --events, or an empty item, leaves a * transition untaken", arguments: blankInputs)
  func runSkipsBlankInputs(_ c: BlankInput) throws {
    let chart = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s">
        <state id="s"><transition event="*" target="t"/></state>
        <state id="t"><transition event="*" target="s"/></state>
      </scxml>
      """
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-run-blank-\(UInt64.random(in: 0...UInt64.max)).scxml").path
    try Data(chart.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = PackageFSM.run(["run", path, "--events", c.events])
    #expect(result.code == 0, "\(result.errorOutput)")
    #expect(result.output == c.output)
  }

  @Test("fsm explore on a chart: coverage, shortest paths, and the settling violation")
  func explore() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let result = PackageFSM.run(["explore", root.appendingPathComponent("Specs/player.scxml").path])
    #expect(result.code == 0, "\(result.errorOutput)")
    #expect(result.output.contains("coverage: transitions 10/10, states 10/10"))
    #expect(result.output.contains("  tooLoud: power, louder, louder"))
  }

  @Test("fsm explore on a chart file runs the walks asked for: seeded, and shrunk when one fails")
  func exploreWalks() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let player = PackageFSM.run(["explore", root.appendingPathComponent("Specs/player.scxml").path, "--walks", "5", "--seed", "3"])
    #expect(player.code == 0, "\(player.errorOutput)")
    #expect(player.output.hasSuffix("walks: 5 walks, 250 steps, seed 3: no failure\n"), "\(player.output)")
    let path = FileManager.default.temporaryDirectory.path + "/fsm-walks-\(UInt32.random(in: 0...UInt32.max)).scxml"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="spin" initial="a">
        <state id="a"><transition event="go" target="b"/></state>
        <state id="b"><transition event="spin"><raise event="spin"/></transition><transition event="back" target="a"/></state>
      </scxml>
      """.write(toFile: path, atomically: true, encoding: .utf8)
    let spin = PackageFSM.run(["explore", path, "--walks", "20", "--seed", "4"])
    #expect(spin.code == 1)
    #expect(spin.output.contains("walks: property 'settles' failed (seed 4)"), "\(spin.output)")
    #expect(spin.output.contains("minimal sequence (2 events"), "\(spin.output)")
  }

  @Test("fsm replay replays a chart's log: identical, or the divergence with exit 1")
  func replay() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let chartPath = root.appendingPathComponent("Specs/player.scxml").path
    let chart = try SCXMLDocument.load(contentsOf: chartPath)
    let path = FileManager.default.temporaryDirectory.path + "/fsm-chart-replay-\(UInt32.random(in: 0...UInt32.max)).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    var machine = ChartMachine(chart, context: NoContext())
    _ = try machine.start()
    let recorder = try LogRecorder(chart: chart, machine: machine, file: path)
    for event in ["power", "play", "power"] { try recorder.record(event, step: try machine.send(event), machine: machine) }
    try recorder.close()
    let identical = PackageFSM.run(["replay", chartPath, path])
    #expect(identical.code == 0, "\(identical.errorOutput)")
    #expect(identical.output.hasSuffix("replayed 3 entries: identical\n"))
    let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: #""event":"play""#, with: #""event":"stop""#)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let diverged = PackageFSM.run(["replay", chartPath, path])
    #expect(diverged.code == 1)
    #expect(diverged.output.contains("entry 2 (line 3), event stop:"), "\(diverged.output)")
  }

  @Test("fsm run reports a halted chart and its log effects")
  func runHalts() {
    let result = PackageFSM.run(["run", SCION.folder + "/w3c-ecma/test416.txml.scxml", "--events", "t1"])
    #expect(result.output.hasPrefix("start -> [pass] (halted)\n  effect: Outcome: pass\nt1: the chart has halted\n"), "\(result.output)")
  }

  @Test("fsm run and show refuse a chart that needs a datamodel, naming each place")
  func datamodelRefused() throws {
    let path = FileManager.default.temporaryDirectory.path + "/fsm-dm-\(UInt32.random(in: 0...UInt32.max)).scxml"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"><onentry><script>go()</script></onentry></state></scxml>"
      .write(toFile: path, atomically: true, encoding: .utf8)
    #if !ECMAScript
      // Built without the datamodel, every command that reads the chart says how to get it.
      for command in [["run", path], ["show", path], ["check", path], ["replay", path, path + ".jsonl"], ["view", path, path + ".jsonl"]] {
        let result = PackageFSM.run(command)
        #expect(result.code == 2)
        #expect(result.errorOutput.contains("line 1: <script>: needs a datamodel"), "\(command): \(result.errorOutput)")
        #expect(result.errorOutput.contains("build fsm with the ECMAScript trait"), "\(command): \(result.errorOutput)")
      }
    #endif
  }

  @Test("fsm check finds unreachable states, shadowed transitions and eventless loops")
  func checkFindings() throws {
    let path = FileManager.default.temporaryDirectory.path + "/fsm-check-\(UInt32.random(in: 0...UInt32.max)).scxml"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a">
        <state id="a"><transition event="e" target="b"/><transition event="e.x" target="c"/></state>
        <state id="b"><transition target="c"/></state>
        <state id="c"><transition target="b"/></state>
        <state id="island"/>
      </scxml>
      """.write(toFile: path, atomically: true, encoding: .utf8)
    let result = PackageFSM.run(["check", path])
    #expect(result.code == 1)
    #expect(result.output.contains("unreachable: state 'island' is not reachable from the start"), "\(result.output)")
    #expect(result.output.contains("the transition 'e.x' never fires: 'e' before it always matches first"), "\(result.output)")
    #expect(result.output.contains("eventless transitions without guards loop through 'b', 'c'"), "\(result.output)")
    #expect(result.output.hasSuffix("3 findings\n"))
  }

  @Test("every conformance chart shows in each format and checks", .enabled(if: SCION.present, "needs ../shared/scion"))
  func showEveryChart() {
    for chart in Self.charts() {
      let path = SCION.folder + "/" + chart
      for format in ["table", "mermaid", "dot"] {
        let result = PackageFSM.run(["show", path, "--format", format])
        #expect(result.code == 0 && !result.output.isEmpty, "\(chart) \(format): \(result.errorOutput)")
      }
      #expect(PackageFSM.run(["check", path]).code != 2, "\(chart)")
    }
  }
}
