import FSMCommand
import Foundation

/// Prints benchmark results as a readable table or as JSON.
enum BenchReport {
  static func table(_ results: [BenchResult]) -> String {
    var lines = [
      "workload           variant                            ns/event   x switch   events      reps",
      String(repeating: "-", count: 96),
    ]
    for r in results {
      lines.append(
        r.workload.padding(18) + " " + r.variant.padding(34) + " " + format(r.nsPerEvent, width: 8) + "   "
          + format(r.ratioToSwitch, width: 7) + "   " + String(r.events).padding(11) + " " + String(r.repetitions))
    }
    // Each workload's notes once (every result of a workload carries them), whatever its
    // baseline is called: printed for the results named `switch`, the system workload's (its
    // baseline a store's send) were never shown.
    var notes: [String] = []
    var noted = Set<String>()
    for r in results where noted.insert(r.workload).inserted {
      for (key, value) in r.notes.sorted(by: { $0.key < $1.key }) { notes.append("\(r.workload): \(key) = \(format(value, width: 0))") }
    }
    if !notes.isEmpty { lines += [""] + notes }
    lines.append("")
    lines.append("median of interleaved repetitions; x switch = ns/event / the switch's ns/event in the same run")
    return lines.joined(separator: "\n") + "\n"
  }

  static func json(_ results: [BenchResult]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = (try? encoder.encode(results)) ?? Data("[]".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  static func format(_ value: Double, width: Int) -> String {
    let rounded = (value * 100).rounded() / 100
    let text = String(format: "%.2f", rounded)
    return String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
