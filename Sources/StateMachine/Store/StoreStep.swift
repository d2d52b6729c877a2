/// One step a ``Store`` took: the event, the state before and after, the effects, the outcome.
public struct StoreStep<State: Sendable, Event: Sendable, Context, Effect: Sendable>: StoreStepProtocol {
  /// The state, as every store's step names where the machine is.
  public typealias Configuration = State

  /// 1 for the store's first step, then 2, 3, ...
  public let sequence: Int
  /// The event handled.
  public let event: Event
  /// The state before the step.
  public let from: State
  /// The state after the step.
  public let to: State
  /// What the step did; its effects are the ones the store performs.
  public let outcome: StepOutcome<State, Effect>
  /// The context after the step.
  public let context: Context
  /// When the step was taken: the time on the store's clock since the store was made (on a
  /// ``ManualClock``, exactly the virtual time), for timelines.
  ///
  /// ```swift
  /// Store(table, context: context, clock: clock, handler: handler) { report in
  ///     if case .step(let step) = report { print(step.time, step.event, "->", step.to) }
  /// }
  /// ```
  public let time: Duration

  /// The effects the step emitted.
  public var effects: Effects<Effect> { outcome.effects }

  /// Handled (transitioned or stayed), ignored, or rejected with the rejection's description.
  public var response: MachineResponse {
    switch outcome {
    case .transitioned, .stayed: .handled
    case .ignored: .ignored
    case .rejected(let reason): .rejected(reason.description)
    }
  }

  @inlinable
  init(
    sequence: Int, event: Event, from: State, to: State, outcome: StepOutcome<State, Effect>, context: Context, time: Duration
  ) {
    (self.sequence, self.event, self.from, self.to, self.outcome) = (sequence, event, from, to, outcome)
    (self.context, self.time) = (context, time)
  }
}

extension StoreStep: Sendable where Context: Sendable {}

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

  public var description: String {
    switch self {
    case .mailboxFull: "the mailbox is full"
    case .finished: "the store has finished"
    case .halted: "the chart has halted (it reached a final state)"
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
public enum MailboxPolicy: Hashable, Sendable {
  /// No limit (the default).
  case unbounded
  /// At most `capacity` queued events; when full, `send(_:)` returns
  /// ``SendResult/rejected(_:)`` with ``SendRejection/mailboxFull``, and `send(_:) async`
  /// suspends the sender until there is room.
  case bounded(capacity: Int)
}

/// What a store reports to its inspector, for logging and tests: its steps, and every effect's
/// start and end. A table's store reports ``StoreEvent``s, a chart's ``ChartStoreEvent``s.
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
}

/// What a ``Store`` reports to its inspector.
public typealias StoreEvent<State: Sendable, Event: Sendable, Context: Sendable, Work: Sendable> =
  StoreReport<Event, StoreStep<State, Event, Context, Command<Event, Work>>>
