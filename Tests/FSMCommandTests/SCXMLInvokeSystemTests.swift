import FSMTool
import Foundation
import StateMachine
import StateMachineChecking
import Testing

/// A document that invokes is a system of machines for every tool: a store records one log of
/// it that replays, naming the child where it diverges; the checkers walk and explore it, its
/// children with it.
@Suite("SCXML <invoke> as a system: one log, replayed, and checked")
struct SCXMLInvokeSystemTests {
  typealias DocumentChart = SCXMLInvokeStoreTests.DocumentChart

  /// The parent and its inline worker (see ``SCXMLInvokeTests/parent(_:running:)``), read into
  /// a chart a store runs.
  static func chart() throws -> DocumentChart {
    let path = try SCXMLInvokeTests.write(SCXMLInvokeTests.parent(SCXMLInvokeTests.inline))
    defer { SCXMLInvokeTests.remove(path) }
    return try SCXMLInvokeStoreTests.chart(at: path)
  }

  @Test("a store records the parent's steps and its child's in one log, which replays identical; a changed child line is the divergence, naming the child")
  func logReplays() async throws {
    let chart = try Self.chart()
    let clock = ManualClock()
    let store = try Store(chart, context: NoContext(), clock: clock, handler: { _, _ in })
    let recorder = try store.record()
    store.start()
    await store.settle()
    store.send("ping")
    store.send("go")
    await store.settle()
    #expect(store.configuration == ["finished"])
    await store.finish()
    let log = recorder.log
    // The child's one step (finish), then its end. (Its start, as the parent's, is no step.)
    #expect(log.childLines.map(\.path) == ["w", "w"])
    #expect(log.childLines.compactMap(\.ended) == ["finished"])
    // The parent's message to it is its step's effect, as the document wrote its target.
    let text = try #require(String(data: try log.encoded(), encoding: .utf8))
    #expect(text.contains(##"{"message":{"message":"finish","to":"#_w"}}"##), "\(text)")
    let report = chart.replay(log)
    #expect(report.isIdentical, "\(report)")
    #expect(report.childSteps == 1)

    // The child's step, changed to a state it never reached, diverges there, naming the child.
    var changedText = text
    let step = try #require(log.childLines.first { $0.ended == nil }?.text)
    changedText = changedText.replacingOccurrences(of: step, with: step.replacingOccurrences(of: #""done""#, with: #""working""#))
    let changed = try #require(EventLog<ChartLogState<String>, String, NoContext, Command<String, String>>.read(Data(changedText.utf8)).log)
    let first = try #require(chart.replay(changed).divergences.first)
    #expect(first.machine == "w")
  }

  @Test("the README's store of a document that invokes: go finishes the worker, and its done.invoke.w the parent")
  func readme() async throws {
    let path = try SCXMLInvokeTests.write(SCXMLInvokeTests.parent(SCXMLInvokeTests.inline))
    defer { SCXMLInvokeTests.remove(path) }
    let clock = ManualClock()
    let chart = try Chart<String, String, NoContext, Command<String, String>>(
      scxmlContentsOf: path, bindings: SCXMLBindings(state: { $0 }, event: { $0 }, effect: { .perform($0) }))
    let store = try Store(chart, context: NoContext(), clock: clock, handler: { _, _ in })
    store.start()
    store.send("go")
    await store.settle()
    print(store.configuration)
    #expect(store.configuration == ["finished"])
    await store.finish()
  }

  @Test("a system's snapshot restores the document's child as the chart makes it, with no resolver: it goes on where it was")
  func snapshotRestores() async throws {
    let chart = try Self.chart()
    let store = try Store(chart, context: NoContext(), clock: ManualClock(), handler: { _, _ in })
    store.start()
    await store.settle()
    let snapshot = try store.systemSnapshot()
    #expect(snapshot.children.map(\.id) == ["w"])
    await store.finish()
    let saved = try JSONEncoder().encode(snapshot)
    let read = try JSONDecoder().decode(SystemSnapshot<ChartSnapshot<String, NoContext>>.self, from: saved)
    let restored = try Store(chart, restoring: read, children: { _ in nil }, clock: ManualClock(), handler: { _, _ in })
    #expect(restored.configuration == ["running"])
    #expect(restored.children == ["w"])
    // The restored worker takes its parent's message to it, and its end is the parent's done.invoke.w.
    restored.send("go")
    await restored.settle()
    #expect(restored.configuration == ["finished"])
    #expect(restored.children.isEmpty)
    await restored.finish()
  }

  /// Runs `chart` as a system: its start, then each input, each followed by the root's
  /// configuration it leaves, as `fsm run` prints it without the mark of a halt (`go -> [done]`).
  static func run(_ chart: DocumentChart, inputs: [String]) throws -> [String] {
    var system = SystemMachine(MachineSystem(chart: chart), context: NoContext())
    try system.begin()
    var lines = ["start -> [\(system.configuration.root.sorted().joined(separator: ", "))]"]
    for input in inputs {
      _ = try system.step(.root(input))
      lines.append("\(input) -> [\(system.configuration.root.sorted().joined(separator: ", "))]")
    }
    return lines
  }

  /// `fsm run`'s cases in a synchronous system (those where time passes aside: it does not
  /// pass there): the same configurations, input by input.
  @Test(arguments: SCXMLInvokeTests.cases.filter { !$0.events.contains { $0.hasPrefix("after ") } })
  func runs(_ c: SCXMLInvokeTests.Case) throws {
    let path = try SCXMLInvokeTests.write(c.document)
    defer { SCXMLInvokeTests.remove(path) }
    let lines = try Self.run(try SCXMLInvokeStoreTests.chart(at: path), inputs: c.events)
    // (Configurations alone: effects are `fsm run`'s to print, and a system marks no halt.)
    var at = 0
    for expected in c.lines where !expected.hasPrefix("  ") {
      let line = expected.replacingOccurrences(of: " (halted)", with: "")
      guard let found = lines[at...].firstIndex(of: line) else {
        Issue.record("missing \(line) in\n\(lines.joined(separator: "\n"))")
        return
      }
      at = found + 1
    }
  }

  @Test("in a system, a child that a macrostep's first message finishes drops the macrostep's next, as in a store: no error.communication")
  func sentWhileRunningInSystem() throws {
    let path = try SCXMLInvokeTests.write(SCXMLInvokeTests.sentWhileRunning)
    defer { SCXMLInvokeTests.remove(path) }
    var system = SystemMachine(MachineSystem(chart: try SCXMLInvokeStoreTests.chart(at: path)), context: NoContext())
    try system.begin()
    #expect(system.configuration.children == ["w": "working"])
    _ = try system.step(.root("both"))
    #expect(system.configuration.root == ["s"])
    #expect(system.configuration.children.isEmpty)
    // Not delivered, and noted so, as a store reports it failed.
    #expect(system.undeliveredMessage?.hasSuffix(": \(SendRejection.finished)") == true, "\(String(describing: system.undeliveredMessage))")
  }

  @Test("in a system, a child's last step that only messages its parent is delivered, before its done.invoke.<id>")
  func lastMessageInSystem() throws {
    let document = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a" name="parent">
        <state id="a">
          <invoke id="kid"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="k1" name="kid">
            <state id="k1"><transition event="poke" target="k2"><send target="#_parent" event="poked"/></transition></state>
            <final id="k2"/>
          </scxml></content></invoke>
          <transition event="go"><send target="#_kid" event="poke"/></transition>
          <transition event="poked" target="b"/>
          <transition event="done.invoke.kid" target="early"/>
        </state>
        <state id="b"><transition event="done.invoke.kid" target="c"/></state>
        <final id="c"/><final id="early"/>
      </scxml>
      """
    let chart = try DocumentChart(scxml: Data(document.utf8), file: "parent.scxml", bindings: SCXMLBindings(state: { $0 }, event: { $0 }))
    var system = SystemMachine(MachineSystem(chart: chart), context: NoContext())
    try system.begin()
    #expect(system.configuration.children == ["kid": "k1"])
    _ = try system.step(.root("go"))
    #expect(system.configuration.root == ["c"])
    #expect(system.configuration.children.isEmpty)
  }

  @Test("fsm explore explores a document that invokes with its children, as one system, and walks it")
  func exploreCommand() throws {
    let path = try SCXMLInvokeTests.write(SCXMLInvokeTests.parent(SCXMLInvokeTests.inline))
    defer { SCXMLInvokeTests.remove(path) }
    let result = PackageFSM.run(["explore", path, "--walks", "20", "--seed", "3"])
    #expect(result.code == 0, "\(result.errorOutput)")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.contains("system: parent and the charts it invokes (worker)"), "\(result.output)")
    // The worker tells its parent it started: running from the start, and finished by one go.
    #expect(lines.contains("  running: (start)"), "\(result.output)")
    #expect(lines.contains("  finished: go"), "\(result.output)")
    #expect(lines.contains("  unreachable: nobody"), "\(result.output)")
    #expect(lines.contains { $0.hasPrefix("walks: 20 walks") && $0.hasSuffix("no failure") }, "\(result.output)")
  }

  static let alphabet: [SystemEvent<String>] = ["go", "nobody", "leave", "ping"].map { .root($0) }

  @Test("the explorer counts the system's configurations, the child's with the parent's, and finds each state's shortest path")
  func explores() throws {
    let system = MachineSystem(chart: try Self.chart())
    let result = Explorer(system, context: NoContext(), alphabet: Self.alphabet).explore(depth: 6)
    #expect(!result.truncated)
    // The child started, and told its parent so, before any input.
    let paths = result.shortestPaths.mapValues { $0.map(\.description) }
    #expect(paths["running"] == [])
    #expect(paths["finished"] == ["go"])
    // A message to no running child raises error.communication in its sender.
    #expect(paths["unreachable"] == ["nobody"])
    #expect(paths["idle"] == ["leave"])
    // (Time does not pass in a check: the worker's tick, a timer, never fires.)
    #expect(paths["ticked"] == nil)
    // running with the worker, finished, unreachable with it, idle without it.
    #expect(result.configurations == 4)
  }

  @Test("a walk of the system holds its invariant: the worker runs exactly while the parent's session state is active")
  func walks() throws {
    let system = MachineSystem(chart: try Self.chart())
    // (Without `nobody`, whose message reaches no child: every message a machine sends arrives.)
    try PropertyCheck(system, context: NoContext(), alphabet: Self.alphabet.filter { "\($0)" != "nobody" })
      .checking(.messagesDelivered)
      .invariant("the worker runs while its state is active") { system, _ in
        system.children.keys.contains("w") == Set(system.root).isDisjoint(with: ["idle", "finished", "unreachable"])
      }
      .run(walks: 30, length: 8, seed: 11)
  }
}
