import Synchronization

/// Runs a ``TransitionTable`` whose effects are ``Command`` values: it performs them (through
/// your effect handler, or its built-in timers) and feeds their results back as events.
///
/// Events are handled one at a time, to completion, in the order they arrive: an event sent
/// while a step runs (by another thread, a timer, or an effect) is queued, never handled
/// re-entrantly. Time comes from the injected clock; with a ``ManualClock`` a test runs timers
/// and sleeps by advancing it.
///
/// ```swift
/// let store = Store(table, context: LoaderContext(), clock: ContinuousClock()) { work, send in
///     switch work {
///     case .fetch(let page): send(.loaded(try await api.users(page: page)))
///     }
/// } failure: { _, error in .failed(error.localizedDescription) }
/// store.start()
/// store.send(.load)
/// for await state in store.states { print(state) }
/// ```
///
/// Call ``finish()`` when done: it cancels every effect and timer and waits for them, so no
/// task outlives the store.
public final class Store<State: Discriminated, Event: Discriminated, Context: Sendable, Work: Sendable>: Sendable {
  /// The commands a store's table emits.
  public typealias Effect = Command<Event, Work>
  /// The table a store runs.
  public typealias Table = TransitionTable<State, Event, Context, Effect>
  /// Performs one piece of work; sends results with `send`. A thrown error goes to `failure`.
  ///
  /// Each piece of work is a task of its own that starts right away, on the thread that
  /// stepped the machine, and runs there until its first suspension (`Task.immediate`; on
  /// Apple platforms before 26, a task on the global executor): work that never suspends has
  /// ended before `send` returns, and work that awaits I/O continues concurrently. Events it
  /// sends before suspending are queued and handled after the step that started it. Put long
  /// synchronous work behind an `await` (for example `await Task.yield()` first), or it holds
  /// up the sender and the events queued after it.
  public typealias Handler = @Sendable (Work, Send<Event>) async throws -> Void
  /// Turns an effect's error into an event for the machine (`nil`: drop it). Never sees a
  /// `CancellationError`, nor an error of an effect that was already cancelled: those are dropped.
  public typealias Failure = @Sendable (Work, any Error) -> Event?
  /// Sees every step, effect start and end, and dropped event.
  public typealias Inspector = @Sendable (StoreEvent<State, Event, Context, Work>) -> Void

  @usableFromInline let runtime: StoreRuntime<TableEngine<State, Event, Context, Work>>

  /// A store running `table` from its initial state.
  ///
  /// - Parameters:
  ///   - table: The table to run; the store starts in its initial state.
  ///   - context: The context to start with.
  ///   - clock: Where timers and effects get their time; a ``ManualClock`` in tests.
  ///   - mailbox: ``MailboxPolicy/unbounded`` or a capacity for events sent from outside
  ///     (events from timers and effects are always queued, never dropped).
  ///   - handler: Performs ``Command/perform(_:id:scope:)`` work (see ``Handler`` for where
  ///     it runs).
  ///   - failure: Maps an error thrown by `handler` to an event.
  ///   - inspector: Sees every step, effect start, finish, cancellation and dropped event.
  public init(
    _ table: Table,
    context: Context,
    clock: any Clock<Duration> = ContinuousClock(),
    mailbox: MailboxPolicy = .unbounded,
    handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil },
    inspector: Inspector? = nil
  ) {
    runtime = StoreRuntime(
      engine: TableEngine(machine: Machine(table, context: context)), clock: clock, mailbox: mailbox, handler: handler,
      failure: failure, inspector: inspector)
  }

  init(runtime: StoreRuntime<TableEngine<State, Event, Context, Work>>) { self.runtime = runtime }

  /// The current state. A state of at most eight plain bytes (an enum without payloads) is
  /// read without taking the store's lock.
  @inlinable
  public var state: State {
    if StateWord<State>.fits { return StateWord.state(runtime.published.load(ordering: .acquiring)) }
    return runtime.core.withLock { $0.engine.machine.state }
  }
  /// The current context.
  public var context: Context { runtime.core.withLock { $0.engine.machine.context } }
  /// The table this store runs.
  public var table: Table { runtime.core.withLock { $0.engine.machine.table } }
  /// Steps taken so far.
  public var stepCount: Int { runtime.core.withLock { $0.steps } }
  /// Effects and timers running now.
  public var runningEffectCount: Int { runtime.core.withLock { $0.running.count } }

  /// The states the machine enters from now on, starting with the current one. Each access
  /// is a new subscription; any number may iterate at once. Ends when the store finishes.
  public var states: AsyncStream<State> { runtime.states }

  /// Every step from now on. Each access is a new subscription. Ends when the store finishes.
  public var steps: AsyncStream<StoreStep<State, Event, Context, Effect>> { runtime.steps }

  /// Performs the current state's entry effects. Call it once, before or after the first events.
  public func start() { runtime.start() }

  /// Queues `event` and, unless another caller is already handling events, handles the queue
  /// on this thread until it is empty.
  @inlinable
  @discardableResult
  public func send(_ event: Event) -> SendResult {
    runtime.enqueue(event, force: false)
  }

  /// Like ``send(_:)``, but when the bounded mailbox is full it suspends until there is room.
  @discardableResult
  public func send(waitingForRoom event: Event) async -> SendResult { await runtime.send(waitingForRoom: event) }

  /// Waits until no event is queued and every running effect is done or asleep on the
  /// ``ManualClock``. With another clock, until every effect is done.
  public func settle() async { await runtime.settle() }

  /// Stops the store. When it returns:
  /// - no event is accepted any more (``send(_:)`` returns ``SendRejection/finished``);
  /// - no step is running and none will be reported: a step that was running when `finish()`
  ///   was called completes and is reported first (it starts no effect);
  /// - every event that was accepted but not yet handled has been reported to the inspector as
  ///   ``StoreReport/queuedEventDropped(_:)``, in the order it was sent: an accepted event is
  ///   either handled or reported dropped, never lost silently;
  /// - every effect and timer has been cancelled (each reported once) and all of their tasks
  ///   have ended;
  /// - the observation sequences have finished.
  public func finish() async { await runtime.finish() }
}
