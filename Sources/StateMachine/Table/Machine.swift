/// One running instance of a ``TransitionTable``: its current state and context.
///
/// A machine is a small value; the table it runs is shared. `send(_:)` applies the pure step and
/// returns what happened, so all I/O stays with the caller.
///
/// ```swift
/// var player = Machine(cdPlayer)
/// let startEffects = player.start()        // entry effects of the initial state
/// switch player.send(.openClose) {
/// case .transitioned(_, _, let effects): perform(effects)
/// case .stayed(let effects): perform(effects)
/// case .ignored, .rejected: break
/// }
/// ```
public struct Machine<State: Discriminated, Event: Discriminated, Context, Effect: Sendable> {
  /// The table a machine runs.
  public typealias Table = TransitionTable<State, Event, Context, Effect>

  /// The table this machine runs.
  public let table: Table
  /// The current state's position in the table (see ``TransitionTable/position(of:)``): never
  /// negative, and in 32 bits as the table's rows keep their targets'. Kept before the state,
  /// so the state's bytes follow it: a machine of a one-byte state and no context is 13 bytes
  /// (16 with its padding), not 24 (a store, or a child machine, keeps two). Unsigned, so
  /// widening it costs the step nothing (a signed one's extension made the dense step 4% slower).
  @usableFromInline
  var position: UInt32
  /// The current state.
  @inlinable
  public var state: State { _state }
  @usableFromInline
  var _state: State
  /// The current extended state.
  public var context: Context

  /// A machine in the table's initial state.
  @inlinable
  public init(_ table: Table, context: Context) {
    self.table = table
    self._state = table.initial
    self.context = context
    self.position = UInt32(truncatingIfNeeded: table.position(of: table.initial.discriminant) ?? 0)
  }

  /// A machine in `state`, for example one restored from a log.
  ///
  /// - Throws: ``TableProblem/unknownInitialState(_:)`` wrapped in a ``TableValidationError``
  ///   when the table does not know the state's case.
  public init(_ table: Table, state: State, context: Context) throws(TableValidationError) {
    guard let position = table.position(of: state.discriminant) else {
      throw TableValidationError(table: table.name, problems: [.unknownInitialState(String(describing: state.discriminant))])
    }
    self.table = table
    self._state = state
    self.context = context
    self.position = UInt32(truncatingIfNeeded: position)
  }

  /// The entry effects of the current state: what a runtime performs when the machine starts.
  @inlinable
  public func start() -> [Effect] {
    table.entryEffects(of: state.discriminant)
  }

  /// Applies `event`: updates the state and context and returns what happened.
  @inlinable @inline(__always)
  @discardableResult
  public mutating func send(_ event: Event) -> StepOutcome<State, Effect> {
    var row = 0
    var at = Int(position)
    let outcome = table.apply(event, position: &at, state: &_state, context: &context, row: &row)
    position = UInt32(truncatingIfNeeded: at)
    return outcome
  }
}

extension Machine where Context == NoContext {
  /// A machine with no extended state, in the table's initial state.
  @inlinable
  public init(_ table: Table) {
    self.init(table, context: NoContext())
  }
}

extension Machine: Sendable where State: Sendable, Context: Sendable {}
