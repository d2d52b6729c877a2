/// One macrostep a chart's ``Store`` took: the event, the configuration before and after, what
/// the chart asked for, and the context.
public struct ChartStoreStep<ID: Hashable & Sendable, Event: Sendable, Context, Work: Sendable>: StoreStepProtocol {
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
  public var effects: [Command<Event, Work>] { outputs.effects() }

  /// Handled when transitions were taken; ignored when none matched or the chart had halted (a
  /// chart never rejects an event).
  public var response: MachineResponse { outcome == .transitioned ? .handled : .ignored }

  @inlinable
  init(
    sequence: Int, event: Event, from: [ID], to: [ID], outcome: ChartStep<Event, Command<Event, Work>>.Outcome,
    outputs: [ChartOutput<Event, Command<Event, Work>>], history: [ID: [ID]], isHalted: Bool, context: Context, time: Duration,
    error: ChartRunError?
  ) {
    (self.sequence, self.event, self.from, self.to, self.outcome) = (sequence, event, from, to, outcome)
    (self.outputs, self.history, self.isHalted, self.context, self.time, self.error) = (outputs, history, isHalted, context, time, error)
  }
}

extension ChartStoreStep: Sendable where Context: Sendable {}

/// What a chart's ``Store`` reports to its inspector: as ``StoreEvent``, with chart steps.
public typealias ChartStoreEvent<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Work: Sendable> =
  StoreReport<Event, ChartStoreStep<ID, Event, Context, Work>>
