#if ECMAScript
import FSMCommand
import Foundation
import StateMachine
import StateMachineECMAScript
import Testing

/// The ECMAScript conformance tests in a `Store`: every test `fsm conform` passes (those whose
/// document invokes others too, each invoked document a child of the store) passes when its
/// document runs as a user's store runs it, on a manual clock, with its session for context.
@Suite("ECMAScript conformance in a store")
struct ECMAScriptStoreConformanceTests {
  typealias Trace = ConformanceTrace

  /// The tests `fsm conform` passes (by path under `folder`, without `.scxml`).
  static func passedByConform(_ folder: String) -> [String] {
    let result = FSM.$ecmascript.withValue(FSM.DatamodelMaker { ECMAScriptDatamodel() }) { FSM.run(["conform", folder]) }
    return result.output.split(separator: "\n").compactMap { line in
      line.hasPrefix("pass ") ? String(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) : nil
    }
  }

  /// Where `chart`, in a store, first differs from `trace`; `nil` when it follows it.
  static func run(_ chart: ECMAScriptChart, _ trace: Trace) async throws -> String? {
    let clock = ManualClock()
    let store = try Store(chart, context: SCXMLSession(for: chart, sessionID: "conformance"), clock: clock, handler: { _, _ in })
    let failure = await follow(store, clock: clock, trace)
    await store.finish()
    return failure
  }

  /// Where `store` first differs from `trace`; `nil` when it follows it.
  static func follow(_ store: Store<ECMAScriptChart>, clock: ManualClock, _ trace: Trace) async -> String? {
    // A trace's first configuration is the first macrostep's, which a store takes when it is
    // made; a W3C test without events is judged once its clock has run (its timeouts are
    // seconds at the most), as `fsm conform` judges it.
    var got = store.configuration.sorted()
    store.start()
    await store.settle()
    if trace.events.isEmpty {
      for _ in 0..<60 where !store.isHalted { await clock.advance(by: .seconds(1)) }
      got = store.configuration.sorted()
    }
    if got != trace.initialConfiguration.sorted() { return "start: expected \(trace.initialConfiguration.sorted()), got \(got)" }
    for (n, step) in trace.events.enumerated() {
      if let after = step.after { await clock.advance(by: .milliseconds(after)) }
      store.send(SCXMLEvent(step.event.name))
      await store.settle()
      got = store.configuration.sorted()
      if got != step.nextConfiguration.sorted() {
        return "event \(n + 1) '\(step.event.name)': expected \(step.nextConfiguration.sorted()), got \(got)"
      }
    }
    return nil
  }

  @Test(
    "every test fsm conform passes, those that invoke among them, passes in a store",
    .enabled(if: SCXMLECMAScriptTests.shared("scion-ecmascript/index.tsv") != nil, "needs ../shared/scion-ecmascript"))
  func suite() async throws {
    let folder = try #require(SCXMLECMAScriptTests.shared("scion-ecmascript"))
    var (ran, failures) = (0, [String]())
    for test in Self.passedByConform(folder) {
      let path = folder + "/" + test + ".scxml"
      let trace = try JSONDecoder().decode(Trace.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + test + ".json")))
      ran += 1
      if let failure = try await Self.run(try ECMAScriptChart(ecmascriptContentsOf: path), trace) { failures.append("\(test): \(failure)") }
    }
    // (162 tests: 156 pass in fsm conform, 27 of those invoke.)
    #expect(ran >= 156, "\(ran) ran")
    #expect(failures.isEmpty, "\(failures.count) of \(ran) failed:\n\(failures.joined(separator: "\n"))")
  }
}
#endif
