import StateMachine
import Testing

/// One line of a chart's transition table: in `configuration` with `context`, `event` leads to
/// `to`, with the context changed by `change` and exactly these effects (as their descriptions).
struct ChartCase<ID: Hashable & Sendable, Event: Sendable, Context: Equatable & Sendable>: Sendable, CustomTestStringConvertible {
  let label: String
  let configuration: [ID]
  let context: Context
  let event: Event
  let to: [ID]
  let effects: [String]
  let change: @Sendable (inout Context) -> Void

  init(
    _ label: String, _ configuration: [ID], _ context: Context, _ event: Event, to: [ID], effects: [String] = [],
    change: @escaping @Sendable (inout Context) -> Void = { _ in }
  ) {
    (self.label, self.configuration, self.context, self.event, self.to, self.effects, self.change) =
      (label, configuration, context, event, to, effects, change)
  }

  var testDescription: String { label }

  /// Steps `chart` from the case's configuration and checks it; returns the transitions taken.
  @discardableResult
  func check<Effect>(_ chart: Chart<ID, Event, Context, Effect>) throws -> [Int] {
    var machine = try ChartMachine(chart, restoring: ChartSnapshot(configuration: configuration, history: [:], context: context))
    machine.reportsTransitions = true
    let step = try machine.send(event)
    var expected = context
    change(&expected)
    #expect(machine.configuration == to, "\(label): configuration")
    #expect(machine.context == expected, "\(label): context")
    #expect(step.effects.map { "\($0)" } == effects, "\(label): effects")
    return step.transitions
  }
}

/// Whether `cases` take every declared transition of `chart`; names those they miss.
func expectEveryTransitionCovered<ID, Event, Context, Effect>(
  by cases: [ChartCase<ID, Event, Context>], of chart: Chart<ID, Event, Context, Effect>
) throws {
  var taken = Set<Int>()
  for c in cases { taken.formUnion(try c.check(chart)) }
  let missed = chart.declaredTransitions.filter { !taken.contains($0) }.map(chart.describeTransition)
  #expect(missed.isEmpty, "\(chart.name): transitions never taken: \(missed)")
}
