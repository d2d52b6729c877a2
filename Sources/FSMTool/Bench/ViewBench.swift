import FSMCommand
import Foundation
import StateMachine
import StateMachineExamples

/// The `view` workload: `fsm view`'s session page of a 100,000-step log opened in headless
/// Chromium at its last, middle and an early step, beside a one-step page (the browser's own
/// start and a page with almost no data: the baseline). Each variant is one opening (its time
/// is the browser's, start to DOM); the notes are what the pages say their script took to open
/// at the step (`data-shown-ms`: the data read, the diagram lit, the step shown), medians of
/// the repetitions. Only listed where a browser is installed.
package enum ViewBench {
  /// The steps the large page is opened at.
  package static let steps = [99_999, 50_000, 7]

  /// The workload over a counter's log of `count` steps (100,000 unscaled), its page and a
  /// one-step page written to a temporary folder, removed when the measuring ends.
  static func workload(count: Int) -> BenchWorkload {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-bench-view-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let large = page(steps: count, in: folder, name: "large")?.path
    let small = page(steps: 1, in: folder, name: "small")?.path
    let shown = ShownTimes()
    // (A scaled-down log has fewer steps: each step opened once.)
    let opened = Array(Set(steps.map { min($0, count) })).sorted(by: >)
    var variants = [
      BenchVariant(name: "open a 1-step page (baseline: the browser's start)") { open(small, at: 1, keeping: "1 step", in: shown) }
    ]
    for step in opened {
      variants.append(BenchVariant(name: "open the \(count)-step page at step \(step)") { open(large, at: step, keeping: "step \(step)", in: shown) })
    }
    var workload = BenchWorkload(name: "view", events: 1, variants: variants)
    workload.finish = {
      try? FileManager.default.removeItem(at: folder)
      return shown.medians()
    }
    return workload
  }

  /// Writes a counter's log of `steps` ticks and `fsm view`'s page of it; the page's path and
  /// what `fsm view` said (`nil` when either could not be written).
  package static func page(steps: Int, in folder: URL, name: String) -> (path: String, said: String)? {
    var machine = Machine(Counter.table, context: Counter.Context())
    var log = EventLog<Counter.State, Counter.Event, Counter.Context, Counter.Effect>(
      header: .init(machine: Counter.table.name, fingerprint: Counter.table.fingerprint, state: machine.state, context: machine.context))
    for sequence in 1...steps {
      let outcome = machine.send(.tick)
      log.entries.append(
        .init(
          sequence: sequence, time: Double(sequence), event: .tick, outcome: LoggedOutcome(outcome), state: machine.state,
          context: machine.context, effects: []))
    }
    let path = folder.appendingPathComponent("\(name).jsonl").path
    let page = folder.appendingPathComponent("\(name).html").path
    guard let data = try? log.encoded(), (try? data.write(to: URL(fileURLWithPath: path))) != nil else { return nil }
    let viewed = PackageFSM.run(["view", "counter", path, "-o", page])
    return viewed.code == 0 ? (page, viewed.output) : nil
  }

  /// Opens `page` at `step` and keeps the time it says it took under `key`; 1 when it shows
  /// the counter's count at that step, else -1 (the checksum every variant must agree on).
  static func open(_ page: String?, at step: Int, keeping key: String, in shown: ShownTimes) -> Int {
    guard let page, let dom = try? HeadlessChromium.dom("file://\(page)#step=\(step)"),
      HeadlessChromium.text(of: "context", in: dom)?.contains("\"count\": \(step)") == true,
      let milliseconds = HeadlessChromium.shownMilliseconds(in: dom)
    else { return -1 }
    shown.keep(milliseconds, for: key)
    return 1
  }

  /// The times the pages said they took, by what was opened (the variants run one at a time).
  final class ShownTimes {
    private var times: [String: [Double]] = [:]

    func keep(_ milliseconds: Double, for key: String) { times[key, default: []].append(milliseconds) }

    /// Each key's median, as a note: `shown_ms_step_99999`, `shown_ms_1_step`.
    func medians() -> [String: Double] {
      Dictionary(uniqueKeysWithValues: times.map { key, values in ("shown_ms_" + key.replacingOccurrences(of: " ", with: "_"), median(values)) })
    }
  }
}
