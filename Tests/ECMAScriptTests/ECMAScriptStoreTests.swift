#if ECMAScript
import Foundation
import FSMCommand
import StateMachine
import StateMachineChecking
import StateMachineECMAScript
import Synchronization
import Testing

/// An SCXML document with the ECMAScript datamodel as a Swift chart (`ECMAScriptChart`): in a
/// store, on its clock, with its `<log>`s performed by the handler; its session recorded in a
/// log and the log replayed; its session written and read back as JSON.
@Suite("ECMAScript charts in a store, a log and a replay")
struct ECMAScriptStoreTests {
  /// Counts ticks; `<send delay>` reminds it after 2 s unless `hush` cancels the reminder; a
  /// tick's data is added to `total`.
  static let counter = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="counter" initial="counting">
      <datamodel><data id="count" expr="0"/><data id="total" expr="0"/></datamodel>
      <state id="counting">
        <onentry><send event="remind" delay="2s" id="reminder"/></onentry>
        <transition event="tick" cond="count &lt; 2" target="counting">
          <assign location="count" expr="count + 1"/>
          <assign location="total" expr="total + (_event.data ? _event.data.by : 1)"/>
          <log label="count" expr="count"/>
        </transition>
        <transition event="tick" target="done"><assign location="count" expr="count + 1"/></transition>
        <transition event="hush"><cancel sendid="reminder"/></transition>
        <transition event="remind" target="reminded"/>
      </state>
      <state id="reminded"><transition event="tick" cond="In('reminded')" target="counting"/></state>
      <final id="done"/>
    </scxml>
    """

  static func chart(_ text: String = counter) throws -> ECMAScriptChart {
    try ECMAScriptChart(ecmascript: Data(text.utf8), file: "counter.scxml")
  }

  /// A store of `chart` on `clock` whose handler writes each log line into `logs`.
  static func store(_ chart: ECMAScriptChart, clock: ManualClock, logs: Logs) throws -> Store<ECMAScriptChart> {
    try Store(chart, context: SCXMLSession(for: chart, sessionID: "s1"), clock: clock, handler: { line, _ in logs.add(line) })
  }

  final class Logs: Sendable {
    let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
  }

  @Test("a store runs the document: conds and assignments on its session, logs to its handler, a delayed send on its clock")
  func runsInAStore() async throws {
    let (clock, logs) = (ManualClock(), Logs())
    let store = try Self.store(Self.chart(), clock: clock, logs: logs)
    store.start()
    store.send(SCXMLEvent("tick", data: #"{"by": 5}"#))
    await store.settle()
    #expect(store.configuration == ["counting"])
    #expect(store.context.data == #"{"count":1,"total":5}"#)
    #expect(logs.all == ["count: 1"])
    // Entering `counting` again restarted the reminder: it fires 2 s later, on the store's clock.
    await clock.advance(by: .seconds(2))
    #expect(store.configuration == ["reminded"])
    store.send(SCXMLEvent("tick"))
    store.send(SCXMLEvent("hush"))
    await clock.advance(by: .seconds(3))
    #expect(store.configuration == ["counting"], "hush cancelled the reminder")
    store.send(SCXMLEvent("tick"))
    store.send(SCXMLEvent("tick"))
    await store.settle()
    #expect(store.configuration == ["done"])
    #expect(store.context.data == #"{"count":3,"total":6}"#)
    #expect(logs.all == ["count: 1", "count: 2"])
    await store.finish()
  }

  @Test("a store's log records the session's data after every step, and replays identically")
  func recordsAndReplays() async throws {
    let (clock, logs) = (ManualClock(), Logs())
    let chart = try Self.chart()
    let store = try Self.store(chart, clock: clock, logs: logs)
    let recorder = try store.record()
    store.start()
    store.send(SCXMLEvent("tick", data: #"{"by": 2}"#))
    await clock.advance(by: .seconds(2))
    store.send(SCXMLEvent("tick"))
    store.send(SCXMLEvent("tick"))
    await store.settle()
    await store.finish()
    let log = recorder.log
    #expect(log.entries.map(\.event.name) == ["tick", "remind", "tick", "tick"])
    #expect(log.entries.map(\.context.data) == [
      #"{"count":1,"total":2}"#, #"{"count":1,"total":2}"#, #"{"count":1,"total":2}"#, #"{"count":2,"total":3}"#,
    ])
    #expect(chart.replay(log).isIdentical)
    // Through its text, as a file holds it.
    let read = try #require(EventLog<ChartLogState<String>, SCXMLEvent, SCXMLSession, Command<SCXMLEvent, String>>.read(log.encoded(), for: chart).log)
    #expect(chart.replay(read).isIdentical)
    // A log whose data says otherwise diverges there, naming the context.
    var tampered = log
    tampered.entries[3].context = try JSONDecoder().decode(
      SCXMLSession.self, from: Data(#"{"sessionid":"s1","name":"counter","data":"{\"count\":9,\"total\":3}","active":["counting"]}"#.utf8))
    let report = chart.replay(tampered)
    #expect(report.divergences.first?.sequence == log.entries[3].sequence)
    #expect(report.divergences.first?.differences.map(\.field).contains("context") == true)
  }

  @Test("a session written as JSON reads back with its data, and a machine restored with it continues from there")
  func sessionRoundTrip() throws {
    let chart = try Self.chart()
    var machine = ChartMachine(chart, context: SCXMLSession(for: chart, sessionID: "s2"))
    _ = try machine.start()
    _ = try machine.send(SCXMLEvent("tick", data: #"{"by": 4}"#))
    let json = try JSONEncoder().encode(machine.context)
    let read = try JSONDecoder().decode(SCXMLSession.self, from: json)
    #expect(read == machine.context)
    #expect(read.data == #"{"count":1,"total":4}"#)
    var restored = try ChartMachine(chart, restoring: ChartSnapshot(configuration: ["counting"], history: [:], context: read))
    _ = try restored.send(SCXMLEvent("tick"))
    #expect(restored.context.data == #"{"count":2,"total":5}"#)
    #expect(restored.configuration == ["counting"])
    // `In()` holds for what the session says is active.
    var reminded = try ChartMachine(
      chart,
      restoring: ChartSnapshot(
        configuration: ["reminded"], history: [:],
        context: try JSONDecoder().decode(
          SCXMLSession.self, from: Data(#"{"sessionid":"s3","name":"counter","data":"{\"count\":0,\"total\":0}","active":["reminded"]}"#.utf8))))
    _ = try reminded.send(SCXMLEvent("tick"))
    #expect(reminded.configuration == ["counting"])
  }

  @Test("the explorer tells configurations apart by the session's data, each stepping a datamodel of its own")
  func explores() throws {
    let chart = try Self.chart()
    let explorer = Explorer(chart: chart, context: SCXMLSession(for: chart), alphabet: ["tick", "hush", "remind"].map { SCXMLEvent($0) })
    // counting and reminded with count 0, 1 and 2 (`hush` changes nothing), and done: had the
    // positions shared one datamodel, the counts would run on across them.
    let result = explorer.explore(depth: 10)
    #expect(result.configurations == 7)
    #expect(result.coverage.statesNeverEntered.isEmpty)
    let checked = explorer.invariant("the count stays below 2") { _, session in !session.data.contains(#""count":2"#) }.explore(depth: 10)
    #expect(checked.violations.map { $0.path.map(\.name) } == [["tick", "tick"]])
  }

  @Test("property checks walk the document from its start each time, and shrink a failure to its shortest path")
  func propertyChecks() throws {
    let chart = try Self.chart()
    let check = PropertyCheck(chart: chart, context: SCXMLSession(for: chart), alphabet: ["tick", "hush", "remind"].map { SCXMLEvent($0) })
    // Had the walks shared one datamodel, the count would run on from walk to walk past 3.
    try check.invariant("the count stays within 3") { _, session in
      (session.data.firstMatch(of: #/"count":(\d+)/#).map { Int($0.1)! } ?? 0) <= 3
    }.run(walks: 30, length: 12, seed: 7)
    #expect(throws: PropertyFailure<SCXMLEvent>.self) {
      try check.invariant("the count stays below 2") { _, session in !session.data.contains(#""count":2"#) }.run(walks: 30, length: 12, seed: 7)
    }
    do {
      try check.invariant("the count stays below 2") { _, session in !session.data.contains(#""count":2"#) }.run(walks: 30, length: 12, seed: 7)
    } catch {
      #expect(error.events.map(\.name) == ["tick", "tick"])
    }
  }

  @Test("the README's counter: a store runs it and records it, the log replays, and the explorer counts 7 configurations")
  func readmeCounter() async throws {
    let readme = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md"), encoding: .utf8)
    let start = try #require(readme.range(of: "```xml\n<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"ecmascript\" name=\"counter\""))
    let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-readme-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (document, logPath, clock) = (folder + "/counter.scxml", folder + "/counter.jsonl", ManualClock())
    try String(readme[readme.index(start.lowerBound, offsetBy: 7)..<end.lowerBound]).write(toFile: document, atomically: true, encoding: .utf8)

    let chart = try ECMAScriptChart(ecmascriptContentsOf: document)
    let store = try Store(chart, context: SCXMLSession(for: chart), clock: clock, handler: { log, _ in print(log) })
    let recorder = try store.record(to: logPath)
    store.start()
    store.send(SCXMLEvent("tick", data: #"{"by": 2}"#))
    await store.settle()
    print(store.configuration, store.context.data)
    #expect(store.configuration == ["counting"])
    #expect(store.context.data == #"{"count":1,"total":2}"#)

    let space = Explorer(chart: chart, context: SCXMLSession(for: chart), alphabet: [SCXMLEvent("tick"), SCXMLEvent("remind")])
      .explore(depth: 10)
    #expect(space.configurations == 7)
    await store.finish()
    try recorder.close()
    #expect(try chart.replay(logAt: logPath).isIdentical)
  }

  @Test("a snapshot keeps the data it was taken with; two machines restored from it each step their own")
  func snapshots() async throws {
    let chart = try Self.chart()
    let store = try Self.store(chart, clock: ManualClock(), logs: Logs())
    store.start()
    store.send(SCXMLEvent("tick"))
    await store.settle()
    let snapshot = store.snapshot
    store.send(SCXMLEvent("tick"))
    await store.settle()
    #expect(snapshot.context.data == #"{"count":1,"total":1}"#)
    #expect(store.context.data == #"{"count":2,"total":2}"#)
    await store.finish()
    for _ in 0..<2 {
      var machine = try ChartMachine(chart, restoring: snapshot)
      _ = try machine.send(SCXMLEvent("tick", data: #"{"by": 10}"#))
      #expect(machine.context.data == #"{"count":2,"total":11}"#)
      #expect(machine.snapshot.context.data == #"{"count":2,"total":11}"#)
    }
    #expect(snapshot.context.data == #"{"count":1,"total":1}"#)
  }

  @Test("a store resumes a log file where it ended, with the session's data, and the resumed log replays whole")
  func resumes() async throws {
    let chart = try Self.chart()
    let path = FileManager.default.temporaryDirectory.path + "/fsm-ecmascript-resume-\(UUID().uuidString).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      let store = try Self.store(chart, clock: ManualClock(), logs: Logs())
      let recorder = try store.record(to: path)
      store.start()
      store.send(SCXMLEvent("tick", data: #"{"by": 3}"#))
      await store.settle()
      await store.finish()
      try recorder.close()
    }
    // Another run of the app: the session goes on from the log's last entry.
    let recorder = try LogRecorder(resuming: path, chart: chart)
    let store = try Store(chart, resuming: recorder, clock: ManualClock(), handler: { _, _ in })
    #expect(store.context.data == #"{"count":1,"total":3}"#)
    store.send(SCXMLEvent("tick", data: #"{"by": 4}"#))
    await store.settle()
    #expect(store.context.data == #"{"count":2,"total":7}"#)
    await store.finish()
    try recorder.close()
    #expect(try chart.replay(logAt: path).isIdentical)
  }

  @Test("a session whose data is not a JSON object is refused when read, naming the field")
  func badSession() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(SCXMLSession.self, from: Data(#"{"sessionid":"s","name":"n","data":"[1, 2"}"#.utf8))
    }
  }

  @Test("fsm replay and fsm view read a store's log of the document; fsm explore and the simulator explore it")
  func cliReadsTheLog() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-ecmascript-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (document, logPath) = (folder + "/counter.scxml", folder + "/session.jsonl")
    try Self.counter.write(toFile: document, atomically: true, encoding: .utf8)
    let chart = try ECMAScriptChart(ecmascriptContentsOf: document)
    let store = try Self.store(chart, clock: ManualClock(), logs: Logs())
    let recorder = try store.record(to: logPath)
    store.start()
    store.send(SCXMLEvent("tick"))
    store.send(SCXMLEvent("tick", data: #"{"by": 3}"#))
    await store.settle()
    await store.finish()
    try recorder.close()
    func fsm(_ words: [String]) -> CommandResult {
      FSM.$ecmascript.withValue(FSM.DatamodelMaker { ECMAScriptDatamodel() }) { FSM.run(words) }
    }
    let replayed = fsm(["replay", document, logPath])
    #expect(replayed.code == 0, "\(replayed.output)\(replayed.errorOutput)")
    #expect(replayed.output.contains("2 entries"), "\(replayed.output)")
    let viewed = fsm(["view", document, logPath, "-o", folder + "/page.html"])
    #expect(viewed.output == folder + "/page.html: 2 steps of counter, replays identically\n", "\(viewed.errorOutput)")
    let page = try String(contentsOfFile: folder + "/page.html", encoding: .utf8)
    #expect(page.contains("total"), "the page shows the session's data")
    // A log whose data was changed diverges, in both.
    let text = try String(contentsOfFile: logPath, encoding: .utf8)
    try text.replacingOccurrences(of: #"\"total\":4"#, with: #"\"total\":40"#).write(toFile: logPath, atomically: true, encoding: .utf8)
    #expect(fsm(["replay", document, logPath]).code == 1)
    #expect(fsm(["view", document, logPath, "-o", folder + "/page.html"]).output.contains("diverges at step 2"))
    // Explored and simulated over the event names it mentions, each configuration with its data.
    let explored = fsm(["explore", document])
    #expect(explored.output.contains("configurations: 7 (depth 3)"), "\(explored.output)\(explored.errorOutput)")
    // And walked, each walk from a session of its own.
    let walked = fsm(["explore", document, "--walks", "4", "--length", "10", "--seed", "5"])
    #expect(walked.output.hasSuffix("walks: 4 walks, 40 steps, seed 5: no failure\n"), "\(walked.output)\(walked.errorOutput)")
    #expect(fsm(["view", document, "-o", folder + "/simulator.html"]).output == folder + "/simulator.html: simulator of counter, 7 configurations\n")
  }

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

  @Test("a store runs a document that invokes: params, idlocation, finalize, #_parent and #_<id>, done data, the child's logs")
  func invokes() async throws {
    let (clock, logs) = (ManualClock(), Logs())
    let chart = try Self.chart(Self.invoking)
    let store = try Self.store(chart, clock: clock, logs: logs)
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
    let chart = try Self.chart(text)
    let store = try Self.store(chart, clock: ManualClock(), logs: Logs())
    store.start()
    await store.settle()
    #expect(store.configuration == ["two"])
    await store.finish()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("params-\(UUID().uuidString).scxml").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = FSM.$ecmascript.withValue(FSM.DatamodelMaker { ECMAScriptDatamodel() }) { FSM.run(["run", path, "--events", ""]) }
    #expect(run.output == "start -> [two]\n", "\(run.output)\(run.errorOutput)")
  }

  @Test("a system snapshot of the document keeps the worker's session; the restored system finishes as the first would have")
  func invokedSnapshot() async throws {
    let chart = try Self.chart(Self.invoking)
    let store = try Self.store(chart, clock: ManualClock(), logs: Logs())
    store.start()
    store.send(SCXMLEvent("go"))
    await store.settle()
    let snapshot = try store.systemSnapshot()
    await store.finish()
    #expect(snapshot.children.map(\.id) == ["working.1"])
    #expect(snapshot.children.first?.snapshot.contains(#"\"n\":1"#) == true, "\(snapshot.children)")
    // The worker is made again as the document makes it, and continues from its session.
    let logs = Logs()
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
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-ecmascript-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (document, logPath) = (folder + "/boss.scxml", folder + "/boss.jsonl")
    try Self.invoking.write(toFile: document, atomically: true, encoding: .utf8)
    let chart = try ECMAScriptChart(ecmascriptContentsOf: document)
    let store = try Self.store(chart, clock: ManualClock(), logs: Logs())
    let recorder = try store.record(to: logPath)
    store.start()
    for _ in 0..<3 {
      store.send(SCXMLEvent("go"))
      await store.settle()
    }
    await store.finish()
    try recorder.close()
    func fsm(_ words: [String]) -> CommandResult {
      FSM.$ecmascript.withValue(FSM.DatamodelMaker { ECMAScriptDatamodel() }) { FSM.run(words) }
    }
    let replayed = fsm(["replay", document, logPath])
    #expect(replayed.code == 0, "\(replayed.output)\(replayed.errorOutput)")
    #expect(replayed.output.contains("identical"), "\(replayed.output)")
    let viewed = fsm(["view", document, logPath, "-o", folder + "/page.html"])
    #expect(viewed.code == 0, "\(viewed.output)\(viewed.errorOutput)")
    #expect(try String(contentsOfFile: folder + "/page.html", encoding: .utf8).contains("working.1"), "the page has the worker's lane")
    // The worker's count changed in its line of the log: the replay diverges there, naming it.
    let text = try String(contentsOfFile: logPath, encoding: .utf8)
    let changed = text.replacingOccurrences(of: #"\"n\":2"#, with: #"\"n\":7"#)
    #expect(changed != text)
    try changed.write(toFile: logPath, atomically: true, encoding: .utf8)
    let diverged = fsm(["replay", document, logPath])
    #expect(diverged.code == 1)
    #expect(diverged.output.contains("working.1"), "\(diverged.output)")
  }

  @Test("fsm check of a document finds no names its content shares (a datamodel's content is not bound by name), and finds what is wrong")
  func check() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-ecmascript-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func fsm(_ words: [String]) -> CommandResult {
      FSM.$ecmascript.withValue(FSM.DatamodelMaker { ECMAScriptDatamodel() }) { FSM.run(words) }
    }
    for (name, text) in [("counter", Self.counter), ("boss", Self.invoking)] {
      try text.write(toFile: "\(folder)/\(name).scxml", atomically: true, encoding: .utf8)
      let checked = fsm(["check", "\(folder)/\(name).scxml"])
      #expect(checked.code == 0 && checked.output.hasSuffix("clean: no findings\n"), "\(name): \(checked.output)\(checked.errorOutput)")
    }
    // The worker's `counting` made unreachable: its initial state is another.
    let broken = Self.invoking.replacingOccurrences(of: #"name="worker" initial="counting""#, with: #"name="worker" initial="done""#)
    try broken.write(toFile: folder + "/broken.scxml", atomically: true, encoding: .utf8)
    let checked = fsm(["check", folder + "/broken.scxml"])
    #expect(checked.output.contains("the chart invoked as 'working.1' in 'working'"), "\(checked.output)")
    #expect(checked.output.contains("state 'counting' is not reachable from the start"), "\(checked.output)")
    #expect(!checked.output.contains("given to different code"), "\(checked.output)")
  }

  @Test("fsm explore and the simulator explore a document that invokes with its worker, as one system told apart by each session's data")
  func exploresTheSystem() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("boss-\(UUID().uuidString).scxml").path
    try Self.invoking.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    func fsm(_ words: [String]) -> CommandResult {
      FSM.$ecmascript.withValue(FSM.DatamodelMaker { ECMAScriptDatamodel() }) { FSM.run(words) }
    }
    // Over the events from outside (not done.invoke or error.communication, which the system
    // raises): `finished` is reached by three `go`s, each message stepping the worker; each
    // `poke` counts one more message lost, a configuration of its own.
    let explored = fsm(["explore", path, "--depth", "4"])
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
    let walked = fsm(["explore", path, "--depth", "4", "--walks", "3", "--length", "10", "--seed", "1"])
    #expect(walked.output.hasSuffix("walks: 3 walks, 30 steps, seed 1: no failure\n"), "\(walked.output)\(walked.errorOutput)")
    // The simulator steps the same system.
    let page = path + ".simulator.html"
    defer { try? FileManager.default.removeItem(atPath: page) }
    let simulated = fsm(["view", path, "-o", page, "--limit", "14"])
    #expect(simulated.output == page + ": simulator of boss, 14 configurations (limit reached)\n", "\(simulated.output)\(simulated.errorOutput)")
    #expect(try String(contentsOfFile: page, encoding: .utf8).contains("working.1"), "the simulator's paths carry the worker's lines")
    // A system that keeps a copy and steps another leaves the copy's session as it was.
    let chart = try Self.chart(Self.invoking)
    let session = SCXMLSession(for: chart, sessionID: "kept")
    var system = SystemMachine(MachineSystem(chart: chart), context: session)
    try system.begin()
    let kept = system
    _ = try system.step(.root(SCXMLEvent("poke")))
    #expect(system.context.data.contains(#""lost":1"#))
    #expect(kept.context.data.contains(#""lost":0"#))
    #expect(session.data == "{}", "the session given is not stepped: each system starts from a copy of it")
  }

  @Test("a send to another chart from a store's document, which has no parent, raises error.communication")
  func alone() async throws {
    let sending = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
        <state id="s"><onentry><send target="#_parent" event="hello"/></onentry>
          <transition event="error.communication" target="pass"/><transition event="*" target="fail"/></state>
        <final id="pass"/><final id="fail"/>
      </scxml>
      """
    let alone = try Self.chart(sending)
    let store = try Store(alone, context: SCXMLSession(for: alone), handler: { _, _ in })
    store.start()
    await store.settle()
    #expect(store.configuration == ["pass"])
    await store.finish()
  }
}
#endif
