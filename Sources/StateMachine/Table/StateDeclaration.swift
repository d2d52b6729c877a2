/// What a table says about one state: its entry and exit effects, and whether it is final.
///
/// ```swift
/// states: [
///     .state(.counting, entry: [.startTicker], exit: [.stopTicker]),
///     .final(.done),
/// ]
/// ```
///
/// When a table declares any states, it declares all of them: a row that names a state
/// missing from the list is a ``TableProblem/unknownSourceState(row:state:)`` or
/// ``TableProblem/unknownTargetState(row:state:)``.
public struct StateDeclaration<State: Discriminated, Effect: Sendable>: Sendable {
  /// The state's case.
  package let state: State.Discriminant
  /// Effects emitted when a transition enters the state, and when a machine starts in it.
  package let entry: [Effect]
  /// Effects emitted when a transition leaves the state.
  package let exit: [Effect]
  /// A final state is an intended end: analysis does not report it as a dead end.
  package let isFinal: Bool

  /// A state with optional entry and exit effects.
  public static func state(_ state: State.Discriminant, entry: [Effect] = [], exit: [Effect] = []) -> Self {
    Self(state: state, entry: entry, exit: exit, isFinal: false)
  }

  /// A final state: the machine may stay there for good.
  public static func final(_ state: State.Discriminant, entry: [Effect] = [], exit: [Effect] = []) -> Self {
    Self(state: state, entry: entry, exit: exit, isFinal: true)
  }
}
