import Foundation
@_spi(Reference) @testable import StateMachine
import Testing

/// The quick lane (``ChartMachine/quickStep(_:)``: a compiled move with nothing to run, taken
/// without the macrostep's machinery) against the algorithm.
@Suite("Quick steps do what the algorithm does")
struct QuickStepTests {
  /// Event names a chart's transitions mention (descriptors, with `.x` added to each).
  static func alphabet(_ chart: TextChart) -> [String] {
    var names = Set<String>()
    for descriptors in chart.descriptors { for d in descriptors where d != "*" { names.insert(d); names.insert(d + ".x") } }
    return names.sorted() + ["unknown"]
  }

  enum Input: UInt8, Hashable, Discriminated { case a, b, c, d, e }

  /// A chart of `width` × 3 states in two parallel regions, eventless hops, In() guards and
  /// effects, over events with ordinals: the quick lane and the compiled steps (charts of one
  /// word of states and larger ones) against the algorithm.
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

  @Test("events with ordinals, small and large charts: quick steps equal the algorithm", arguments: [3, 30])
  func ordinals(_ width: Int) throws {
    let chart = try Self.wideChart(width: width)
    var planned = ChartMachine(chart, context: NoContext())
    var plain = ChartMachine(chart, context: NoContext())
    plain.usesCompiledSteps = false
    var quick = 0
    _ = try planned.start()
    _ = try plain.start()
    var random = SplitMix64(seed: UInt64(width))
    for _ in 0..<5_000 {
      let event = Input(rawValue: UInt8(random.next() % 5))!
      var probe = planned  // counts the steps `send` takes by the quick lane, on a copy
      if probe.node >= 0, probe.quickStep(ordinal: Int(event.rawValue)) != nil { quick += 1 }
      let x = try planned.send(event)
      let y = try plain.send(event)
      #expect(x.outcome == y.outcome && x.outputs == y.outputs && x.microsteps == y.microsteps)
      #expect(planned.configuration == plain.configuration)
    }
    #expect(quick > 1_000, "most steps of this chart are quick")
  }
}
