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

/// A string as a Swift literal, for event and work descriptions.
func quoted(_ text: String) -> String {
  "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
