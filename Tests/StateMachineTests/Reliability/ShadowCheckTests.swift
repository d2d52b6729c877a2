import Foundation
@testable import StateMachine
import Testing

/// `check()` finds transitions an earlier one always takes first by indexing descriptors;
/// it must find what comparing every pair finds.
@Suite("check(): shadowed transitions, indexed")
struct ShadowCheckTests {
  @Test("on random states' transitions, the indexed search finds what the pairwise one finds")
  func agreesWithPairwise() throws {
    let pool = ["e", "e.x", "e.x.y", "f", "*", "g", "f.z"]
    let always = ChartGuard<String, String, NoContext>("maybe") { _, _ in true }
    for seed in UInt64(1)...200 {
      var random = SplitMix64(seed: seed)
      let transitions = (0..<Int(random.next() % 12)).map { _ -> ChartTransition<String, String, NoContext, String> in
        let count = Int(random.next() % 3)
        let events = (0..<count).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
        return ChartTransition(events: events, guard: random.next() % 3 == 0 ? always : nil, targets: ["a"])
      }
      let chart = try Chart<String, String, NoContext, String>(name: "shadow", states: [.atomic("a", transitions: transitions)])
      let s = try #require(chart.index["a"])
      let list = chart.stateTransitions[s]
      let pairwise = list.enumerated().compactMap { k, later in
        list[..<k].first { chart.guards[$0] == nil && chart.covers($0, later) }.map { (later, $0) }
      }
      let indexed = chart.shadowedTransitions(of: s)
      #expect(indexed.map(\.later) == pairwise.map(\.0), "seed \(seed)")
      #expect(indexed.map(\.earlier) == pairwise.map(\.1), "seed \(seed)")
    }
  }
}
