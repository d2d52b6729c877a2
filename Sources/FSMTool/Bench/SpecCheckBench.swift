import FSMCommand
import StateMachine

/// Reading and checking large specs: validation and analysis must stay near-linear in the
/// rows (16,000 unguarded rows on one (state, event) pair once took 27.7 s). The baseline is
/// parsing alone; each other variant parses and checks one shape of spec.
enum SpecCheckBench {
  static let header = "| from | event | guard | to | effects |\n| --- | --- | --- | --- | --- |\n"

  /// `rows` rows of each adversarial shape.
  static func shapes(rows: Int) -> [(name: String, text: String)] {
    let states = "| state | role | entry | exit |\n| --- | --- | --- | --- |\n"
    return [
      ("one pair, one target", header + (0..<rows).map { _ in "| a | go |  | b |  |\n" }.joined()),
      ("one pair, distinct targets", header + (0..<rows).map { "| a | go |  | b\($0) |  |\n" }.joined()),
      ("one pair, distinct guards", header + (0..<rows).map { "| a | go | g\($0) | b\($0) |  |\n" }.joined()),
      ("distinct states, 50 events", states + (0..<rows).map { "| s\($0) |  |  |  |\n" }.joined() + "\n" + header
        + (0..<rows).map { "| s\($0) | e\($0 % 50) |  | s\(($0 + 1) % rows) |  |\n" }.joined()),
    ]
  }

  static func workload(rows: Int) -> BenchWorkload {
    let shapes = shapes(rows: rows)
    let parseOnly = BenchVariant(name: "parse only (baseline): \(shapes[0].name)") {
      (try? SpecDocument.parse(shapes[0].text, file: "bench.md"))?.transitions.count ?? -1
    }
    let checks = shapes.map { shape in
      BenchVariant(name: "parse + check: \(shape.name)") {
        guard let spec = try? SpecDocument.parse(shape.text, file: "bench.md") else { return -1 }
        blackHole(spec.check())
        return spec.transitions.count
      }
    }
    return BenchWorkload(name: "spec-check", events: rows, variants: [parseOnly] + checks)
  }
}
