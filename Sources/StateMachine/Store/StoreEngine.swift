/// What a store runs: a table's ``Machine`` or a chart's ``ChartMachine``, behind one
/// interface, so that the mailbox, the run-to-completion loop and the effect lifecycle exist
/// once for both.
///
/// The engine itself is what readers see, kept behind the store's lock; what steps is its
/// ``Stepper``, kept beside the lock and touched only by the caller that drains the mailbox.
/// A table's stepper is a second copy of the engine (a few words). A chart's is a stepping
/// machine the store leases from its chart while it drains and hands back when the mailbox is
/// empty, so an idle chart store holds its configuration and context, not a machine (but for one
/// store per chart, its keeper, which keeps its machine between drains).
///
/// `apply(_:on:)` runs outside the store's lock; `commit(_:stepped:to:_:)` runs under it and
/// says which state-scoped effects end and which commands start.
@usableFromInline
protocol StoreEngine: Sendable {
  /// The machine definition it runs.
  associatedtype Definition: StoreDefinition
  associatedtype Event: Sendable
  associatedtype Work: Sendable
  associatedtype Context: Sendable
  /// What the store's `states` sequence yields.
  associatedtype Observed: Sendable
  /// What the store reports for each step.
  associatedtype Step: Sendable
  /// What `apply(_:on:)` returns for `commit` and `report`.
  associatedtype Outcome
  /// What the drainer steps.
  associatedtype Stepper

  /// The current state, as observers see it.
  var observed: Observed { get }
  /// The current context.
  var context: Context { get }
  /// The current state as a word the store publishes in an atomic after each step, when it
  /// fits one (see ``StateWord``); `nil` otherwise.
  var publishedWord: UInt64? { get }
  /// The stepper of a new store.
  var stepper: Stepper { get }
  /// Whether the engine is halted before its store starts (a halted chart restored from a
  /// snapshot): the store refuses events from the moment it is made.
  var haltedBeforeStart: Bool { get }
  /// Under the store's lock, when a caller becomes the drainer: `stepper` is made ready to step
  /// from where this engine is.
  func lease(_ stepper: UnsafeMutablePointer<Stepper>)
  /// Under the store's lock, when the drainer stops: what `stepper` holds for stepping may go
  /// (a stepper that keeps its leases, see ``keepLeases(_:)``, may keep it until the next).
  func release(_ stepper: UnsafeMutablePointer<Stepper>)
  /// `stepper` lives as long as its store, across drains (a store's, not a drain's own): it
  /// may keep what it leased between drains, until ``retire(_:)``.
  static func keepLeases(_ stepper: UnsafeMutablePointer<Stepper>)
  /// When the store is freed: `stepper` gives back everything it holds.
  func retire(_ stepper: UnsafeMutablePointer<Stepper>)
  /// Whether ``retire(_:)`` does anything: a store freed with an engine whose steppers hold
  /// nothing (a table's) takes no lock to retire it.
  static var retiresSteppers: Bool { get }
  /// Under the store's lock, when the store starts: registers the commands the start asks for
  /// (a table's initial entry effects; a chart's first macrostep's).
  static func commitStart(to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork)
  /// Handles one event on the drainer's stepper.
  static func apply(_ event: Event, on stepper: UnsafeMutablePointer<Stepper>) -> Outcome
  /// Why the step of `outcome` was stopped (a chart's macrostep that did not settle), if it was.
  static func failure(of outcome: Outcome) -> (any Error)?
  /// Takes what a step changed from `stepped` (the drainer's stepper): only the parts a step
  /// changes (no reference counts on what it shares, such as the table or the chart).
  mutating func adopt(_ stepped: UnsafePointer<Stepper>)
  /// What observers see after the step `stepper` took.
  static func observed(_ stepper: UnsafePointer<Stepper>) -> Observed
  /// Whether the step changed what observers see.
  static func changesObserved(_ outcome: Outcome) -> Bool
  /// Whether committing `outcome` would do nothing but count the step while no state-scoped
  /// effect runs (no command to start or cancel, nothing to halt): the drainer may then step
  /// the next events it holds before committing (see ``StoreRuntime/drain(_:)``).
  static func isQuiet(_ outcome: Outcome) -> Bool
  /// Whether the one command of `outcome` is a message (``Command/message(_:)``; a chart's:
  /// its one output, a message to deliver now): then ``commit(_:stepped:to:_:)`` does not
  /// register it, and the store commits it with ``commitMessage(_:to:_:)`` in the same lock, to
  /// deliver it from there (most steps that message a child do nothing else). Asked of every
  /// step: it looks at the command's case alone. (A chart's message among other outputs is
  /// registered with them, in their order.)
  static func isMessaging(_ outcome: Outcome) -> Bool
  /// The message of a messaging step (``isMessaging(_:)``). (Taken by the drainer from the
  /// outcome it holds, before the lock: taken inside, the outcome was copied whole for it.)
  static func message(of outcome: Outcome) -> MachineMessage?
  /// Under the store's lock, after ``commit(_:stepped:to:_:)`` of a messaging step
  /// (``isMessaging(_:)``) whose message is `message`: the message to deliver now, or `nil`
  /// for a delayed one, which is registered as a timer is.
  static func commitMessage(_ message: consuming MachineMessage, to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork) -> MachineMessage?
  /// Under the store's lock: ends the effects of states left and registers the step's commands.
  /// `stepped` is the stepper that took the step, which `core.engine` has just adopted.
  static func commit(
    _ outcome: Outcome, stepped: UnsafePointer<Stepper>, to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork)
  /// Why a child restored as belonging to state `owner` (as its store numbers its states),
  /// with `scope`, could not run in this engine as it is now, or `nil` when it can: a halted
  /// chart runs no children, and a state-scoped child's state must be active, as leaving it
  /// is what ends the child.
  func refusal(ofChildOwnedBy owner: Int, scope: EffectScope) -> String?
  /// What the step of `outcome` answers its event (its report's ``StoreStep/response``),
  /// without building the report.
  static func response(of outcome: Outcome) -> MachineResponse
  /// Whether a step that nothing took (``response(of:)`` not handled) leaves the engine as it
  /// was and asks for nothing: true of a table (no row ran an update or made an effect), and of
  /// a chart unless a datamodel runs its content (``ChartScripting``: the datamodel keeps every
  /// event as `_event`).
  var unhandledStepsChangeNothing: Bool { get }
  /// Makes the engine's context its own when a copy of the engine is made to step apart from
  /// the original (a system's node, whose copies a checker keeps): a context held by a
  /// reference that goes on changing (``KeptByCopy``, a session) is replaced by a copy of it;
  /// any other is left as it is.
  mutating func detachContext()
  /// The event the machine gets when a message it sent reaches no machine (SCXML's
  /// `error.communication`, for a chart that invokes; `nil`: none, the message's failure is
  /// reported alone).
  var communicationError: Event? { get }
  /// Whether ``communicationError`` may be other than `nil` (read without a lock: a table's
  /// refused message takes no lock to find there is no such event).
  static var mayRaiseCommunicationErrors: Bool { get }
  /// The child machine the machine's own invocation `id` of the state at `owner` runs (a
  /// chart's `<invoke>`, see ``ChartInvocationCommand``), to restore it from a snapshot; `nil`:
  /// none.
  func invokedChild(_ id: String, owner: Int) -> ChildMachine<Event>?
  /// The step `stepper` took, to report (built only when someone listens).
  static func report(_ outcome: Outcome, of stepper: UnsafePointer<Stepper>, event: Event, sequence: Int, time: Duration) -> Step
}

/// A ``TransitionTable``'s machine in a ``Store``.
@usableFromInline
struct TableEngine<Definition: _TableStoreDefinition>: StoreEngine where Definition.Context: Sendable {
  @usableFromInline typealias State = Definition.Configuration
  @usableFromInline typealias Event = Definition.Event
  @usableFromInline typealias Context = Definition.Context
  @usableFromInline typealias Work = Definition.Effect.Work
  @usableFromInline typealias Effect = Command<Event, Work>
  @usableFromInline var machine: Machine<State, Event, Context, Effect>

  /// A step's outcome taken apart (see ``TableStepOutcome``).
  @usableFromInline typealias Outcome = TableStepOutcome<State, Effect>

  @usableFromInline
  init(machine: Machine<State, Event, Context, Effect>) { self.machine = machine }

  /// A table does not halt.
  @inlinable var haltedBeforeStart: Bool { false }

  @inlinable var observed: State { machine.state }

  @inlinable var context: Context { machine.context }

  @inlinable var publishedWord: UInt64? { StateWord<State>.fits ? StateWord.word(machine.state) : nil }

  /// A second copy: the drainer steps it, and the store's copy adopts each step.
  @inlinable var stepper: TableEngine { self }

  /// The stepper is always where the store's copy is (it adopts every step): nothing to do.
  @inlinable
  func lease(_ stepper: UnsafeMutablePointer<TableEngine>) {}

  @inlinable
  func release(_ stepper: UnsafeMutablePointer<TableEngine>) {}

  @inlinable
  static func keepLeases(_ stepper: UnsafeMutablePointer<TableEngine>) {}

  @inlinable
  func retire(_ stepper: UnsafeMutablePointer<TableEngine>) {}

  @inlinable
  static var retiresSteppers: Bool { false }

  @inlinable
  static func observed(_ stepper: UnsafePointer<TableEngine>) -> State { stepper.pointee.machine.state }

  @inlinable
  static func commitStart(to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork) {
    for command in core.engine.machine.start() { core.register(command, owner: Int(core.engine.machine.position), into: &work) }
  }

  @inlinable
  static func apply(_ event: Event, on stepper: UnsafeMutablePointer<TableEngine>) -> Outcome {
    let (from, fromIndex) = (stepper.pointee.machine.state, Int(stepper.pointee.machine.position))
    return Outcome(stepper.pointee.machine.send(event), from: from, fromIndex: fromIndex)
  }

  @inlinable
  static func changesObserved(_ outcome: Outcome) -> Bool {
    if case .transitioned = outcome.kind { true } else { false }
  }

  /// A table's step always ends.
  @inlinable
  static func failure(of outcome: Outcome) -> (any Error)? { nil }

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
  var unhandledStepsChangeNothing: Bool { true }

  /// (A table's context is a value: a table of ``KeptByCopy`` contexts is not made.)
  @inlinable
  mutating func detachContext() {}

  @inlinable
  var communicationError: Event? { nil }

  @inlinable
  static var mayRaiseCommunicationErrors: Bool { false }

  @usableFromInline
  func invokedChild(_ id: String, owner: Int) -> ChildMachine<Event>? { nil }

  /// A table's state-scoped effects belong to its current state (by its position).
  @usableFromInline
  func refusal(ofChildOwnedBy owner: Int, scope: EffectScope) -> String? {
    guard scope == .state, owner != Int(machine.position) else { return nil }
    return "it belongs to state \(owner), and the table is in \(machine.state) (state \(machine.position)): nothing would end it"
  }

  /// What `StepOutcome.response` answers for the step, read from the outcome's small kind:
  /// building the `StepOutcome` to ask it copied the step's effects, a tenth of a system's step.
  @inlinable
  static func response(of outcome: Outcome) -> MachineResponse {
    switch outcome.kind {
    case .transitioned, .stayed: .handled
    case .ignored: .ignored
    case .rejected(let reason): .rejected(reason.description)
    }
  }

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
    case .one(.message): break  // committed apart: see `isMessaging(_:)`
    case .one(let command): core.register(command, owner: Int(core.engine.machine.position), into: &work)
    case .many(let commands): for command in commands { core.register(command, owner: Int(core.engine.machine.position), into: &work) }
    }
  }

  @inlinable
  static func isMessaging(_ outcome: Outcome) -> Bool {
    if case .one(.message) = outcome.effects.storage { true } else { false }
  }

  @inlinable
  static func message(of outcome: Outcome) -> MachineMessage? { outcome.effects.message() }

  @inlinable
  static func commitMessage(_ message: consuming MachineMessage, to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork) -> MachineMessage? {
    guard message.isDelayed else { return message }
    core.register(.message(message), owner: Int(core.engine.machine.position), into: &work)
    return nil
  }

  @inlinable
  static func report(
    _ outcome: Outcome, of stepper: UnsafePointer<TableEngine>, event: Event, sequence: Int, time: Duration
  ) -> StoreStep<Definition> {
    let machine = stepper.pointee.machine
    return StoreStep(
      sequence: sequence, event: event, from: outcome.from, to: machine.state, context: machine.context, time: time,
      detail: outcome.step(to: machine.state))
  }
}

/// A step's outcome taken apart: what it did, and its effects. Committing a step matches
/// the small kind and reads the effects directly instead of matching the whole
/// ``StepOutcome`` of commands (a large multi-payload enum): a few nanoseconds less per
/// send, measured. The drain loop still destroys it through its value witness.
///
/// A type of its own over the state and effect types, not nested in a `TableEngine` generic
/// over the definition: nested there, its value witness looked up the definition's associated
/// types on every destroy (`swift_getAssociatedTypeWitness`, about 3 ns a send).
@usableFromInline
struct TableStepOutcome<State: Sendable, Effect: Sendable> {
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
