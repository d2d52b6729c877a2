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

  /// What `fsm` prints for `words`, with the ECMAScript datamodel.
  static func fsm(_ words: [String]) -> CommandResult {
    FSM.$ecmascript.withValue(FSM.DatamodelMaker { ECMAScriptDatamodel() }) { FSM.run(words) }
  }

  /// Runs `body` with a new folder of its own, removed after it.
  static func inFolder<T>(_ body: (String) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-ecmascript-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try await body(folder)
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
    try await Self.inFolder { folder in
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
      let replayed = Self.fsm(["replay", document, logPath])
      #expect(replayed.code == 0, "\(replayed.output)\(replayed.errorOutput)")
      #expect(replayed.output.contains("2 entries"), "\(replayed.output)")
      let viewed = Self.fsm(["view", document, logPath, "-o", folder + "/page.html"])
      #expect(viewed.output == folder + "/page.html: 2 steps of counter, replays identically\n", "\(viewed.errorOutput)")
      let page = try String(contentsOfFile: folder + "/page.html", encoding: .utf8)
      #expect(page.contains("total"), "the page shows the session's data")
      // A log whose data was changed diverges, in both.
      let text = try String(contentsOfFile: logPath, encoding: .utf8)
      try text.replacingOccurrences(of: #"\"total\":4"#, with: #"\"total\":40"#).write(toFile: logPath, atomically: true, encoding: .utf8)
      #expect(Self.fsm(["replay", document, logPath]).code == 1)
      #expect(Self.fsm(["view", document, logPath, "-o", folder + "/page.html"]).output.contains("diverges at step 2"))
      // Explored and simulated over the event names it mentions, each configuration with its data.
      let explored = Self.fsm(["explore", document])
      #expect(explored.output.contains("configurations: 7 (depth 3)"), "\(explored.output)\(explored.errorOutput)")
      // And walked, each walk from a session of its own.
      let walked = Self.fsm(["explore", document, "--walks", "4", "--length", "10", "--seed", "5"])
      #expect(walked.output.hasSuffix("walks: 4 walks, 40 steps, seed 5: no failure\n"), "\(walked.output)\(walked.errorOutput)")
      #expect(Self.fsm(["view", document, "-o", folder + "/simulator.html"]).output == folder + "/simulator.html: simulator of counter, 7 configurations\n")
    }
  }

  @Test("fsm check of a document finds no names its content shares (a datamodel's content is not bound by name), and finds what is wrong")
  func check() async throws {
    try await Self.inFolder { folder in
      for (name, text) in [("counter", Self.counter), ("boss", ECMAScriptInvokeStoreTests.invoking)] {
        try text.write(toFile: "\(folder)/\(name).scxml", atomically: true, encoding: .utf8)
        let checked = Self.fsm(["check", "\(folder)/\(name).scxml"])
        #expect(checked.code == 0 && checked.output.hasSuffix("clean: no findings\n"), "\(name): \(checked.output)\(checked.errorOutput)")
      }
      // The worker's `counting` made unreachable: its initial state is another.
      let broken = ECMAScriptInvokeStoreTests.invoking.replacingOccurrences(of: #"name="worker" initial="counting""#, with: #"name="worker" initial="done""#)
      try broken.write(toFile: folder + "/broken.scxml", atomically: true, encoding: .utf8)
      let checked = Self.fsm(["check", folder + "/broken.scxml"])
      #expect(checked.output.contains("the chart invoked as 'working.1' in 'working'"), "\(checked.output)")
      #expect(checked.output.contains("state 'counting' is not reachable from the start"), "\(checked.output)")
      #expect(!checked.output.contains("given to different code"), "\(checked.output)")
    }
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
