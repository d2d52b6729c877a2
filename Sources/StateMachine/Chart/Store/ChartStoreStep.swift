/// One macrostep a ``ChartStore`` took: the event, the configuration before and after, what
/// the chart asked for, and the context.
public struct ChartStoreStep<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Work: Sendable>: Sendable {
  /// 1 for the store's first step, then 2, 3, ...
  public let sequence: Int
  /// The external event handled.
  public let event: Event
  /// The active atomic states before the step, in document order.
  public let from: [ID]
  /// The active atomic states after it.
  public let to: [ID]
  /// Whether transitions were taken, none matched, or the chart had halted.
  public let outcome: ChartStep<Event, Command<Event, Work>>.Outcome
  /// Effects, sends and cancels, in the order the chart's content ran.
  public let outputs: [ChartOutput<Event, Command<Event, Work>>]
  /// What each history state remembers after the step (see ``ChartMachine/historyValues``).
  public let history: [ID: [ID]]
  /// The chart halted in this step or before.
  public let isHalted: Bool
  /// The context after the step.
  public let context: Context
  /// When the step was taken, on the store's clock (see ``StoreStep/time``).
  public let time: Duration
  /// Set when the macrostep did not settle (eventless transitions or raised events looped):
  /// the chart stopped where it was and none of the step's outputs were performed.
  public let error: ChartRunError?

  /// The effects the step emitted.
  public var effects: [Command<Event, Work>] { outputs.compactMap { if case .effect(let e) = $0 { e } else { nil } } }
}

/// What a ``ChartStore`` reports to its inspector: as ``StoreEvent``, with chart steps.
public enum ChartStoreEvent<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Work: Sendable>: Sendable {
  /// A macrostep (also delivered on ``ChartStore/steps``).
  case step(ChartStoreStep<ID, Event, Context, Work>)
  /// An effect or timer started; it ends with exactly one of finished, cancelled or failed.
  case effectStarted(id: EffectID?, description: String)
  /// An effect's work returned, or a one-shot timer fired.
  case effectFinished(id: EffectID?, description: String)
  /// An effect or timer was cancelled: by id, by leaving the state it belongs to, by the
  /// chart halting, or by ``ChartStore/finish()``.
  case effectCancelled(id: EffectID?, description: String)
  /// An effect threw; `event` is what the error was mapped to.
  case effectFailed(description: String, error: String, event: Event?)
  /// An event from a cancelled or finished effect (or one sent after the chart halted) was dropped.
  case lateEventDropped(Event, effect: String)
  /// An event was not accepted.
  case eventRejected(Event, SendRejection)
  /// An event was accepted, but ``ChartStore/finish()`` was called before its turn.
  case queuedEventDropped(Event)

  init(_ report: StoreReport<Event, ChartStoreStep<ID, Event, Context, Work>>) {
    switch report {
    case .step(let step): self = .step(step)
    case .effectStarted(let id, let description): self = .effectStarted(id: id, description: description)
    case .effectFinished(let id, let description): self = .effectFinished(id: id, description: description)
    case .effectCancelled(let id, let description): self = .effectCancelled(id: id, description: description)
    case .effectFailed(let description, let error, let event): self = .effectFailed(description: description, error: error, event: event)
    case .lateEventDropped(let event, let effect): self = .lateEventDropped(event, effect: effect)
    case .eventRejected(let event, let reason): self = .eventRejected(event, reason)
    case .queuedEventDropped(let event): self = .queuedEventDropped(event)
    }
  }
}
