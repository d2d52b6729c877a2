/// What a store runs: a table's ``Machine`` or a chart's ``ChartMachine``, behind one
/// interface, so that the mailbox, the run-to-completion loop and the effect lifecycle exist
/// once for both.
///
/// `apply(_:)` runs outside the store's lock; `commit(_:to:_:)` runs under it and says which
/// state-scoped effects end and which commands start.
@usableFromInline
protocol StoreEngine: Sendable {
  associatedtype Event: Sendable
  associatedtype Work: Sendable
  /// What the store's `states` sequence yields.
  associatedtype Observed: Sendable
  /// What the store reports for each step.
  associatedtype Step: Sendable
  /// What `apply(_:)` returns for `commit` and `report`.
  associatedtype Outcome

  /// The current state, as observers see it.
  var observed: Observed { get }
  /// The current state as a word the store publishes in an atomic after each step, when it
  /// fits one (see ``StateWord``); `nil` otherwise.
  var publishedWord: UInt64? { get }
  /// Under the store's lock, when the store starts: registers the commands the start asks for
  /// (a table's initial entry effects; a chart's first macrostep's).
  static func commitStart(to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork)
  /// Handles one event.
  mutating func apply(_ event: Event) -> Outcome
  /// Takes what a step changed from `stepped` (the drainer's engine, which it stepped):
  /// all of it, or, when the engine knows, only the parts a step changes (no reference counts
  /// on what it shares, such as the table).
  mutating func adopt(_ stepped: UnsafePointer<Self>)
  /// Whether the step changed what observers see.
  static func changesObserved(_ outcome: Outcome) -> Bool
  /// Whether committing `outcome` would do nothing but count the step while no state-scoped
  /// effect runs (no command to start or cancel, nothing to halt): the drainer may then step
  /// the next events it holds before committing (see ``StoreRuntime/drain(_:)``).
  static func isQuiet(_ outcome: Outcome) -> Bool
  /// Under the store's lock: ends the effects of states left and registers the step's commands.
  /// `stepped` is the engine that took the step (the drainer's), which `core.engine` has just
  /// adopted.
  static func commit(
    _ outcome: Outcome, stepped: UnsafePointer<Self>, to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork)
  /// The step to report (built only when someone listens).
  func report(_ outcome: Outcome, event: Event, sequence: Int, time: Duration) -> Step
}

/// A ``TransitionTable``'s machine in a ``Store``.
@usableFromInline
struct TableEngine<State: Discriminated, Event: Discriminated, Context: Sendable, Work: Sendable>: StoreEngine {
  @usableFromInline typealias Effect = Command<Event, Work>
  @usableFromInline var machine: Machine<State, Event, Context, Effect>

  /// A step's outcome taken apart: what it did, and its effects. Committing a step matches
  /// the small kind and reads the effects directly instead of matching the whole
  /// ``StepOutcome`` of commands (a large multi-payload enum): a few nanoseconds less per
  /// send, measured. The drain loop still destroys it through its value witness.
  @usableFromInline
  struct Outcome {
    @usableFromInline
    enum Kind {
      case transitioned, stayed, ignored
      case rejected(Rejection)
    }
    @usableFromInline let kind: Kind
    @usableFromInline let effects: Effects<Effect>
    @usableFromInline let from: State
    @usableFromInline let fromIndex: Int

    @inlinable
    init(_ step: consuming StepOutcome<State, Effect>, from: State, fromIndex: Int) {
      (self.from, self.fromIndex) = (from, fromIndex)
      switch consume step {
      case .transitioned(_, _, let effects): (kind, self.effects) = (.transitioned, effects)
      case .stayed(let effects): (kind, self.effects) = (.stayed, effects)
      case .ignored: (kind, effects) = (.ignored, Effects())
      case .rejected(let reason): (kind, effects) = (.rejected(reason), Effects())
      }
    }

    /// The step outcome again, for a report; `to` is the state after the step.
    @inlinable
    func step(to: State) -> StepOutcome<State, Effect> {
      switch kind {
      case .transitioned: .transitioned(from: from, to: to, effects: effects)
      case .stayed: .stayed(effects: effects)
      case .ignored: .ignored
      case .rejected(let reason): .rejected(reason)
      }
    }
  }

  @usableFromInline
  init(machine: Machine<State, Event, Context, Effect>) { self.machine = machine }

  @inlinable var observed: State { machine.state }

  @inlinable var publishedWord: UInt64? { StateWord<State>.fits ? StateWord.word(machine.state) : nil }

  @usableFromInline
  static func commitStart(to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork) {
    for command in core.engine.machine.start() { core.register(command, owner: core.engine.machine.position, into: &work) }
  }

  @inlinable
  mutating func apply(_ event: Event) -> Outcome {
    let (from, fromIndex) = (machine.state, machine.position)
    return Outcome(machine.send(event), from: from, fromIndex: fromIndex)
  }

  @inlinable
  static func changesObserved(_ outcome: Outcome) -> Bool {
    if case .transitioned = outcome.kind { true } else { false }
  }

  /// A step changes the state, its position and the context; the table is the same object.
  @inlinable
  mutating func adopt(_ stepped: UnsafePointer<TableEngine>) {
    machine._state = stepped.pointee.machine._state
    machine.position = stepped.pointee.machine.position
    machine.context = stepped.pointee.machine.context
  }

  /// A step without commands: leaving a state cancels only state-scoped effects, and none run
  /// when the drainer asks.
  @inlinable
  static func isQuiet(_ outcome: Outcome) -> Bool { outcome.effects.isEmpty }

  @inlinable
  static func commit(
    _ outcome: Outcome, stepped: UnsafePointer<Self>, to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork
  ) {
    switch outcome.kind {
    case .transitioned:
      // State-scoped effects of the state left are cancelled before the new ones start.
      core.left(outcome.fromIndex, into: &work)
    case .stayed: break
    case .ignored, .rejected: return
    }
    // Matched by case, not iterated: iterating copied the whole outcome on every effectful step.
    switch outcome.effects.storage {
    case .none: break
    case .one(let command): core.register(command, owner: core.engine.machine.position, into: &work)
    case .many(let commands): for command in commands { core.register(command, owner: core.engine.machine.position, into: &work) }
    }
  }

  @inlinable
  func report(_ outcome: Outcome, event: Event, sequence: Int, time: Duration) -> StoreStep<State, Event, Context, Effect> {
    StoreStep(
      sequence: sequence, event: event, from: outcome.from, to: machine.state, outcome: outcome.step(to: machine.state), context: machine.context,
      time: time)
  }
}
