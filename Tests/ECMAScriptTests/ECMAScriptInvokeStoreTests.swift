#if ECMAScript
import Foundation
import FSMCommand
import StateMachine
import StateMachineChecking
import StateMachineECMAScript
import Testing

/// An ECMAScript document that invokes others, in a store (each invocation a child machine on a
/// session of its own), its log replayed, its system snapshot restored, and explored whole.
@Suite("ECMAScript invocations in a store")
struct ECMAScriptInvokeStoreTests {
  /// Invokes a worker whose `limit` its param gives, its id at `childID` (`idlocation`): `go`
  /// steps the worker, which counts, logs, and tells its parent `progress` with its count; the
  /// parent's `<finalize>` adds each count to `got` before it takes the event; the worker's
  /// done data (`total`) becomes `result`. A send to a child that does not run raises
  /// `error.communication`.
  static let invoking = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="boss" initial="working">
      <datamodel>
        <data id="limit" expr="3"/><data id="got" expr="0"/><data id="childID" expr="''"/><data id="result" expr="0"/>
        <data id="lost" expr="0"/>
      </datamodel>
      <state id="working">
        <invoke idlocation="childID">
          <param name="limit" expr="limit"/>
          <finalize><assign location="got" expr="got + (_event.data.n || 0)"/></finalize>
          <content>
            <scxml datamodel="ecmascript" name="worker" initial="counting">
              <datamodel><data id="limit" expr="0"/><data id="n" expr="0"/></datamodel>
              <state id="counting">
                <transition event="step" cond="n + 1 &lt; limit" target="counting">
                  <assign location="n" expr="n + 1"/>
                  <log label="worker" expr="n"/>
                  <send target="#_parent" event="progress" namelist="n"/>
                </transition>
                <transition event="step" target="done"><assign location="n" expr="n + 1"/></transition>
              </state>
              <final id="done"><donedata><param name="total" expr="n"/></donedata></final>
            </scxml>
          </content>
        </invoke>
        <transition event="go"><send targetexpr="'#_' + childID" event="step"/></transition>
        <transition event="poke"><send target="#_nobody" event="step"/></transition>
        <transition event="error.communication"><assign location="lost" expr="lost + 1"/></transition>
        <transition event="progress"><log label="progress" expr="_event.invokeid + ' ' + got"/></transition>
        <transition event="done.invoke" target="finished"><assign location="result" expr="_event.data.total"/></transition>
      </state>
      <final id="finished"/>
    </scxml>
    """

  /// A store of the document `text` (its handler keeps nothing), started and settled.
  static func started(_ text: String) async throws -> (chart: ECMAScriptChart, store: Store<ECMAScriptChart>) {
    let chart = try ECMAScriptStoreTests.chart(text)
    let store = try ECMAScriptStoreTests.store(chart, clock: ManualClock(), logs: ECMAScriptStoreTests.Logs())
    store.start()
    await store.settle()
    return (chart, store)
  }

  @Test("a store runs a document that invokes: params, idlocation, finalize, #_parent and #_<id>, done data, the child's logs")
  func invokes() async throws {
    let (clock, logs) = (ManualClock(), ECMAScriptStoreTests.Logs())
    let chart = try ECMAScriptStoreTests.chart(Self.invoking)
    let store = try ECMAScriptStoreTests.store(chart, clock: clock, logs: logs)
    let recorder = try store.record()
    store.start()
    await store.settle()
    #expect(store.children == ["working.1"])
    #expect(store.context.data == #"{"limit":3,"got":0,"childID":"working.1","result":0,"lost":0}"#)
    store.send(SCXMLEvent("poke"))
    store.send(SCXMLEvent("go"))
    await store.settle()
    store.send(SCXMLEvent("go"))
    await store.settle()
    #expect(store.configuration == ["working"])
    #expect(store.context.data == #"{"limit":3,"got":3,"childID":"working.1","result":0,"lost":1}"#)
    store.send(SCXMLEvent("go"))
    await store.settle()
    #expect(store.configuration == ["finished"])
    #expect(store.context.data == #"{"limit":3,"got":3,"childID":"working.1","result":3,"lost":1}"#)
    #expect(store.children.isEmpty)
    // The worker's logs are performed by the store's handler too (each store performs its own
    // in order; the two stores' lines interleave as they run).
    #expect(logs.all.filter { $0.hasPrefix("worker") } == ["worker: 1", "worker: 2"])
    #expect(logs.all.filter { $0.hasPrefix("progress") } == ["progress: working.1 1", "progress: working.1 3"])
    await store.finish()
    // The system's one log replays: the worker made again from the parent's session, as it was.
    let log = recorder.log
    #expect(log.entries.map(\.event.name) == ["poke", "error.communication", "go", "progress", "go", "progress", "go", "done.invoke.working.1"])
    #expect(log.entries.map(\.event.invokeid) == [nil, nil, nil, "working.1", nil, "working.1", nil, "working.1"])
    #expect(log.childLines.count >= 3, "the worker's steps are in the log")
    let report = chart.replay(log)
    #expect(report.isIdentical, "\(report)")
  }

  @Test("an invocation's params are evaluated when it starts, at the end of the macrostep that entered its state, as fsm run does")
  func paramsAtStart() async throws {
    // `s1`, entered after `s` in the same macrostep, sets `v` to 2 before `c` starts with it.
    let text = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="p" initial="s">
        <datamodel><data id="v" expr="1"/></datamodel>
        <state id="s" initial="s1">
          <invoke id="c"><param name="x" expr="v"/><content><scxml datamodel="ecmascript" name="c">
            <datamodel><data id="x" expr="0"/></datamodel>
            <state id="c0"><onentry><send target="#_parent" event="x"><param name="x" expr="x"/></send></onentry></state>
          </scxml></content></invoke>
          <state id="s1"><onentry><assign location="v" expr="2"/></onentry>
            <transition event="x" cond="_event.data.x == 2" target="two"/><transition event="x" target="one"/></state>
          <state id="two"/><state id="one"/>
        </state>
      </scxml>
      """
    let store = try await Self.started(text).store
    #expect(store.configuration == ["two"])
    await store.finish()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("params-\(UUID().uuidString).scxml").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = FSM.$ecmascript.withValue(FSM.DatamodelMaker { ECMAScriptDatamodel() }) { FSM.run(["run", path, "--events", ""]) }
    #expect(run.output == "start -> [two]\n", "\(run.output)\(run.errorOutput)")
  }

  /// An invocation whose document cannot be read (its `srcexpr` names no file): it fails, and
  /// its invoker takes the `error.execution` at once.
  static let unreadable = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="u" initial="s0">
      <datamodel><data id="errors" expr="0"/></datamodel>
      <state id="s0">
        <invoke id="lost" srcexpr="'file:no-such-' + 'document.scxml'"/>
        <transition event="error.execution" target="failed"><assign location="errors" expr="errors + 1"/></transition>
        <transition event="go" target="other"/>
      </state>
      <final id="failed"/><final id="other"/>
    </scxml>
    """

  /// An invocation one of whose params cannot be evaluated: the child starts without it, and
  /// its invoker takes the `error.execution` before the child's first message.
  static let badParam = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="b" initial="s0">
      <datamodel><data id="errors" expr="0"/></datamodel>
      <state id="s0">
        <invoke id="c"><param name="x" expr="nothing.here"/><content><scxml datamodel="ecmascript" name="c">
          <state id="c0"><onentry><send target="#_parent" event="hello"/></onentry></state>
        </scxml></content></invoke>
        <transition event="error.execution"><assign location="errors" expr="errors + 1"/></transition>
        <transition event="hello" cond="errors == 1" target="pass"/>
        <transition event="hello" target="fail"/>
      </state>
      <final id="pass"/><final id="fail"/>
    </scxml>
    """

  /// An invocation whose param cannot be evaluated, in a state whose entry sent its chart an
  /// event first: the `error.execution` goes on the internal queue, which the invoker takes
  /// before that external event.
  static let sentBefore = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="e" initial="s0">
      <datamodel><data id="errors" expr="0"/></datamodel>
      <state id="s0">
        <onentry><send event="early"/></onentry>
        <invoke id="c"><param name="x" expr="nothing.here"/><content><scxml datamodel="ecmascript" name="c">
          <state id="c0"/>
        </scxml></content></invoke>
        <transition event="error.execution"><assign location="errors" expr="errors + 1"/></transition>
        <transition event="early" cond="errors == 1" target="pass"/>
        <transition event="early" target="fail"/>
      </state>
      <final id="pass"/><final id="fail"/>
    </scxml>
    """

  @Test(
    "what an invocation's start raises (error.execution) its invoker takes at once, in a store, fsm run and a system alike",
    arguments: [
      (name: "unreadable document", text: Self.unreadable, end: "failed", events: ["error.execution"]),
      (name: "param not evaluated", text: Self.badParam, end: "pass", events: ["error.execution", "hello"]),
      (name: "an event the state's entry sent first", text: Self.sentBefore, end: "pass", events: ["error.execution", "early"]),
    ])
  func raisedAtStart(_ example: (name: String, text: String, end: String, events: [String])) async throws {
    let chart = try ECMAScriptStoreTests.chart(example.text)
    let store = try ECMAScriptStoreTests.store(chart, clock: ManualClock(), logs: ECMAScriptStoreTests.Logs())
    let recorder = try store.record()
    store.start()
    await store.settle()
    #expect(store.configuration == [example.end], "\(example.name)")
    #expect(store.context.data == #"{"errors":1}"#, "\(example.name)")
    await store.finish()
    #expect(recorder.log.entries.map(\.event.name) == example.events, "\(example.name)")
    let report = chart.replay(recorder.log)
    #expect(report.isIdentical, "\(example.name): \(report)")
    // fsm run: ahead of anything queued, before any input.
    try await ECMAScriptStoreTests.inFolder { folder in
      let path = folder + "/doc.scxml"
      try example.text.write(toFile: path, atomically: true, encoding: .utf8)
      let run = ECMAScriptStoreTests.fsm(["run", path, "--events", ""])
      #expect(run.output == "start -> [\(example.end)] (halted)\n", "\(example.name): \(run.output)\(run.errorOutput)")
    }
    // A system run on the caller's thread, as the checkers step it.
    var system = SystemMachine(MachineSystem(chart: chart), context: SCXMLSession(for: chart, sessionID: "system"))
    try system.begin()
    #expect(system.context.data == #"{"errors":1}"#, "\(example.name)")
    #expect(system.configuration.description == example.end, "\(example.name): \(system.configuration)")
  }

  @Test("a child restored from a system snapshot does not raise its start's error.execution in its invoker again")
  func raisedAtStartNotAgainOnRestore() async throws {
    let text = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="r" initial="s0">
        <datamodel><data id="errors" expr="0"/><data id="pongs" expr="0"/></datamodel>
        <state id="s0">
          <invoke id="c"><param name="x" expr="nothing.here"/><content><scxml datamodel="ecmascript" name="c">
            <state id="c0"><transition event="ping"><send target="#_parent" event="pong"/></transition></state>
          </scxml></content></invoke>
          <transition event="error.execution"><assign location="errors" expr="errors + 1"/></transition>
          <transition event="go"><send target="#_c" event="ping"/></transition>
          <transition event="pong"><assign location="pongs" expr="pongs + 1"/></transition>
        </state>
      </scxml>
      """
    let (chart, store) = try await Self.started(text)
    #expect(store.context.data == #"{"errors":1,"pongs":0}"#)
    let snapshot = try store.systemSnapshot()
    await store.finish()
    let restored = try Store(chart, restoring: snapshot, children: { _ in nil }, clock: ManualClock(), handler: { _, _ in })
    #expect(restored.children == ["c"])
    restored.send(SCXMLEvent("go"))
    await restored.settle()
    #expect(restored.context.data == #"{"errors":1,"pongs":1}"#)
    await restored.finish()
  }

  @Test("errors one macrostep raises are taken in the order they were raised: a send's error.communication, then an invocation's error.execution, in a store, fsm run and a system alike")
  func raisedInOrder() async throws {
    let text = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="o" initial="s0">
        <datamodel><data id="seen" expr="''"/></datamodel>
        <state id="s0"><transition event="go" target="s1"><send target="#_nobody" event="x"/></transition></state>
        <state id="s1">
          <invoke id="c"><param name="x" expr="nothing.here"/><content><scxml datamodel="ecmascript" name="c">
            <state id="c0"/>
          </scxml></content></invoke>
          <transition event="error.communication"><assign location="seen" expr="seen + 'c'"/></transition>
          <transition event="error.execution" cond="seen == 'c'" target="pass"/>
          <transition event="error.execution" target="fail"/>
        </state>
        <final id="pass"/><final id="fail"/>
      </scxml>
      """
    let chart = try ECMAScriptStoreTests.chart(text)
    let store = try ECMAScriptStoreTests.store(chart, clock: ManualClock(), logs: ECMAScriptStoreTests.Logs())
    store.start()
    await store.settle()
    store.send(SCXMLEvent("go"))
    await store.settle()
    #expect(store.configuration == ["pass"])
    await store.finish()
    try await ECMAScriptStoreTests.inFolder { folder in
      let path = folder + "/order.scxml"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let run = ECMAScriptStoreTests.fsm(["run", path, "--events", "go"])
      #expect(run.output == "start -> [s0]\ngo -> [pass] (halted)\n", "\(run.output)\(run.errorOutput)")
    }
    var system = SystemMachine(MachineSystem(chart: chart), context: SCXMLSession(for: chart, sessionID: "system"))
    try system.begin()
    _ = try system.step(.root(SCXMLEvent("go")))
    #expect(system.configuration.description == "pass", "\(system.configuration)")
  }

  @Test("a state that is entered again on its invocation's error.execution loops within the bounds: a store's, fsm run's, a system's")
  func raisedAtStartLoopBounded() async throws {
    let text = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="again" initial="s0">
        <datamodel><data id="n" expr="0"/></datamodel>
        <state id="s0">
          <invoke srcexpr="'file:no-such-document.scxml'"/>
          <transition event="error.execution" target="s0"><assign location="n" expr="n + 1"/></transition>
        </state>
      </scxml>
      """
    let chart = try ECMAScriptChart(ecmascript: Data(text.utf8), file: "again.scxml")
    let failures = ECMAScriptStoreTests.Logs()
    let store = try Store(
      chart, context: SCXMLSession(for: chart, sessionID: "s1"), clock: ManualClock(), handler: { _, _ in },
      inspector: { report in if case .effectFailed(_, let error, _) = report { failures.add(error) } })
    store.start()
    await store.settle()
    // The store's bound on steps its children fed it (10,000): the invocation that would go on
    // is refused as a loop, and the store waits in `s0` for an event from outside.
    #expect(store.configuration == ["s0"])
    #expect(store.context.data == #"{"n":10000}"#)
    #expect(failures.all.last == SendRejection.loop.description, "\(failures.all.suffix(2))")
    await store.finish()
    try await ECMAScriptStoreTests.inFolder { folder in
      let path = folder + "/again.scxml"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let run = ECMAScriptStoreTests.fsm(["run", path, "--events", ""])
      #expect(run.code == 2)
      #expect(run.errorOutput.contains("caused more than 10000 events"), "\(run.output)\(run.errorOutput)")
    }
    var system = SystemMachine(MachineSystem(chart: chart), context: SCXMLSession(for: chart, sessionID: "system"))
    #expect(throws: SystemRunError.self) { try system.begin() }
  }

  @Test("a system snapshot of the document keeps the worker's session; the restored system finishes as the first would have")
  func invokedSnapshot() async throws {
    let chart = try ECMAScriptStoreTests.chart(Self.invoking)
    let store = try ECMAScriptStoreTests.store(chart, clock: ManualClock(), logs: ECMAScriptStoreTests.Logs())
    store.start()
    store.send(SCXMLEvent("go"))
    await store.settle()
    let snapshot = try store.systemSnapshot()
    await store.finish()
    #expect(snapshot.children.map(\.id) == ["working.1"])
    #expect(snapshot.children.first?.snapshot.contains(#"\"n\":1"#) == true, "\(snapshot.children)")
    // The worker is made again as the document makes it, and continues from its session.
    let logs = ECMAScriptStoreTests.Logs()
    let restored = try Store(chart, restoring: snapshot, children: { _ in nil }, clock: ManualClock(), handler: { line, _ in logs.add(line) })
    #expect(restored.children == ["working.1"])
    restored.send(SCXMLEvent("go"))
    restored.send(SCXMLEvent("go"))
    await restored.settle()
    #expect(restored.configuration == ["finished"])
    #expect(restored.context.data == #"{"limit":3,"got":3,"childID":"working.1","result":3,"lost":0}"#)
    #expect(logs.all.filter { $0.hasPrefix("worker") } == ["worker: 2"])
    await restored.finish()
  }

  @Test("fsm replay and fsm view read the log of a store of a document that invokes, naming the worker where it diverges")
  func cliReadsTheSystemLog() async throws {
    try await ECMAScriptStoreTests.inFolder { folder in
      let (document, logPath) = (folder + "/boss.scxml", folder + "/boss.jsonl")
      try Self.invoking.write(toFile: document, atomically: true, encoding: .utf8)
      let chart = try ECMAScriptChart(ecmascriptContentsOf: document)
      let store = try ECMAScriptStoreTests.store(chart, clock: ManualClock(), logs: ECMAScriptStoreTests.Logs())
      let recorder = try store.record(to: logPath)
      store.start()
      for _ in 0..<3 {
        store.send(SCXMLEvent("go"))
        await store.settle()
      }
      await store.finish()
      try recorder.close()
      let replayed = ECMAScriptStoreTests.fsm(["replay", document, logPath])
      #expect(replayed.code == 0, "\(replayed.output)\(replayed.errorOutput)")
      #expect(replayed.output.contains("identical"), "\(replayed.output)")
      let viewed = ECMAScriptStoreTests.fsm(["view", document, logPath, "-o", folder + "/page.html"])
      #expect(viewed.code == 0, "\(viewed.output)\(viewed.errorOutput)")
      #expect(try String(contentsOfFile: folder + "/page.html", encoding: .utf8).contains("working.1"), "the page has the worker's lane")
      // The worker's count changed in its line of the log: the replay diverges there, naming it.
      let text = try String(contentsOfFile: logPath, encoding: .utf8)
      let changed = text.replacingOccurrences(of: #"\"n\":2"#, with: #"\"n\":7"#)
      #expect(changed != text)
      try changed.write(toFile: logPath, atomically: true, encoding: .utf8)
      let diverged = ECMAScriptStoreTests.fsm(["replay", document, logPath])
      #expect(diverged.code == 1)
      #expect(diverged.output.contains("working.1"), "\(diverged.output)")
    }
  }

  @Test("fsm explore and the simulator explore a document that invokes with its worker, as one system told apart by each session's data")
  func exploresTheSystem() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("boss-\(UUID().uuidString).scxml").path
    try Self.invoking.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Over the events from outside (not done.invoke or error.communication, which the system
    // raises): `finished` is reached by three `go`s, each message stepping the worker; each
    // `poke` counts one more message lost, a configuration of its own.
    let explored = ECMAScriptStoreTests.fsm(["explore", path, "--depth", "4"])
    #expect(
      explored.output == """
        alphabet: go, poke, progress
        system: boss and the charts it invokes (worker)
        configurations: 14 (depth 4)
        coverage: transitions (not counted in a system) 0/0, states 2/2
        states reached, with a shortest path:
          working: (start)
          finished: go, go, go

        """, "\(explored.output)\(explored.errorOutput)")
    // Each walk starts from the document's start, not where the last one left its session.
    let walked = ECMAScriptStoreTests.fsm(["explore", path, "--depth", "4", "--walks", "3", "--length", "10", "--seed", "1"])
    #expect(walked.output.hasSuffix("walks: 3 walks, 30 steps, seed 1: no failure\n"), "\(walked.output)\(walked.errorOutput)")
    // The simulator steps the same system.
    let page = path + ".simulator.html"
    defer { try? FileManager.default.removeItem(atPath: page) }
    let simulated = ECMAScriptStoreTests.fsm(["view", path, "-o", page, "--limit", "14"])
    #expect(simulated.output == page + ": simulator of boss, 14 configurations (limit reached)\n", "\(simulated.output)\(simulated.errorOutput)")
    #expect(try String(contentsOfFile: page, encoding: .utf8).contains("working.1"), "the simulator's paths carry the worker's lines")
    // A system that keeps a copy and steps another leaves the copy's session as it was.
    let chart = try ECMAScriptStoreTests.chart(Self.invoking)
    let session = SCXMLSession(for: chart, sessionID: "kept")
    var system = SystemMachine(MachineSystem(chart: chart), context: session)
    try system.begin()
    let kept = system
    _ = try system.step(.root(SCXMLEvent("poke")))
    #expect(system.context.data.contains(#""lost":1"#))
    #expect(kept.context.data.contains(#""lost":0"#))
    #expect(session.data == "{}", "the session given is not stepped: each system starts from a copy of it")
  }
}
#endif
