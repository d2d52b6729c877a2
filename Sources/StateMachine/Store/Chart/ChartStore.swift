/// Runs a ``Chart`` whose effects are ``Command`` values, as ``Store`` runs a table: events one
/// at a time to completion (a whole macrostep each), effects performed through your handler,
/// timers on the injected clock, results fed back as events.
///
/// What belongs to a state lives as long as that state: an effect or timer with
/// ``EffectScope/state`` started by a state's entry (or by a transition into it) is cancelled
/// when that state is exited, and only then — a `.every` on a compound state keeps ticking
/// while the chart moves between its children, and a targetless transition that updates the
/// context exits nothing, so an upload keeps running while its progress is recorded.
///
/// ```swift
/// let chart = try Chart<Upload, UploadEvent, Progress, Command<UploadEvent, UploadWork>>(name: "upload", states: [
///     .atomic(.idle, transitions: [.on(.pick, to: .uploading)]),
///     .atomic(.uploading, transitions: [
///         .on(.progress, do: [.update { progress, event in if case .progress(let p)? = event { progress.percent = p } }]),
///         .on(.cancel, to: .idle),
///     ], onEntry: [.effect(.perform(.upload, id: "upload", scope: .state))]),
/// ])
/// let store = try ChartStore(chart, context: Progress(), clock: clock) { work, send in ... }
/// store.start()
/// store.send(.pick)
/// print(store.configuration)     // [uploading]
/// ```
///
/// Delayed ``ChartAction/send(_:after:id:)`` content becomes a timer named by its id (a
/// ``ChartAction/cancel(_:)`` stops it); one without delay joins the mailbox after the
/// macrostep. When the chart reaches a final child of its root it halts: everything still
/// running is cancelled and ``send(_:)`` returns ``SendRejection/halted``.
public final class ChartStore<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Work: Sendable>: Sendable {
  /// The commands a store's chart emits.
  public typealias Effect = Command<Event, Work>
  /// Performs one piece of work; sends results with `send`. A thrown error goes to `failure`.
  /// It starts on the thread that stepped the chart and runs there until its first
  /// suspension, as ``Store/Handler`` says.
  public typealias Handler = @Sendable (Work, Send<Event>) async throws -> Void
  /// Turns an effect's error into an event (`nil`: drop it), as for ``Store/Failure``.
  public typealias Failure = @Sendable (Work, any Error) -> Event?
  /// Sees every step, effect start and end, and dropped event.
  public typealias Inspector = @Sendable (ChartStoreEvent<ID, Event, Context, Work>) -> Void

  @usableFromInline let runtime: StoreRuntime<ChartEngine<ID, Event, Context, Work>>

  /// A store running `chart`: its initial configuration is entered now (its entry content
  /// runs); the effects that content asks for start with ``start()``.
  ///
  /// - Throws: ``ChartRunError`` when the chart's first macrostep does not settle.
  public init(
    _ chart: Chart<ID, Event, Context, Effect>,
    context: Context,
    clock: any Clock<Duration> = ContinuousClock(),
    mailbox: MailboxPolicy = .unbounded,
    handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil },
    inspector: Inspector? = nil
  ) throws(ChartRunError) {
    runtime = StoreRuntime(
      engine: try ChartEngine(chart, context: context), clock: clock, mailbox: mailbox, handler: handler, failure: failure,
      inspector: inspector)
  }

  init(runtime: StoreRuntime<ChartEngine<ID, Event, Context, Work>>) { self.runtime = runtime }

  /// The active atomic states, in document order.
  public var configuration: [ID] { runtime.core.withLock { $0.engine.configuration } }
  /// Every active state, compound and parallel ones included, in document order.
  public var activeStates: [ID] { runtime.core.withLock { $0.engine.activeStates } }
  /// Whether `state` (atomic, compound or parallel) is active.
  public func isActive(_ state: ID) -> Bool { runtime.core.withLock { $0.engine.isActive(state) } }
  /// The current context.
  public var context: Context { runtime.core.withLock { $0.engine.context } }
  /// The chart this store runs.
  public var chart: Chart<ID, Event, Context, Effect> { runtime.core.withLock { $0.engine.chart } }
  /// The chart reached a final child of its root: no event is accepted any more.
  public var isHalted: Bool { runtime.core.withLock { $0.engine.halted } }
  /// Where the chart is — configuration, history, context — to save and restore.
  public var snapshot: ChartSnapshot<ID, Context> { runtime.core.withLock { $0.engine.snapshot } }
  /// Steps taken so far.
  public var stepCount: Int { runtime.core.withLock { $0.steps } }
  /// Effects and timers running now.
  public var runningEffectCount: Int { runtime.core.withLock { $0.running.count } }

  /// The configurations the chart reaches from now on, starting with the current one. Each
  /// access is a new subscription. Ends when the store finishes.
  public var states: AsyncStream<[ID]> { runtime.states }
  /// Every step from now on. Each access is a new subscription. Ends when the store finishes.
  public var steps: AsyncStream<ChartStoreStep<ID, Event, Context, Work>> { runtime.steps }

  /// Performs what the initial configuration's content asked for. Call it once.
  public func start() { runtime.start() }

  /// Queues `event` and, unless another caller is already handling events, handles the queue
  /// on this thread until it is empty. See ``Store/send(_:)``.
  @discardableResult
  public func send(_ event: Event) -> SendResult { runtime.enqueue(event, force: false) }

  /// Like ``send(_:)``, but when the bounded mailbox is full it suspends until there is room.
  @discardableResult
  public func send(waitingForRoom event: Event) async -> SendResult { await runtime.send(waitingForRoom: event) }

  /// Waits until no event is queued and every running effect is done or asleep on the
  /// ``ManualClock``.
  public func settle() async { await runtime.settle() }

  /// Stops the store, with the guarantees of ``Store/finish()``.
  public func finish() async { await runtime.finish() }
}
