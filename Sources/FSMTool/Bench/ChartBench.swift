import FSMCommand
import Foundation
import StateMachine

/// A 3-level chart stepped by ``ChartMachine`` against a hand-written `switch` over the same
/// chart's flattened configurations, on seeded random events (every event is handled in every
/// configuration).
///
/// Compound: `top` holds `A` and `B`; each holds two middles (`A1`, `A2` / `B1`, `B2`); each
/// middle two leaves (`A1a`, `A1b`, ...). `x` toggles the leaf, `y` the middle, `z` the top state.
/// Parallel: the same shape twice, as two regions of one parallel state, with `x1`/`y1` for
/// the first region and `x2`/`y2` for the second; `z` exits and re-enters the parallel state.
enum ChartBench {
  /// The events, with ordinals (their raw values), as a user's `Discriminated` enum would be.
  enum Input: UInt8, Hashable, Codable, Discriminated { case x, y, z, x1, y1, x2, y2 }
  typealias BenchChart = Chart<Int, Input, NoContext, Never>

  /// Leaves of one 3-level tree: bit 2 the top state, bit 1 the middle, bit 0 the leaf.
  @inline(__always)
  static func next(_ leaf: Int, _ event: UInt8) -> Int {
    switch event {
    case 0: leaf ^ 1  // x: the other leaf of this middle
    case 1: (leaf ^ 2) & ~1  // y: the other middle, entered at its first leaf
    default: (leaf ^ 4) & ~3  // z: the other top state, at its first middle and leaf
    }
  }

  /// The 3-level tree as chart states; ids are `base + leaf bits` for leaves, others above 100.
  static func tree<Effect>(base: Int, events: (x: Input, y: Input, z: Input?)) -> [ChartState<Int, Input, NoContext, Effect>] {
    (0..<2).map { top in
      .compound(
        base + 100 + top, children: (0..<2).map { middle in
          .compound(
            base + 200 + top * 2 + middle, children: (0..<2).map { leaf in
              let id = base + top * 4 + middle * 2 + leaf
              return .atomic(id, transitions: [.on(events.x, to: base + top * 4 + middle * 2 + (leaf ^ 1))])
            }, transitions: [.on(events.y, to: base + 200 + top * 2 + (middle ^ 1))])
        }, transitions: events.z.map { [.on($0, to: base + 100 + (top ^ 1))] } ?? [])
    }
  }

  static func compound<Effect>() -> Chart<Int, Input, NoContext, Effect> {
    try! Chart(name: "bench-compound", states: tree(base: 0, events: (.x, .y, .z)))
  }

  static func parallel<Effect>() -> Chart<Int, Input, NoContext, Effect> {
    let regions = [
      ChartState<Int, Input, NoContext, Effect>.compound(1000, children: tree(base: 0, events: (.x1, .y1, nil))),
      .compound(2000, children: tree(base: 10, events: (.x2, .y2, nil))),
    ]
    return try! Chart(
      name: "bench-parallel",
      states: [.parallel(3000, regions: regions, transitions: [.on(.z, to: 3000)])])
  }

  typealias StoreChart = Chart<Int, Input, NoContext, Command<Input, Never>>
  typealias ChartLog = EventLog<ChartLogState<Int>, Input, NoContext, Command<Input, Never>>

  /// The chart's log of `inputs`, as a value.
  static func entries(of chart: StoreChart, _ inputs: [Input]) -> ChartLog {
    var machine = ChartMachine(chart, context: NoContext())
    _ = try? machine.start()
    var log = ChartLog(header: .init(
      machine: chart.name, fingerprint: chart.fingerprint, state: ChartLogState(machine), context: NoContext()))
    log.entries.reserveCapacity(inputs.count)
    for (i, event) in inputs.enumerated() {
      guard let step = try? machine.send(event) else { break }
      log.entries.append(.init(
        sequence: i + 1, time: nil, event: event, outcome: step.outcome == .transitioned ? .transitioned : .ignored,
        state: ChartLogState(machine), context: NoContext(), effects: step.effects))
    }
    return log
  }

  /// Records every step of `inputs` through an in-memory ``LogRecorder`` (as a store's
  /// recorder does, without the file); the entries recorded, or -1.
  static func recordInMemory(_ chart: StoreChart, _ inputs: [Input]) -> Int {
    var machine = ChartMachine(chart, context: NoContext())
    guard (try? machine.start()) != nil, let recorder = try? LogRecorder(chart: chart, machine: machine) else { return -1 }
    for event in inputs {
      guard let step = try? machine.send(event), (try? recorder.record(event, step: step, machine: machine)) != nil else { return -1 }
    }
    return recorder.count
  }

  /// The baseline: a `switch` over the flattened configurations (one leaf, or one leaf per
  /// region), inlined; the end configuration's leaves.
  @inline(__always)
  static func flattened(_ events: [UInt8], parallel: Bool) -> [Int] {
    var a = 0
    var b = 0
    for event in events {
      switch event {
      case 3: a = next(a, 0)
      case 4: a = next(a, 1)
      case 5: b = next(b, 0)
      case 6: b = next(b, 1)
      case 2 where parallel: (a, b) = (0, 0)
      default: a = next(a, event)
      }
    }
    return parallel ? [a, 10 + b] : [a]
  }

  static func workload(count: Int, parallel: Bool) -> BenchWorkload {
    var random = SplitMix64(seed: parallel ? 0xC4A7 : 0xC0DE)
    // Compound: x, y, z (0...2). Parallel: x1, y1, x2, y2, z (3...6, then 2).
    let events: [UInt8] = (0..<count).map { _ in
      parallel ? [3, 4, 5, 6, 2][Int(random.next() % 5)] : UInt8(random.next() % 3)
    }
    let chart: BenchChart = parallel ? Self.parallel() : compound()
    let storeChart: StoreChart = parallel ? Self.parallel() : compound()
    // Measured before the logs below are made: stores made after a large value was freed
    // reuse its memory without growing the resident set, and would seem smaller than they are.
    // Beside the table's, measured the same way at the same point: made only, and started
    // with one event handled (a session waiting for its next event).
    // Each batch is kept until all are measured, so none reuses another's memory.
    var kept: [Any] = []
    let idleTableBytes = StoreBench.bytesPerIdleStore(count: 100_000, kept: &kept)
    let idleBytes = bytesPerIdleStore(storeChart, count: 100_000, kept: &kept)
    let steppedTableBytes = StoreBench.bytesPerIdleStore(count: 100_000, stepped: true, kept: &kept)
    let steppedBytes = bytesPerIdleStore(storeChart, count: 100_000, stepped: parallel ? .x1 : .x, kept: &kept)
    kept = []
    let inputs = events.map { Input(rawValue: $0)! }
    let loggedLog = entries(of: storeChart, inputs)
    let logged = (try? loggedLog.encoded()) ?? Data()
    let expected = flattened(events, parallel: parallel)
    // The table store's send, beside the chart store's in the same run (sent alike: every
    // event from this thread, the state read once at the end).
    let tableEvents = LoaderBench.events(count: count, seed: 0x5EED)
    let tableStore = StoreBench.table(effects: false)
    let tableExpected = tableEvents.reduce(LoaderBench.State.idle, LoaderBench.next)
    return BenchWorkload(
      name: parallel ? "chart-parallel" : "chart", events: count,
      variants: [
        BenchVariant(name: "switch") { flattened(events, parallel: parallel) == expected ? count : -1 },
        BenchVariant(name: "chart.send") {
          var machine = ChartMachine(chart, context: NoContext())
          _ = try? machine.start()
          do {
            for event in inputs { _ = try machine.send(event) }
          } catch {
            return -1
          }
          return machine.configuration == expected ? count : -1
        },
        BenchVariant(name: "chart start (a new machine's first macrostep), per start") {
          // As many starts as the others step events: what making a chart's machine costs (a
          // store's, a child's), its first macrostep compiled once per chart and shared.
          var started = 0
          for _ in 0..<count {
            var machine = ChartMachine(chart, context: NoContext())
            if (try? machine.start()) != nil, machine.isStarted { started += 1 }
          }
          return started
        },
        BenchVariant(name: "chartStore.send, no effects") {
          guard let store = try? Store(storeChart, context: NoContext(), handler: { _, _ in }) else { return -1 }
          for event in inputs { store.send(event) }
          let configuration = store.configuration
          StoreBench.finishSynchronously(store)
          return configuration == expected ? count : -1
        },
        BenchVariant(name: "table store.send, no effects (the loader table: chartStore.send's baseline)") {
          let store = Store(tableStore, context: NoContext()) { _, _ in }
          for event in tableEvents { store.send(event) }
          let reached = store.state
          StoreBench.finishSynchronously(store)
          return reached == tableExpected ? count : -1
        },
        BenchVariant(name: "chart log write (encode JSON Lines)") {
          ((try? loggedLog.encoded())?.count ?? 0) > 0 ? count : -1
        },
        BenchVariant(name: "chart log record (in-memory recorder: step + keep the entry)") { recordInMemory(storeChart, inputs) },
        .replay("chart replay (decode + step + compare)") {
          let read = ChartLog.read(logged, for: storeChart)
          return read.error == nil ? read.log.map { ($0.entries.count, storeChart.replay($0).isIdentical) } : nil
        },
      ],
      notes: [
        "chart_log_bytes_per_entry": Double(logged.count) / Double(max(1, count)),
        "bytes_per_idle_chart_store": idleBytes,
        "bytes_per_idle_table_store": idleTableBytes,
        "bytes_per_idle_chart_store_after_a_step": steppedBytes,
        "bytes_per_idle_table_store_after_a_step": steppedTableBytes,
      ])
  }

  /// Bytes per idle chart store: growth of the resident set over `count` stores of `chart`,
  /// divided by `count` (as ``StoreBench/bytesPerIdleStore(count:)`` measures a table's).
  /// With `stepped`, each store is started and handles that event first; the stores are kept
  /// in `kept`.
  static func bytesPerIdleStore(_ chart: StoreChart, count: Int, stepped: Input? = nil, kept: inout [Any]) -> Double {
    var stores: [Store<StoreChart>] = []
    stores.reserveCapacity(count)
    guard let before = StoreBench.residentBaseline() else { return .nan }
    for _ in 0..<count {
      guard let store = try? Store(chart, context: NoContext(), handler: { _, _ in }) else { return .nan }
      if let stepped {
        store.start()
        store.send(stepped)
      }
      stores.append(store)
    }
    guard let after = StoreBench.residentBytes() else { return .nan }
    kept.append(stores)
    return Double(after - before) / Double(count)
  }
}
