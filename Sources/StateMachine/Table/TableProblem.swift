/// One thing wrong with a table, found when it is built. Rows are numbered from 1 in
/// declaration order; states and events are named as renderings name them.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum TableProblem: Hashable, Sendable, CustomStringConvertible {
  /// The table has no initial state (only possible for tables read from documents).
  case noInitialState
  /// The initial (or restored) state is not among the declared states.
  case unknownInitialState(String)
  /// A state is declared more than once.
  case duplicateState(String)
  /// A row names a source state that is not declared.
  case unknownSourceState(row: Int, state: String)
  /// A row goes to a state that is not declared.
  case unknownTargetState(row: Int, state: String)
  /// A row names no source state.
  case noSourceState(row: Int)
  /// Unguarded rows for the same (state, event) at the same priority do different things:
  /// the first one always wins, which is rarely what the author meant.
  case nondeterministic(rows: [Int], state: String, event: String)
  /// A row can never fire in `state` because the earlier row `by` always wins there
  /// (it has no guard, or the same guard).
  case shadowed(row: Int, by: Int, state: String, event: String)

  public var description: String {
    switch self {
    case .noInitialState:
      "no initial state: mark one state as initial"
    case .unknownInitialState(let state):
      "initial state '\(state)' is not a declared state"
    case .duplicateState(let state):
      "state '\(state)' is declared more than once"
    case .unknownSourceState(let row, let state):
      "row \(row): source state '\(state)' is not a declared state"
    case .unknownTargetState(let row, let state):
      "row \(row): target state '\(state)' is not a declared state"
    case .noSourceState(let row):
      "row \(row): no source state"
    case .nondeterministic(let rows, let state, let event):
      "nondeterminism: rows \(rows.map(String.init).joined(separator: ", ")) all handle '\(event)' in '\(state)' without a guard and do different things"
    case .shadowed(let row, let by, let state, let event):
      "row \(row) never fires for '\(event)' in '\(state)': row \(by) always wins there"
    }
  }

  /// The rows (numbered from 1) the problem is about, for tools that map rows to source lines.
  public var rows: [Int] {
    switch self {
    case .noInitialState, .unknownInitialState, .duplicateState: []
    case .unknownSourceState(let row, _), .unknownTargetState(let row, _), .noSourceState(let row): [row]
    case .nondeterministic(let rows, _, _): rows
    case .shadowed(let row, let by, _, _): [row, by]
    }
  }
}

/// The error a table throws when it is built with problems; it lists every one of them.
public struct TableValidationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The table's name.
  public let table: String
  /// Every problem found, in a stable order.
  public let problems: [TableProblem]

  public var description: String {
    (["table '\(table)' has \(problems.count) problem\(problems.count == 1 ? "" : "s"):"]
      + problems.map { "  - \($0)" }).joined(separator: "\n")
  }
}
