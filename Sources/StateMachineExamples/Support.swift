import Foundation
import StateMachine

/// Builds a shipped table; its validity is covered by the tests, so a failure is a bug in
/// this package, reported with the table's problems.
func build<State, Event, Context, Effect>(
  _ make: () throws -> TransitionTable<State, Event, Context, Effect>
) -> TransitionTable<State, Event, Context, Effect> {
  do {
    return try make()
  } catch {
    fatalError("a shipped table is invalid: \(error)")
  }
}

/// Builds a shipped chart, as ``build(_:)`` does a table.
func buildChart<ID, Event, Context, Effect>(
  _ make: () throws -> Chart<ID, Event, Context, Effect>
) -> Chart<ID, Event, Context, Effect> {
  do {
    return try make()
  } catch {
    fatalError("a shipped chart is invalid: \(error)")
  }
}

/// Starts a store over a shipped chart, whose first macrostep the tests prove settles.
func shippedChartStore<ID, Event, Context, Work>(
  _ make: () throws(ChartRunError) -> ChartStore<ID, Event, Context, Work>
) -> ChartStore<ID, Event, Context, Work> {
  do {
    return try make()
  } catch {
    fatalError("a shipped chart does not settle: \(error)")
  }
}

/// A string as a Swift literal, for event and work descriptions.
func quoted(_ text: String) -> String {
  "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
