/// A state machine declared as data: states, events, and rows from (state, event) to a target
/// with guards and effects. The table is an immutable `Sendable` value; any number of
/// ``Machine`` instances share it.
///
/// ```swift
/// let light = try TransitionTable<Light, LightEvent, NoContext, Never>(
///     name: "light",
///     initial: .red,
///     rows: [
///         .transition(from: .red, on: .next, to: .green),
///         .transition(from: .green, on: .next, to: .amber),
///         .transition(from: .amber, on: .next, to: .red),
///     ]
/// )
/// var machine = Machine(light)
/// machine.send(.next)   // .transitioned(from: .red, to: .green, effects: [])
/// ```
///
/// ## Priority
/// When several rows match a (state, event) pair, rows that name the state come before
/// wildcard rows (``Row/fromAny(on:to:effects:)``), and among those the first declared row whose
/// guard holds wins (SCXML's document order).
///
/// ## Validation
/// Building a table checks it and throws a ``TableValidationError`` that lists every
/// ``TableProblem``: unknown states, rows that can never fire because an earlier row
/// always wins (shadowed), and unguarded rows that conflict (nondeterminism).
public struct TransitionTable<State: Discriminated, Event: Discriminated, Context, Effect: Sendable>: Sendable {
  /// A row of this table.
  public typealias Row = StateMachine.Row<State, Event, Context, Effect>
  /// A state declaration of this table: its role and its entry and exit effects.
  public typealias StateDeclaration = StateMachine.StateDeclaration<State, Effect>

  /// How strictly ``init(name:initial:states:rows:policy:validation:)`` treats problems.
  public enum Validation: Sendable {
    /// Throw a ``TableValidationError`` when the table has any problem (the default).
    case strict
    /// Build the table anyway and list the problems in ``problems``; for linters and editors.
    /// The step still follows the documented priority.
    case lenient
  }

  @usableFromInline
  let storage: Storage

  /// The machine's name, used in renderings and logs.
  public var name: String { storage.name }
  /// The state a new machine starts in.
  public var initial: State { storage.initial }
  /// The rows, in declaration order.
  package var rows: [Row] { storage.rows }
  /// The declared states (empty when the table declares none and takes its states from its rows).
  package var declaredStates: [StateDeclaration] { storage.declaredStates }
  /// What a step does with an event no row handles.
  @inlinable
  public var policy: InvalidTransitionPolicy { storage.policy }
  /// The problems found when the table was built (always empty for a ``Validation/strict`` table).
  public var problems: [TableProblem] { storage.problems }

  /// Builds and checks a table.
  ///
  /// - Parameters:
  ///   - name: A name for renderings and logs.
  ///   - initial: The state new machines start in.
  ///   - states: Entry and exit effects and final states. When not empty, every state the
  ///     rows name must be declared here.
  ///   - rows: The transitions, in priority order (see the type's documentation).
  ///   - policy: What a step does with an event that no row handles.
  ///   - validation: ``Validation/strict`` throws on any problem.
  /// - Throws: ``TableValidationError`` listing every problem found.
  public init(
    name: String = "machine",
    initial: State,
    states: [StateDeclaration] = [],
    rows: [Row],
    policy: InvalidTransitionPolicy = .reject,
    validation: Validation = .strict
  ) throws(TableValidationError) {
    try self.init(
      name: name, initial: initial, states: states, rows: rows, policy: policy, validation: validation,
      missingInitial: false)
  }

  init(
    name: String,
    initial: State,
    states: [StateDeclaration],
    rows: [Row],
    policy: InvalidTransitionPolicy,
    validation: Validation,
    missingInitial: Bool
  ) throws(TableValidationError) {
    self.init(lenient: name, initial: initial, states: states, rows: rows, policy: policy, missingInitial: missingInitial)
    if validation == .strict, !problems.isEmpty {
      throw TableValidationError(table: name, problems: problems)
    }
  }

  /// A table built whatever its problems, which it lists. `missingInitial`: the document had no
  /// initial state and `initial` only stands in for one, so analysis can still run; the
  /// problem is reported.
  init(
    lenient name: String, initial: State, states: [StateDeclaration], rows: [Row], policy: InvalidTransitionPolicy,
    missingInitial: Bool
  ) {
    let layout = StateLayout<State, Effect>(initial: initial.discriminant, declared: states, rows: rows)
    var problems = Self.problems(initial: missingInitial ? nil : initial, layout: layout, rows: rows)
    if missingInitial { problems.insert(.noInitialState, at: 0) }
    self.storage = Storage(
      name: name, initial: initial, declaredStates: states, rows: rows, policy: policy, problems: problems,
      layout: layout)
  }
}

extension TransitionTable {
  /// Every state case the table knows, in a stable order: the discriminant's `allCases`
  /// order when it is `CaseIterable`, otherwise the order of first mention.
  @usableFromInline package var stateCases: [State.Discriminant] { storage.layout.cases }

  /// Every event case: the discriminant's `allCases` when it is `CaseIterable`, otherwise the
  /// events the rows name, in order of first mention.
  @usableFromInline package var eventCases: [Event.Discriminant] { storage.eventCases }

  /// Whether ``stateCases`` and ``eventCases`` are complete because the discriminants are `CaseIterable`.
  var isEnumerable: (states: Bool, events: Bool) {
    (storage.layout.isEnumerable, storage.eventsAreEnumerable)
  }

  /// Whether `state` is declared final.
  package func isFinal(_ state: State.Discriminant) -> Bool {
    storage.layout.index[state].map { storage.layout.isFinal[$0] } ?? false
  }

  /// The effects a machine emits when it starts in `state` (its entry effects).
  @inlinable
  func entryEffects(of state: State.Discriminant) -> [Effect] {
    storage.layout.index[state].map { storage.layout.entry[$0] } ?? []
  }
}
