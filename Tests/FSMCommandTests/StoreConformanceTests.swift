import FSMCommand
import Foundation
import StateMachine
import Testing

/// The SCION suite in a `Store`: `fsm conform` runs it through the command line's own runner;
/// here each document runs as a user's store runs it, on a manual clock, and every trace gives
/// the same configurations, event by event.
@Suite("SCION conformance in a store")
struct StoreConformanceTests {
  typealias Trace = ConformanceTrace

  /// Every test of the suite: its document and its trace beside it, by path under the folder.
  static func tests() -> [String] {
    guard SCION.present, let files = FileManager.default.enumerator(atPath: SCION.folder)?.compactMap({ $0 as? String }) else { return [] }
    return files.filter { $0.hasSuffix(".scxml") && FileManager.default.fileExists(atPath: SCION.folder + "/" + $0.dropLast(6) + ".json") }.sorted()
  }

  @Test("every SCION test passes in a store: the same configurations after the start and after each event", .enabled(if: SCION.present, "../shared/scion is missing"))
  func suite() async throws {
    let tests = Self.tests()
    #expect(tests.count == 86)
    var failures: [String] = []
    for test in tests {
      let path = SCION.folder + "/" + test
      let trace = try JSONDecoder().decode(Trace.self, from: Data(contentsOf: URL(fileURLWithPath: String(path.dropLast(6)) + ".json")))
      let chart = try SCXMLDocument.systemChart(contentsOf: path)
      let clock = ManualClock()
      let store = try Store(chart, context: NoContext(), clock: clock, handler: { _, _ in })
      // The trace's first configuration is the first macrostep's, which a store takes when it
      // is made (what that macrostep sent is handled once it starts).
      var got = store.configuration.sorted()
      if got != trace.initialConfiguration.sorted() {
        failures.append("\(test): start: expected \(trace.initialConfiguration.sorted()), got \(got)")
        continue
      }
      store.start()
      await store.settle()
      for (n, step) in trace.events.enumerated() {
        if let after = step.after { await clock.advance(by: .milliseconds(after)) }
        store.send(step.event.name)
        await store.settle()
        got = store.configuration.sorted()
        if got != step.nextConfiguration.sorted() {
          failures.append("\(test): event \(n + 1) '\(step.event.name)': expected \(step.nextConfiguration.sorted()), got \(got)")
          break
        }
      }
      await store.finish()
    }
    #expect(failures.isEmpty, "\(failures.count) failed:\n\(failures.joined(separator: "\n"))")
  }
}
