import FSMCommand
import Foundation
import StateMachine

/// Writing logs: a table's and a chart's recorder writing every step to a file, and how much
/// memory a file recorder holds over a long recording (it keeps only the last entry).
enum ChartLogBench {
  typealias Input = ChartBench.Input
  /// The compound bench chart's leaf, as a flat table's state (see ``ChartBench/next(_:_:)``).
  enum Leaf: UInt8, Hashable, Codable, CaseIterable, Discriminated { case l0, l1, l2, l3, l4, l5, l6, l7 }
  typealias LeafTable = TransitionTable<Leaf, Input, NoContext, Command<Input, Never>>

  /// The compound bench chart flattened: one state per leaf, `x`, `y`, `z` as the chart moves.
  static func table() -> LeafTable {
    let rows = Leaf.allCases.flatMap { leaf in
      [Input.x, .y, .z].map { event in
        Row<Leaf, Input, NoContext, Command<Input, Never>>.transition(from: leaf, on: event, to: Leaf(rawValue: UInt8(ChartBench.next(Int(leaf.rawValue), event.rawValue)))!)
      }
    }
    return try! LeafTable(name: "bench-leaves", initial: .l0, rows: rows)
  }

  static func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("fsm-bench-\(name)-\(getpid()).jsonl").path
  }

  /// Records `inputs` through a file recorder of the compound chart; `sample` sees the recorder
  /// every 100,000 entries. Returns the entries recorded (-1 on an error).
  static func recordChart(
    _ inputs: [Input], at path: String, durability: LogFile.Durability = .onDemand, sample: () -> Void = {}
  ) -> Int {
    try? FileManager.default.removeItem(atPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let chart: ChartBench.StoreChart = ChartBench.compound()
    var machine = ChartMachine(chart, context: NoContext())
    guard (try? machine.start()) != nil,
      let recorder = try? LogRecorder(chart: chart, machine: machine, file: path, durability: durability)
    else { return -1 }
    for (i, event) in inputs.enumerated() {
      guard let step = try? machine.send(event), (try? recorder.record(event, step: step, machine: machine)) != nil else { return -1 }
      if i % 100_000 == 99_999 { sample() }
    }
    guard (try? recorder.close()) != nil else { return -1 }
    return recorder.count
  }

  /// Sends `inputs` to a chart store that records every step to a file (as a user's store
  /// does with `store.record(to:)`); the entries recorded, or -1.
  static func recordChartStore(_ inputs: [Input], at path: String, durability: LogFile.Durability = .onDemand) -> Int {
    try? FileManager.default.removeItem(atPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let chart: ChartBench.StoreChart = ChartBench.compound()
    guard let store = try? Store(chart, context: NoContext(), handler: { _, _ in }),
      let recorder = try? store.record(to: path, durability: durability)
    else { return -1 }
    for event in inputs { store.send(event) }
    StoreBench.finishSynchronously(store)
    guard (try? recorder.close()) != nil, recorder.stoppedBy == nil else { return -1 }
    return recorder.count
  }

  static func workload(count: Int, memoryEntries: Int) -> BenchWorkload {
    var random = SplitMix64(seed: 0x1065)
    let inputs = (0..<count).map { _ in Input(rawValue: UInt8(random.next() % 3))! }
    let table = table()
    let path = temporaryPath("write")
    // Memory: a long recording to a file, the resident set sampled as it goes.
    var peak = 0
    let before = StoreBench.residentBaseline() ?? 0
    let long = (0..<memoryEntries).map { _ in Input(rawValue: UInt8(random.next() % 3))! }
    let recorded = recordChart(long, at: path) { peak = max(peak, StoreBench.residentBytes() ?? 0) }
    peak = max(peak, StoreBench.residentBytes() ?? 0)
    return BenchWorkload(
      name: "chart-log-write", events: count,
      variants: [
        BenchVariant(name: "table recorder to a file") {
          try? FileManager.default.removeItem(atPath: path)
          defer { try? FileManager.default.removeItem(atPath: path) }
          var machine = Machine(table, context: NoContext())
          guard let recorder = try? LogRecorder(table: table, state: machine.state, context: NoContext(), file: path, durability: .onDemand)
          else { return -1 }
          for event in inputs { guard (try? recorder.send(event, to: &machine)) != nil else { return -1 } }
          guard (try? recorder.close()) != nil else { return -1 }
          return recorder.count
        },
        BenchVariant(name: "chart recorder to a file") { recordChart(inputs, at: path) },
        BenchVariant(name: "chart store recording to a file (store.record(to:))") { recordChartStore(inputs, at: path) },
        // Written 64 lines at a time: a killed process loses at most the last 63.
        BenchVariant(name: "chart recorder to a file, batched(64)") { recordChart(inputs, at: path, durability: .batched(64)) },
        BenchVariant(name: "chart store recording to a file, batched(64)") {
          recordChartStore(inputs, at: path, durability: .batched(64))
        },
      ],
      notes: [
        "file_recorder_entries": Double(recorded),
        "file_recorder_rss_growth_mb": Double(max(0, peak - before)) / 1_048_576,
      ])
  }
}
