import Foundation
import StateMachine
import Synchronization
import Testing

/// A document's `<invoke>`s run in a ``Store``, as child machines: the cases `fsm run` passes
/// (``SCXMLInvokeTests/cases``) give the same configurations, input by input, when the document
/// is read into a chart of `Command`s and run in a store on a manual clock.
@Suite("SCXML <invoke> in a store: the same runs as fsm run's")
struct SCXMLInvokeStoreTests {
  typealias DocumentChart = Chart<String, String, NoContext, Command<String, String>>

  /// The document at `path` read into a chart a store runs: names stand for themselves, and a
  /// `<log>` is work of its text (as `fsm explore` reads it).
  static func chart(at path: String) throws -> DocumentChart { try SCXMLDocument.systemChart(contentsOf: path) }

  /// Runs `chart` in a store on a manual clock: its start, then each input (an event, or
  /// `after <duration>` to let that much time pass), each followed by the configuration it
  /// leaves, as `fsm run` prints it (`go -> [finished] (halted)`).
  static func run(_ chart: DocumentChart, inputs: [String]) async throws -> [String] {
    let clock = ManualClock()
    let store = try Store(chart, context: NoContext(), clock: clock, handler: { _, _ in })
    var lines: [String] = []
    func line(_ input: String) { lines.append("\(input) -> [\(store.configuration.sorted().joined(separator: ", "))]" + (store.isHalted ? " (halted)" : "")) }
    store.start()
    await store.settle()
    line("start")
    for input in inputs {
      if input.hasPrefix("after "), let delay = SCXMLDocument.duration(String(input.dropFirst("after ".count))) {
        await clock.advance(by: delay)
      } else {
        store.send(input)
      }
      await store.settle()
      line(input)
    }
    await store.finish()
    return lines
  }

  @Test(arguments: SCXMLInvokeTests.cases)
  func runs(_ c: SCXMLInvokeTests.Case) async throws {
    let path = try SCXMLInvokeTests.write(c.document)
    defer { SCXMLInvokeTests.remove(path) }
    let lines = try await Self.run(try Self.chart(at: path), inputs: c.events)
    // (Effects are `fsm run`'s to print: a store reports an invoked chart's work, and performs none.)
    var at = 0
    for expected in c.lines where !expected.hasPrefix("  ") {
      guard let found = lines[at...].firstIndex(of: expected) else {
        Issue.record("missing \(expected) in\n\(lines.joined(separator: "\n"))")
        return
      }
      at = found + 1
    }
  }

  /// A parent that answers `error.communication` with the same message to no one, for ever.
  static let answersLostMessages = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
      <state id="s">
        <invoke id="w"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="k"/></scxml></content></invoke>
        <transition event="go"><send target="#_nobody" event="x"/></transition>
        <transition event="error.communication"><send target="#_nobody" event="x"/></transition>
      </state>
    </scxml>
    """

  @Test("a chart that answers error.communication with the same lost message ends at the loop bound, in a store and in a system")
  func communicationLoopBounded() async throws {
    let chart = try DocumentChart(scxml: Data(Self.answersLostMessages.utf8), file: "parent.scxml", bindings: SCXMLBindings(state: { $0 }, event: { $0 }))
    let failures = Mutex<[String]>([])
    let store = try Store(
      chart, context: NoContext(), clock: ManualClock(), handler: { _, _ in },
      inspector: { report in
        if case .effectFailed(_, let error, _) = report { failures.withLock { $0.append(error) } }
      })
    store.start()
    await store.settle()
    #expect(store.send("go") == .accepted)
    await store.settle()
    // go, then error.communication answered until the store refuses the message as a loop.
    #expect(store.stepCount == 10_000)
    let seen = failures.withLock { $0 }
    #expect(seen.count == 10_000)
    #expect(seen.last == SendRejection.loop.description)
    #expect(seen.dropLast().allSatisfy { $0 == SendRejection.unknownTarget.description })
    await store.finish()
    // A system's input is bounded by its steps.
    var system = SystemMachine(MachineSystem(chart: chart), context: NoContext())
    try system.begin()
    #expect(throws: SystemRunError.tooManyEvents(limit: 10_000, input: "go")) { try system.step(.root("go")) }
  }

  @Test("a macrostep's message to a child its earlier message finished is reported failed, and raises no error.communication")
  func messageToChildEndedInStep() async throws {
    let path = try SCXMLInvokeTests.write(SCXMLInvokeTests.sentWhileRunning)
    defer { SCXMLInvokeTests.remove(path) }
    let failures = Mutex<[String]>([])
    let store = try Store(
      try Self.chart(at: path), context: NoContext(), clock: ManualClock(), handler: { _, _ in },
      inspector: { report in
        if case .effectFailed(let description, let error, _) = report { failures.withLock { $0.append("\(description): \(error)") } }
      })
    store.start()
    await store.settle()
    #expect(store.children == ["w"])
    store.send("both")
    await store.settle()
    #expect(store.configuration == ["s"])
    #expect(store.children.isEmpty)
    #expect(failures.withLock { $0 } == ["send ping to #_w: \(SendRejection.finished)"])
    await store.finish()
  }

  @Test("8 producers: each lost message's error.communication is the step right after it, however many events wait")
  func communicationErrorsAheadUnderProducers() async throws {
    let document = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
        <state id="s">
          <invoke id="w"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="k"/></scxml></content></invoke>
          <transition event="lost"><send target="#_nobody" event="x"/></transition>
          <transition event="tick"/>
          <transition event="error.communication"/>
        </state>
      </scxml>
      """
    let chart = try DocumentChart(scxml: Data(document.utf8), file: "parent.scxml", bindings: SCXMLBindings(state: { $0 }, event: { $0 }))
    let taken = Mutex<[String]>([])
    let store = try Store(
      chart, context: NoContext(), handler: { _, _ in },
      inspector: { report in
        if case .step(let step) = report { taken.withLock { $0.append(step.event) } }
      })
    store.start()
    await store.settle()
    let perProducer = 500
    await withTaskGroup(of: Void.self) { group in
      for p in 0..<8 {
        group.addTask {
          for s in 0..<perProducer {
            store.send(s % 2 == 0 ? "lost" : "tick")
            if s % 8 == p { usleep(20) }  // let the mailbox run dry now and then
          }
        }
      }
    }
    await store.settle()
    let events = taken.withLock { $0 }
    let lost = events.indices.filter { events[$0] == "lost" }
    #expect(lost.count == 8 * perProducer / 2)
    #expect(events.filter { $0 == "tick" }.count == 8 * perProducer / 2)
    #expect(events.filter { $0 == "error.communication" }.count == lost.count)
    // The error is raised ahead of whatever other producers queued meanwhile.
    let notNext = lost.filter { $0 + 1 >= events.count || events[$0 + 1] != "error.communication" }
    #expect(notNext.isEmpty, "\(notNext.count) lost messages whose error was not the next step")
    await store.finish()
  }

  @Test("a state entered again on what its children say at their start, which starts them again, ends at the loop bound")
  func restartLoopBounded() async throws {
    // Two workers, each saying `started` at its start: the first moves `busy` to `running`, and
    // the second, which `running` does not take, enters `session` again (`*`), starting both again.
    let document = SCXMLInvokeTests.parent(SCXMLInvokeTests.inline + "<invoke id=\"q\" src=\"worker.scxml\"/>")
      .replacingOccurrences(of: "<transition event=\"leave\" target=\"idle\"/>", with: "<transition event=\"*\" target=\"session\"/>")
    let path = try SCXMLInvokeTests.write(document)
    defer { SCXMLInvokeTests.remove(path) }
    let store = try Store(try Self.chart(at: path), context: NoContext(), clock: ManualClock(), handler: { _, _ in })
    store.start()
    await store.settle()
    #expect(store.stepCount <= 10_001)
    #expect(store.stepCount >= 9_000)
    // Each input from outside begins a new count.
    let before = store.stepCount
    #expect(store.send("x") == .accepted)
    await store.settle()
    #expect(store.stepCount - before <= 10_001)
    #expect(store.stepCount - before >= 9_000)
    await store.finish()
    #expect(store.children.isEmpty)
  }

  @Test("an invoked document's work is performed by its invoker's store's handler, and the events that work sends go to the invoked chart")
  func invokedWorkPerformed() async throws {
    let document = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="syncing" name="sync">
        <state id="syncing">
          <invoke id="fetch"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="requesting" name="fetch">
            <state id="requesting">
              <onentry><log label="fetch" expr="'request'"/></onentry>
              <transition event="reply" target="done"><send target="#_parent" event="fetched"/></transition>
            </state>
            <final id="done"/>
          </scxml></content></invoke>
          <transition event="fetched"><log label="sync" expr="'fetched'"/></transition>
          <transition event="done.invoke.fetch" target="synced"/>
        </state>
        <final id="synced"/>
      </scxml>
      """
    let chart = try DocumentChart(scxml: Data(document.utf8), file: "sync.scxml", bindings: SCXMLBindings(state: { $0 }, event: { $0 }, effect: { .perform($0) }))
    let performed = Mutex<[String]>([])
    // The network's reply to the fetch's request is the handler's to send, and goes to the fetch.
    let store = try Store(chart, context: NoContext(), clock: ManualClock()) { work, send in
      performed.withLock { $0.append(work) }
      if work == "fetch: request" { send("reply") }
    }
    store.start()
    await store.settle()
    #expect(store.configuration == ["synced"])
    #expect(performed.withLock { $0 } == ["fetch: request", "sync: fetched"])
    await store.finish()
  }

  /// The W3C tests of `<invoke>` that need no datamodel, run in a store: each ends in `pass`
  /// once its clock has run 10 s (their timeouts fail them after 5 s at the most).
  @Test("the W3C invoke tests that need no datamodel pass in a store", .enabled(if: SCION.present, "../shared is missing"))
  func w3c() async throws {
    let folder = SCION.folder.replacingOccurrences(of: "/scion", with: "/scion-ecmascript") + "/w3c-ecma"
    for test in ["test192", "test220", "test229", "test232", "test235", "test242", "test247", "test347"] {
      let chart = try Self.chart(at: "\(folder)/\(test).txml.scxml")
      let lines = try await Self.run(chart, inputs: (1...20).map { _ in "after 500ms" })
      #expect(lines.last == "after 500ms -> [pass] (halted)", "\(test): \(lines.joined(separator: "\n"))")
    }
  }
}
