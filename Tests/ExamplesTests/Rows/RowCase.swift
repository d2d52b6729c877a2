import StateMachine
import Testing

/// One line of a machine's row table: in `state` with `context`, `event` leads to `to`, with
/// the context changed by `change` and exactly these effects (as their descriptions).
struct RowCase<State: Discriminated & Equatable, Event: Discriminated, Context: Equatable & Sendable>: Sendable,
  CustomTestStringConvertible
{
  let label: String
  let state: State
  let context: Context
  let event: Event
  let to: State
  let effects: [String]
  let change: @Sendable (inout Context) -> Void

  init(
    _ label: String, _ state: State, _ context: Context, _ event: Event, to: State, effects: [String] = [],
    change: @escaping @Sendable (inout Context) -> Void = { _ in }
  ) {
    (self.label, self.state, self.context, self.event, self.to, self.effects, self.change) =
      (label, state, context, event, to, effects, change)
  }

  var testDescription: String { label }

  /// Steps `table` and checks the case; returns the row that handled the event.
  @discardableResult
  func check<Effect>(_ table: TransitionTable<State, Event, Context, Effect>) -> Int? {
    let step = table.step(state, context, event)
    var expected = context
    change(&expected)
    #expect(step.state == to, "\(label): state")
    #expect(step.context == expected, "\(label): context")
    #expect(step.outcome.effects.map { "\($0)" } == effects, "\(label): effects")
    return step.row
  }
}

/// Whether `cases` exercise every row of `table`; names the rows they miss.
func expectEveryRowCovered<State, Event, Context, Effect>(
  by cases: [RowCase<State, Event, Context>], of table: TransitionTable<State, Event, Context, Effect>
) {
  let hit = Set(cases.compactMap { table.step($0.state, $0.context, $0.event).row })
  let missed = Set(table.rows.indices).subtracting(hit).sorted().map { $0 + 1 }
  #expect(missed.isEmpty, "\(table.name): rows never exercised (numbered from 1): \(missed)")
}
