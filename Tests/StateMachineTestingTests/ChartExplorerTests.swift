import Foundation
import StateMachine
import StateMachineTesting
import Testing

@Suite("Exploring statecharts")
struct ChartExplorerTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func player() throws -> Chart<String, String, NoContext, String> {
    try SCXMLDocument.load(contentsOf: root.appendingPathComponent("Specs/player.scxml").path)
  }

  @Test("coverage counts every transition and every state entered, transient ones included; shortest paths")
  func coverage() throws {
    let chart = try Self.player()
    let result = Explorer(chart: chart, context: NoContext(), alphabet: chart.eventNames).explore()
    #expect("\(result.coverage)" == "transitions 10/10, states 10/10")
    #expect(result.shortestPath(to: "off") == [])
    #expect(result.shortestPath(to: "loud") == ["power", "louder"])
    #expect(result.shortestPath(to: "tooLoud") == ["power", "louder", "louder"], "entered and left within one macrostep")
    #expect(result.violations.isEmpty)
    #expect(!result.truncated)
  }

  @Test("an invariant broken somewhere is reported with a shortest path that really breaks it")
  func invariant() throws {
    let chart = try Self.player()
    let result = Explorer(chart: chart, context: NoContext(), alphabet: chart.eventNames)
      .invariant("never loud while paused") { states, _ in !(states.contains("loud") && states.contains("paused")) }
      .explore()
    let violation = try #require(result.violations.first)
    #expect(violation.property == "never loud while paused")
    #expect(violation.path.count == 4)
    var machine = ChartMachine(chart, context: NoContext())
    _ = try machine.start()
    for event in violation.path { _ = try machine.send(event) }
    #expect(Set(machine.configuration) == ["paused", "loud"])
  }

  @Test("a macrostep that never settles is a violation, with the path that triggers it")
  func neverSettles() throws {
    let text = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml">
        <state id="a"><transition event="go" target="b"/></state>
        <state id="b"><transition event="spin" target="c"/></state>
        <state id="c"><transition target="d"/></state>
        <state id="d"><transition target="c"/></state>
      </scxml>
      """
    let chart = try SCXMLDocument.parse(Data(text.utf8), file: "spin.scxml")
    let result = Explorer(chart: chart, context: NoContext(), alphabet: ["go", "spin"]).explore()
    #expect(result.violations.map(\.property) == ["settles"])
    #expect(result.violations.first?.path == ["go", "spin"])
  }

  @Test("the limit stops the search and says so")
  func limit() throws {
    let chart = try Self.player()
    let result = Explorer(chart: chart, context: NoContext(), alphabet: chart.eventNames).explore(limit: 5)
    #expect(result.truncated)
    #expect(result.configurations == 5)
  }
}

@Suite("Random walks through statecharts")
struct ChartPropertyCheckTests {
  /// Whether running `events` from the start ever makes `loud` and `paused` active together.
  static func breaks(_ chart: Chart<String, String, NoContext, String>, _ events: [String]) throws -> Bool {
    var machine = ChartMachine(chart, context: NoContext())
    _ = try machine.start()
    for event in events {
      _ = try machine.send(event)
      if machine.configuration.contains("loud") && machine.configuration.contains("paused") { return true }
    }
    return false
  }

  @Test("a planted bug is found and shrunk to a 1-minimal sequence that still breaks it", arguments: [UInt64(1), 2, 3])
  func plantedBug(_ seed: UInt64) throws {
    let chart = try ChartExplorerTests.player()
    let check = PropertyCheck(chart: chart, context: NoContext(), alphabet: chart.eventNames)
      .invariant("never loud while paused") { states, _ in !(states.contains("loud") && states.contains("paused")) }
    do {
      try check.run(walks: 200, length: 40, seed: seed)
      Issue.record("the planted bug was not found")
    } catch {
      #expect(error.property == "never loud while paused")
      #expect(error.events.count >= 4 && error.events.count < error.originalLength, "4 is the least that can break it: \(error)")
      #expect(try Self.breaks(chart, error.events))
      for i in error.events.indices {
        var fewer = error.events
        fewer.remove(at: i)
        #expect(try !Self.breaks(chart, fewer), "removing event \(i) still fails: not 1-minimal")
      }
    }
  }

  @Test("a chart that keeps its invariants passes every walk")
  func passes() throws {
    let chart = try ChartExplorerTests.player()
    let summary = try PropertyCheck(chart: chart, context: NoContext(), alphabet: chart.eventNames)
      .invariant("one playback state") { states, _ in states.filter { ["stopped", "playing", "paused"].contains($0) }.count <= 1 }
      .run(walks: 50, length: 30, seed: 9)
    #expect(summary.steps == 1_500)
  }
}
