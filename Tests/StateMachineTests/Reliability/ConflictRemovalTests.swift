import Foundation
@testable import StateMachine
import Testing

/// The linear conflict removal gives what the recommendation's pairwise comparison gives, and
/// a macrostep with thousands of transitions enabled at once stays linear.
@Suite("Conflict removal: linear, and the same as the pairwise reference")
struct ConflictRemovalTests {
  typealias S = ChartState<String, String, NoContext, String>

  /// A parallel of `regions` regions, each a compound holding a compound, with transitions at
  /// every level, internal and external, to targets nearby and far.
  static func chart(regions: Int, seed: UInt64) throws -> Chart<String, String, NoContext, String> {
    var random = SplitMix64(seed: seed)
    func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    let names = (0..<regions).flatMap { r in ["r\(r)", "r\(r)a", "r\(r)b", "r\(r)b1", "r\(r)b2"] } + ["p", "out"]
    func transitions(_ count: Int) -> [ChartTransition<String, String, NoContext, String>] {
      (0..<count).map { _ in
        let targets = pick(5) == 0 ? [] : [names[pick(names.count)]]
        return ChartTransition(events: ["e"], targets: targets, isInternal: pick(3) == 0)
      }
    }
    let region = { (r: Int) -> S in
      S.compound("r\(r)", children: [
        .atomic("r\(r)a", transitions: transitions(pick(2))),
        .compound("r\(r)b", children: [
          .atomic("r\(r)b1", transitions: transitions(pick(2))),
          .atomic("r\(r)b2", transitions: transitions(1)),
        ], transitions: transitions(pick(2))),
      ], transitions: transitions(pick(2)))
    }
    return try Chart(name: "conflicts", states: [
      .parallel("p", regions: (0..<regions).map(region), transitions: transitions(1)),
      .atomic("out", transitions: [.on("e", to: "p")]),
    ])
  }

  @Test("on random charts and configurations, the linear removal keeps exactly what the pairwise one keeps")
  func agreesWithPairwise() throws {
    for seed in UInt64(1)...60 {
      let chart = try Self.chart(regions: 3 + Int(seed % 9), seed: seed)
      var machine = ChartMachine(chart, context: NoContext())
      _ = try machine.start()
      var random = SplitMix64(seed: seed &* 7919)
      for _ in 0..<20 {
        // Every transition of an active state, in a random order, as a stress on both.
        var enabled = (0..<chart.sources.count).filter { t in
          chart.sources[t] > 0 && machine.active[chart.sources[t]] && !chart.descriptors[t].isEmpty
        }
        for i in enabled.indices.reversed() { enabled.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        let selected = machine.selectTransitions(for: .init(name: "e", value: "e"))
        #expect(machine.removeConflicting(enabled) == machine.removeConflictingPairwise(enabled), "seed \(seed)")
        #expect(selected == machine.removeConflictingPairwise(selected), "seed \(seed)")
        _ = try machine.send(random.next() % 4 == 0 ? "x" : "e")
      }
    }
  }

  @Test("16,000 regions with a self-transition on e: one event takes every transition, each region entered again")
  func manyRegions() throws {
    let regions = (0..<16_000).map { r in S.compound("r\(r)", children: [.atomic("s\(r)", transitions: [.on("e", to: "s\(r)")])]) }
    let chart = try Chart<String, String, NoContext, String>(name: "wide", states: [.parallel("p", regions: regions)])
    var machine = ChartMachine(chart, context: NoContext())
    machine.reportsTransitions = true
    _ = try machine.start()
    let step = try machine.send("e")
    #expect(step.transitions.count == 16_000)
    #expect(step.entered.count == 16_000)
    #expect(machine.configuration.count == 16_000)
  }
}
