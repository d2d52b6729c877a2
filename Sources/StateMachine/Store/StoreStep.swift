/// One step a ``Store`` took, whatever the machine: the event, where the machine was before and
/// after (a table's state, a chart's active atomic states), the context after, when, and the
/// effects. A table's step adds its ``StepOutcome`` (`outcome`); a chart's its outcome,
/// outputs, history, halting and error (see the extensions for each kind).
public struct StoreStep<Definition: StoreDefinition> {
  /// The commands a step emits.
  public typealias Effect = Command<Definition.Event, Definition.Effect.Work>

  /// 1 for the store's first step, then 2, 3, ...
  public let sequence: Int
  /// The event handled.
  public let event: Definition.Event
  /// Where the machine was before the step: a table's state, a chart's active atomic states.
  public let from: Definition.Configuration
  /// Where the step left it.
  public let to: Definition.Configuration
  /// The context after the step.
  public let context: Definition.Context
  /// When the step was taken: the time on the store's clock since the store was made (on a
  /// ``ManualClock``, exactly the virtual time), for timelines.
  ///
  /// ```swift
  /// Store(table, context: context, clock: clock, handler: handler) { report in
  ///     if case .step(let step) = report { print(step.time, step.event, "->", step.to) }
  /// }
  /// ```
  public let time: Duration
  /// What only this kind of step says (see ``StoreDefinition/_StepDetail``).
  @usableFromInline let detail: Definition._StepDetail

  /// The effects the step emitted, in order.
  public var effects: [Effect] { Definition._effects(of: detail) }
  /// Whether the machine handled the event, ignored it, or rejected it (and why).
  /// (Inlinable: a synchronous system reads it at every step, and unspecialised it looked up
  /// the step's generic types each time.)
  @inlinable public var response: MachineResponse { Definition._response(of: detail) }

  @inlinable
  init(
    sequence: Int, event: Definition.Event, from: Definition.Configuration, to: Definition.Configuration,
    context: Definition.Context, time: Duration, detail: Definition._StepDetail
  ) {
    (self.sequence, self.event, self.from, self.to) = (sequence, event, from, to)
    (self.context, self.time, self.detail) = (context, time, detail)
  }
}

extension StoreStep: Sendable where Definition.Context: Sendable, Definition.Configuration: Sendable {}

extension StoreStep where Definition: _TableStoreDefinition {
  /// What the step did; its effects are the ones the store performs.
  public var outcome: StepOutcome<Definition.Configuration, Effect> { detail }
}

extension StoreStep where Definition: _ChartStoreDefinition {
  /// Whether transitions were taken, none matched, or the chart had halted.
  public var outcome: ChartStep<Definition.Event, Effect>.Outcome { detail.outcome }
  /// Effects, sends and cancels, in the order the chart's content ran.
  public var outputs: [ChartOutput<Definition.Event, Effect>] { detail.outputs }
  /// What each history state remembers after the step (see `ChartMachine.historyValues`).
  public var history: [Definition.ID: [Definition.ID]] { detail.history }
  /// The chart halted in this step or before.
  public var isHalted: Bool { detail.isHalted }
  /// Set when the macrostep did not settle (eventless transitions or raised events looped):
  /// the chart stopped where it was and none of the step's outputs were performed.
  public var error: ChartRunError? { detail.error }
}

/// What a chart's step says beyond every store's step (see ``StoreStep``).
public struct _ChartStepDetail<ID: Hashable & Sendable, Event: Sendable, Work: Sendable>: Sendable {
  @usableFromInline let outcome: ChartStep<Event, Command<Event, Work>>.Outcome
  @usableFromInline let outputs: [ChartOutput<Event, Command<Event, Work>>]
  @usableFromInline let history: [ID: [ID]]
  @usableFromInline let isHalted: Bool
  @usableFromInline let error: ChartRunError?

  @inlinable
  init(
    outcome: ChartStep<Event, Command<Event, Work>>.Outcome, outputs: [ChartOutput<Event, Command<Event, Work>>],
    history: [ID: [ID]], isHalted: Bool, error: ChartRunError?
  ) {
    (self.outcome, self.outputs, self.history, self.isHalted, self.error) = (outcome, outputs, history, isHalted, error)
  }
}

/// One macrostep a chart's ``Store`` took.
@available(*, deprecated, message: "Use StoreStep<Chart<ID, Event, Context, Command<Event, Work>>>: one step type for every kind of machine")
public typealias ChartStoreStep<ID: Hashable & Sendable, Event: Sendable, Context, Work: Sendable> =
  StoreStep<Chart<ID, Event, Context, Command<Event, Work>>>

/// Why a store did not accept an event.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum SendRejection: String, Hashable, Sendable, CustomStringConvertible {
  /// The bounded mailbox was full and its overflow policy rejects.
  case mailboxFull
  /// ``Store/finish()`` was called.
  case finished
  /// The chart reached a final state of its root (a chart's ``Store``): it takes no more events.
  case halted
  /// A message's target is not a running child machine of the store (`Store.send(_:to:)`).
  case unknownTarget
  /// A message is not one of its target machine's events.
  case wrongType
  /// A message (or a child's start) that would go on a loop between machines: the store's
  /// last 10,000 steps were all of events its own children said while it messaged or started
  /// them, with no event from outside (see ``Command/message(_:)``).
  case loop

  public var description: String {
    switch self {
    case .mailboxFull: "the mailbox is full"
    case .finished: "the store has finished"
    case .halted: "the chart has halted (it reached a final state)"
    case .unknownTarget: "no running child machine has that id"
    case .wrongType: "the message is not one of the child machine's events"
    case .loop: "a loop between machines: 10000 steps in a row of events the children said when messaged or started"
    }
  }
}

/// What `Store.send(_:)` did with an event.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum SendResult: Hashable, Sendable {
  /// Queued; the store handles it in order. If ``Store/finish()`` is called before its turn,
  /// it is not handled, and the inspector is told: ``StoreReport/queuedEventDropped(_:)``.
  case accepted
  /// Not queued, for this reason; the machine never sees it.
  case rejected(SendRejection)
}

/// How many events a store queues.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum MailboxPolicy: Hashable, Sendable {
  /// No limit (the default).
  case unbounded
  /// At most `capacity` queued events; when full, `send(_:)` returns
  /// ``SendResult/rejected(_:)`` with ``SendRejection/mailboxFull``, and `send(_:) async`
  /// suspends the sender until there is room.
  case bounded(capacity: Int)
}

/// What a store reports to its inspector, for logging and tests: its steps, and every effect's
/// start and end: a `Store<Definition>`'s `Inspector` takes `StoreReport<Event,
/// StoreStep<Definition>>`, for a table (``StoreEvent``) as for a chart.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum StoreReport<Event: Sendable, Step: Sendable>: Sendable {
  /// A step (also delivered on the store's `steps`).
  case step(Step)
  /// An effect or timer started. Each ends with exactly one of ``effectFinished(id:description:)``,
  /// ``effectCancelled(id:description:)`` or ``effectFailed(description:error:event:)``.
  case effectStarted(id: EffectID?, description: String)
  /// An effect's work returned, or a one-shot timer fired (its event is queued).
  case effectFinished(id: EffectID?, description: String)
  /// An effect or timer was cancelled: by ID, by leaving its state, or by the store finishing.
  /// When the step that left the state was caused by the effect's own last event, the effect
  /// is reported when its work ends instead: finished if it returned without sending more.
  case effectCancelled(id: EffectID?, description: String)
  /// An effect threw; `event` is what the error was mapped to (`nil`: none).
  case effectFailed(description: String, error: String, event: Event?)
  /// An event from a cancelled or finished effect (or one sent after a chart halted) arrived
  /// and was dropped.
  case lateEventDropped(Event, effect: String)
  /// An event was not accepted.
  case eventRejected(Event, SendRejection)
  /// An event was accepted, but the store finished before its turn: never handled.
  case queuedEventDropped(Event)
  /// A child machine's step (``Command/invoke(_:id:scope:)``), or a step of a child's child:
  /// the store's inspector sees every machine of its system.
  case childStep(ChildStep)
}

/// What a table's ``Store`` reports to its inspector.
public typealias StoreEvent<State: Discriminated, Event: Discriminated, Context: Sendable, Work: Sendable> =
  StoreReport<Event, StoreStep<TransitionTable<State, Event, Context, Command<Event, Work>>>>

/// What a chart's ``Store`` reports to its inspector: as ``StoreEvent``, with chart steps.
@available(
  *, deprecated,
  message: "Use StoreReport<Event, StoreStep<Chart<ID, Event, Context, Command<Event, Work>>>> (Store's Inspector): one report for every kind of machine"
)
public typealias ChartStoreEvent<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Work: Sendable> =
  StoreReport<Event, StoreStep<Chart<ID, Event, Context, Command<Event, Work>>>>
