import Foundation
import StateMachine
import Testing

typealias TextChart = Chart<String, String, NoContext, String>
typealias TextState = ChartState<String, String, NoContext, String>
typealias TextMachine = ChartMachine<String, String, NoContext, String>

/// A chart read from SCXML text in a test.
func scxml(_ body: String, initial: String? = nil) throws -> TextChart {
  let attribute = initial.map { " initial=\"\($0)\"" } ?? ""
  let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\"\(attribute)>\n\(body)\n</scxml>"
  return try SCXMLDocument.parse(Data(text.utf8), file: "test.scxml")
}

/// Starts `chart`, sends `events`, and returns the machine and every effect in order.
func run(_ chart: TextChart, _ events: [String] = []) throws -> (TextMachine, [String]) {
  var machine = TextMachine(chart, context: NoContext())
  var effects = try machine.start().effects
  for event in events { effects += try machine.send(event).effects }
  return (machine, effects)
}

@Suite("Statecharts: SCXML semantics")
struct ChartTests {
  struct Match: Sendable, CustomTestStringConvertible {
    let descriptor: String
    let event: String
    let matches: Bool
    var testDescription: String { "'\(descriptor)' \(matches ? "matches" : "does not match") '\(event)'" }
  }

  @Test("event descriptors match a name and its dotted descendants", arguments: [
    Match(descriptor: "error", event: "error", matches: true),
    Match(descriptor: "error", event: "error.send", matches: true),
    Match(descriptor: "error", event: "error.send.failed", matches: true),
    Match(descriptor: "error", event: "errors", matches: false),
    Match(descriptor: "error.*", event: "error.send", matches: true),
    Match(descriptor: "error.*", event: "errors", matches: false),
    Match(descriptor: "error.send", event: "error", matches: false),
    Match(descriptor: "*", event: "anything.at.all", matches: true),
    Match(descriptor: "a b", event: "b", matches: true),
  ])
  func descriptors(_ c: Match) throws {
    let chart = try scxml("""
      <state id="s"><transition event="\(c.descriptor)" target="t"/></state><state id="t"/>
      """)
    let (machine, _) = try run(chart, [c.event])
    #expect(machine.configuration == [c.matches ? "t" : "s"])
  }

  @Test("preemption between parallel regions follows document order: the first region's transition wins")
  func preemption() throws {
    let chart = try scxml("""
      <parallel id="p">
        <state id="a"><transition event="go" target="x"/></state>
        <state id="b"><transition event="go" target="y"/></state>
      </parallel>
      <state id="x"/><state id="y"/>
      """)
    #expect(try run(chart, ["go"]).0.configuration == ["x"])
    // Transitions whose exit sets do not intersect are all taken.
    let both = try scxml("""
      <parallel id="p">
        <state id="a" initial="a1"><state id="a1"><transition event="go" target="a2"/></state><state id="a2"/></state>
        <state id="b" initial="b1"><state id="b1"><transition event="go" target="b2"/></state><state id="b2"/></state>
      </parallel>
      """)
    #expect(try run(both, ["go"]).0.configuration == ["a2", "b2"])
  }

  @Test("an inner source wins a conflict over an outer one")
  func innerSourceWins() throws {
    let chart = try scxml("""
      <state id="outer" initial="inner">
        <transition event="go" target="fromOuter"/>
        <state id="inner"><transition event="go" target="fromInner"/></state>
        <state id="fromInner"/>
      </state>
      <state id="fromOuter"/>
      """)
    #expect(try run(chart, ["go"]).0.configuration == ["fromInner"])
  }

  @Test("a transition into a sibling region exits and re-enters the parallel state (its exit content runs)")
  func siblingRegion() throws {
    let chart = try scxml("""
      <parallel id="p">
        <onentry><log expr="'enter p'"/></onentry>
        <onexit><log expr="'exit p'"/></onexit>
        <state id="a" initial="a1"><state id="a1"><transition event="go" target="b2"/></state><state id="a2"/></state>
        <state id="b" initial="b1"><state id="b1"/><state id="b2"/></state>
      </parallel>
      """)
    let (machine, effects) = try run(chart, ["go"])
    #expect(machine.configuration == ["a1", "b2"])
    #expect(effects == ["enter p", "exit p", "enter p"])
  }

  @Test("targetless transitions run their content and leave nothing; internal ones do not exit their source")
  func targetlessAndInternal() throws {
    let chart = try scxml("""
      <state id="s" initial="s1">
        <onexit><log expr="'exit s'"/></onexit>
        <transition event="ping"><log expr="'pong'"/></transition>
        <transition event="in" type="internal" target="s2"/>
        <transition event="out" target="s2"/>
        <state id="s1"/><state id="s2"/>
      </state>
      """)
    let (machine, effects) = try run(chart, ["ping", "in", "out"])
    #expect(machine.configuration == ["s2"])
    #expect(effects == ["pong", "exit s"], "only the external transition exits s")
  }

  @Test("done events: a compound's final child, then a parallel whose regions are all final; a top-level final halts")
  func doneEvents() throws {
    let chart = try scxml("""
      <parallel id="p">
        <state id="r1" initial="r1a"><state id="r1a"><transition event="f1" target="r1done"/></state><final id="r1done"/></state>
        <state id="r2" initial="r2a"><state id="r2a"><transition event="f2" target="r2done"/></state><final id="r2done"/></state>
        <transition event="done.state.r1"><log expr="'r1 done'"/></transition>
        <transition event="done.state.p" target="end"/>
      </parallel>
      <final id="end"><onentry><log expr="'halting'"/></onentry></final>
      """)
    var (machine, effects) = try run(chart, ["f1"])
    #expect(effects == ["r1 done"])
    #expect(!machine.isHalted)
    effects = try machine.send("f2").effects
    #expect(effects == ["halting"])
    #expect(machine.isHalted)
    #expect(machine.configuration == ["end"])
    #expect(try machine.send("anything").outcome == .halted)
  }

  @Test("eventless transitions and raised events settle before the next external event; a loop stops with a typed error")
  func settling() throws {
    let chart = try scxml("""
      <state id="a"><onentry><raise event="r"/></onentry><transition event="r" target="b"/></state>
      <state id="b"><transition target="c"/></state>
      <state id="c"><transition event="loop" target="d"/></state>
      <state id="d"><transition target="e"/></state>
      <state id="e"><transition target="d"/></state>
      """)
    var (machine, _) = try run(chart)
    #expect(machine.configuration == ["c"])
    #expect(throws: ChartRunError.self) { try machine.send("loop") }
  }

  @Test("history is remembered as state ids: it survives encoding and restoring")
  func historySurvivesEncoding() throws {
    let chart = try scxml("""
      <state id="on" initial="h">
        <history id="h" type="deep"><transition target="idle"/></history>
        <state id="idle"><transition event="play" target="playing"/></state>
        <state id="playing" initial="track1">
          <state id="track1"><transition event="next" target="track2"/></state>
          <state id="track2"/>
        </state>
        <transition event="off" target="off"/>
      </state>
      <state id="off"><transition event="on" target="h"/></state>
      """)
    let (machine, _) = try run(chart, ["play", "next", "off"])
    #expect(machine.configuration == ["off"])
    #expect(machine.historyValues == ["h": ["track2"]])
    let data = try JSONEncoder().encode(machine.snapshot)
    let snapshot = try JSONDecoder().decode(ChartSnapshot<String, NoContext>.self, from: data)
    var restored = try TextMachine(chart, restoring: snapshot)
    _ = try restored.send("on")
    #expect(restored.configuration == ["track2"], "deep history restored from ids")
  }

  @Test("a snapshot that does not fit the chart is refused with the reason", arguments: [
    (["nowhere"], "'nowhere' is not a state"),
    (["on"], "'on' is not an atomic state"),
    (["idle", "playing"], "2 children of 'on' are active"),
  ])
  func badSnapshots(_ configuration: [String], _ reason: String) throws {
    let chart = try scxml("""
      <state id="on" initial="idle"><state id="idle"/><state id="playing"/></state>
      """)
    do {
      _ = try TextMachine(chart, restoring: ChartSnapshot(configuration: configuration, history: [:], context: NoContext()))
      Issue.record("expected a restore error")
    } catch {
      #expect(error.message.contains(reason), "\(error)")
    }
  }

  struct Problem: Sendable, CustomTestStringConvertible {
    let label: String
    let states: [TextState]
    let message: String
    var testDescription: String { label }
  }

  @Test("a chart's structural problems are all listed", arguments: [
    Problem(label: "duplicate id", states: [.atomic("a"), .atomic("a")], message: "state 'a': declared more than once"),
    Problem(label: "unknown target", states: [.atomic("a", transitions: [.on("go", to: "b")])], message: "state 'a': unknown target 'b'"),
    Problem(label: "initial not a descendant", states: [.compound("c", initial: "x", children: [.atomic("c1")]), .atomic("x")],
            message: "state 'c': its initial 'x' is not one of its descendants"),
    Problem(label: "history at the top", states: [.atomic("a"), .history("h", default: ["a"])],
            message: "state 'h': a history state must be the child of a compound or parallel state"),
    Problem(label: "final with children", states: [TextState(id: "f", kind: .final, children: [.atomic("x")])],
            message: "state 'f': a final state cannot have children"),
    Problem(label: "final with transitions", states: [TextState(id: "f", kind: .final, transitions: [.on("go", to: "f")])],
            message: "state 'f': a final state cannot have transitions"),
  ])
  func structuralProblems(_ c: Problem) {
    #expect(throws: ChartError.self) { try TextChart(name: "bad", states: c.states) }
    do {
      _ = try TextChart(name: "bad", states: c.states)
    } catch {
      #expect(error.problems.map(\.description).contains(c.message), "\(error.problems)")
    }
  }
}
