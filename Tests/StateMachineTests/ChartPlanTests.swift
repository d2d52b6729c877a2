import Foundation
@testable import StateMachine
import Testing

@Suite("Chart plans: a replayed macrostep does what running it does")
struct ChartPlanTests {
  /// Event names a chart's transitions mention (descriptors, with `.x` added to each).
  static func alphabet(_ chart: TextChart) -> [String] {
    var names = Set<String>()
    for descriptors in chart.descriptors { for d in descriptors where d != "*" { names.insert(d); names.insert(d + ".x") } }
    return names.sorted() + ["unknown"]
  }

  @Test("on every conformance chart, 300 random events give the same steps with and without plans",
        .enabled(if: SCXMLTests.scionFile("index.tsv") != nil, "needs ../shared/scion"))
  func differential() throws {
    let folder = try #require(SCXMLTests.scionFile(""))
    let files = (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".scxml") }.sorted()
    var replayed = 0
    for (n, file) in files.enumerated() {
      let chart = try SCXMLDocument.load(contentsOf: folder + "/" + file)
      let events = Self.alphabet(chart)
      var planned = TextMachine(chart, context: NoContext())
      var plain = TextMachine(chart, context: NoContext())
      plain.plans = nil
      #expect(planned.plans != nil, "\(file): In() guards only, so plannable")
      _ = try planned.start()
      _ = try plain.start()
      var random = SplitMix64(seed: UInt64(n))
      for _ in 0..<300 {
        let event = events[Int(random.next() % UInt64(events.count))]
        let before = planned.plans?.plans.count ?? 0
        let a = Result { try planned.send(event) }
        let b = Result { try plain.send(event) }
        if (planned.plans?.plans.count ?? 0) == before { replayed += 1 }
        switch (a, b) {
        case (.success(let x), .success(let y)):
          #expect(x.outcome == y.outcome && x.outputs == y.outputs, "\(file) on \(event)")
        default:
          #expect(String(describing: a) == String(describing: b), "\(file) on \(event)")
        }
        #expect(planned.configuration == plain.configuration, "\(file) on \(event)")
        #expect(planned.historyValues == plain.historyValues, "\(file) on \(event)")
        #expect(planned.isHalted == plain.isHalted)
      }
    }
    #expect(replayed > 10_000, "most steps were replays")
  }

  enum Input: UInt8, Hashable, Discriminated { case a, b, c, d, e }

  /// A chart of `width` × 3 states in two parallel regions, eventless hops, In() guards and
  /// effects, over events with ordinals: the fast paths (ordinal lookup, one-word moves, and
  /// charts too large for one word) against the algorithm.
  static func wideChart(width: Int) throws -> Chart<String, Input, NoContext, String> {
    func region(_ r: String, _ events: (Input, Input)) -> ChartState<String, Input, NoContext, String> {
      .compound(r, children: (0..<width).map { i in
        .compound("\(r)\(i)", children: [
          .atomic("\(r)\(i).x", transitions: [.on(events.0, to: "\(r)\((i + 1) % width).y")]),
          .atomic("\(r)\(i).y", transitions: [.always(to: "\(r)\(i).z")]),
          .atomic("\(r)\(i).z", transitions: [
            .on(events.1, when: .inState("q0.x"), to: "\(r)\(i).x", actions: [.effect("back \(r)\(i)")]),
            .on(events.1, to: "\(r)\((i + 2) % width).x"),
          ]),
        ])
      })
    }
    return try Chart(name: "wide", states: [
      .parallel("p", regions: [region("q", (.a, .b)), region("r", (.c, .d))], transitions: [.on(.e, to: "p")])
    ])
  }

  @Test("events with ordinals, small and large charts: replays equal the algorithm", arguments: [3, 30])
  func ordinals(_ width: Int) throws {
    let chart = try Self.wideChart(width: width)
    var planned = ChartMachine(chart, context: NoContext())
    var plain = ChartMachine(chart, context: NoContext())
    plain.plans = nil
    _ = try planned.start()
    _ = try plain.start()
    var random = SplitMix64(seed: UInt64(width))
    for _ in 0..<5_000 {
      let event = Input(rawValue: UInt8(random.next() % 5))!
      let x = try planned.send(event)
      let y = try plain.send(event)
      #expect(x.outcome == y.outcome && x.outputs == y.outputs && x.microsteps == y.microsteps)
      #expect(planned.configuration == plain.configuration)
    }
    #expect((planned.plans?.plans.count ?? 0) > 10)
  }

  @Test("a chart with context guards is never planned")
  func contextGuardsAreNotPlanned() throws {
    let chart = try Chart<String, String, Int, String>(name: "c", states: [
      .atomic("a", transitions: [.init(events: ["go"], guard: .init("positive") { n, _ in n > 0 }, targets: ["b"])]),
      .atomic("b"),
    ])
    #expect(ChartMachine(chart, context: 1).plans == nil)
  }
}
