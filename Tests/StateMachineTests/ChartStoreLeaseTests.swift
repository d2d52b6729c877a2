@testable import StateMachine
import Testing

/// A chart store keeps where its chart is, not a machine: it leases one from its chart's pool
/// while it drains its mailbox and hands it back when the mailbox is empty (see
/// ``ChartStepperPool``), but for the chart's keeper, which keeps its own between drains. The
/// stores of one chart then step on each other's machines, so each must load its own
/// configuration, history and context, and never keep another store's compiled node.
@Suite("Chart stores lease their chart's stepping machines")
struct ChartStoreLeaseTests {
  typealias StoreChart = Chart<String, String, Int, Command<String, String>>

  static func chart(seed: Int) throws -> StoreChart {
    try RandomChart.make(seed: UInt64(seed)) { name in .perform(name, scope: name.hasPrefix("enter") ? .state : .global) }
  }

  @Test("stores of one chart, sent to in turn on one thread, each follow a bare machine of their own", arguments: 0..<16)
  func storesInTurn(seed: Int) async throws {
    let chart = try Self.chart(seed: seed)
    var random = SplitMix64(seed: UInt64(seed) &+ 77)
    var stores: [Store<Chart<String, String, Int, Command<String, String>>>] = []
    var machines: [ChartMachine<String, String, Int, Command<String, String>>] = []
    for k in 0..<3 {
      // Different contexts: a store that kept another's context would show it.
      stores.append(try Store(chart, context: k * 10, handler: { _, _ in }))
      var machine = ChartMachine(chart, context: k * 10)
      _ = try machine.start()
      machines.append(machine)
      stores[k].start()
    }
    for step in 0..<600 {
      let k = Int(random.next() % 3)
      let event = RandomChart.alphabet[Int(random.next() % UInt64(RandomChart.alphabet.count))]
      stores[k].send(event)
      _ = try? machines[k].send(event)
      #expect(stores[k].snapshot == machines[k].snapshot, "store \(k), step \(step), after \(event)")
    }
    for store in stores { await store.finish() }
  }

  @Test("stores of one chart driven at once from many tasks each follow a bare machine of their own", arguments: [3, 8])
  func storesAtOnce(seed: Int) async throws {
    let chart = try Self.chart(seed: seed)
    let results = try await withThrowingTaskGroup(of: Bool.self) { group in
      for k in 0..<8 {
        group.addTask {
          var random = SplitMix64(seed: UInt64(seed * 100 + k))
          let store = try Store(chart, context: k, handler: { _, _ in })
          var machine = ChartMachine(chart, context: k)
          _ = try machine.start()
          store.start()
          for _ in 0..<2_000 {
            let event = RandomChart.alphabet[Int(random.next() % UInt64(RandomChart.alphabet.count))]
            store.send(event)
            _ = try? machine.send(event)
          }
          await store.settle()
          let same = store.snapshot == machine.snapshot
          await store.finish()
          return same
        }
      }
      var all: [Bool] = []
      for try await same in group { all.append(same) }
      return all
    }
    #expect(results == Array(repeating: true, count: 8))
  }

  @Test("the chart's keeper store keeps its machine between drains, another idle store holds none, and the pool goes with the chart's last store (no cycle through its spares)")
  func poolLifetime() async throws {
    weak var pool: ChartStepperPool<String, String, Int, Command<String, String>>?
    weak var tables: ChartTables<String, String, Int, Command<String, String>>?
    do {
      let chart = try Self.chart(seed: 5)
      tables = chart.tables
      var first: Store<StoreChart>? = try Store(chart, context: 0, handler: { _, _ in })
      let second = try Store(chart, context: 1, handler: { _, _ in })
      first?.start()
      second.start()
      for event in RandomChart.alphabet {
        first?.send(event)
        second.send(event)
      }
      await first?.settle()
      await second.settle()
      pool = chart.tables.stepperPool.withLock { $0.object }
      #expect(pool != nil, "the stores share one pool")
      #expect(pool?.keeper.load(ordering: .relaxed) != 0, "the first store to drain is the chart's keeper")
      #expect(pool?.spares == 1, "both stores are idle: the keeper keeps its machine, the other's is back in the pool")
      await first?.finish()
      first = nil
      #expect(pool?.keeper.load(ordering: .relaxed) == 0, "a freed keeper is no longer the keeper")
      #expect(pool?.spares == 2, "a freed keeper hands its machine back")
      await second.finish()
    }
    #expect(pool == nil, "the pool went with the last store")
    #expect(tables == nil, "the chart went with it: the pool's spare machines, which hold the chart, were freed")
  }
}
