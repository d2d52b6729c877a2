import Synchronization

/// Runs a machine whose effects are ``Command`` values — a ``TransitionTable`` or a ``Chart`` —
/// and performs them (through your effect handler, or its built-in timers), feeding their
/// results back as events.
///
/// Events are handled one at a time, to completion, in the order they arrive: an event sent
/// while a step runs (by another thread, a timer, or an effect) is queued, never handled
/// re-entrantly. A chart's step is a whole macrostep. Time comes from the injected clock; with a
/// ``ManualClock`` a test runs timers and sleeps by advancing it.
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
/// A chart runs in the same store (`try Store(chart, context: …)`: entering its initial
/// configuration may fail to settle). What belongs to a chart's state lives as long as that
/// state: an effect or timer with ``EffectScope/state`` started by a state's entry (or by a
/// transition into it) is cancelled when that state is exited, and only then — a `.every` on a
/// compound state keeps ticking while the chart moves between its children, and a targetless
/// transition that updates the context exits nothing. Delayed ``ChartAction/send(_:after:id:)``
/// content becomes a timer named by its id (a ``ChartAction/cancel(_:)`` stops it); one without
/// delay joins the mailbox after the macrostep. When the chart reaches a final child of its root
/// it halts: everything still running is cancelled and `send(_:)` returns
/// ``SendRejection/halted``.
///
/// Call ``finish()`` when done: it cancels every effect and timer and waits for them, so no
/// task outlives the store.
public final class Store<Definition: StoreDefinition>: Sendable
where Definition.Context: Sendable, Definition.Configuration: Sendable {
  /// The events the machine handles.
  public typealias Event = Definition.Event
  /// The machine's context.
  public typealias Context = Definition.Context
  /// The work the machine's commands hand to the handler.
  public typealias Work = Definition.Effect.Work
  /// The commands the machine emits.
  public typealias Effect = Command<Event, Work>
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
  public typealias Inspector = @Sendable (StoreReport<Event, StoreStep<Definition>>) -> Void

  @usableFromInline let runtime: StoreRuntimeBase<Event, Work, Context, Definition.Configuration, StoreStep<Definition>>

  @usableFromInline
  init(runtime: StoreRuntimeBase<Event, Work, Context, Definition.Configuration, StoreStep<Definition>>) { self.runtime = runtime }

  /// A store running `definition` from its start: a table in its initial state; a chart with
  /// its initial configuration entered now (its entry content runs). The effects the start asks
  /// for (a table's initial entry effects, the chart's entry content's) start with ``start()``.
  ///
  /// - Parameters:
  ///   - definition: The machine to run: a ``TransitionTable`` or a ``Chart`` whose effects are
  ///     ``Command``s.
  ///   - context: The context to start with.
  ///   - clock: Where timers and effects get their time; a ``ManualClock`` in tests.
  ///   - mailbox: ``MailboxPolicy/unbounded`` or a capacity for events sent from outside
  ///     (events from timers and effects are always queued, never dropped).
  ///   - handler: Performs ``Command/perform(_:id:scope:)`` work (see ``Handler`` for where
  ///     it runs).
  ///   - failure: Maps an error thrown by `handler` to an event.
  ///   - inspector: Sees every step, effect start, finish, cancellation and dropped event.
  /// - Throws: What the machine's start throws: nothing for a table (`Never`: call it without
  ///   `try`); ``ChartRunError`` when a chart's first macrostep does not settle.
  ///
  /// (Inlinable: the store is made specialised for your types where you make it.)
  @inlinable
  public convenience init(
    _ definition: Definition, context: Context,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil
  ) throws(Definition.Instance.Failure) {
    let options = _StoreOptions<Definition>(clock: clock, mailbox: mailbox, handler: handler, failure: failure, inspector: inspector)
    self.init(made: try Definition._makeStore(definition, context: context, options: options, _StoreOf<Definition>.self))
  }

  /// A store on the runtime its kind made (``StoreDefinition/_makeStore(_:context:options:_:)``).
  @inlinable
  convenience init(made: AnyObject) {
    self.init(runtime: unsafeDowncast(made, to: StoreRuntimeBase<Event, Work, Context, Definition.Configuration, StoreStep<Definition>>.self))
  }

  /// Where the machine is: a table's state, or a chart's active atomic states in document order.
  /// (Read specialised for your types where you call it; a table's state of at most eight plain
  /// bytes without taking the store's lock.)
  @inlinable
  public var configuration: Definition.Configuration { Definition._configuration(of: runtime, _StoreOf<Definition>.self) }
  /// The current context (read specialised for your types where you call it).
  @inlinable
  public var context: Context { Definition._context(of: runtime, _StoreOf<Definition>.self) }
  /// Steps taken so far.
  public var stepCount: Int { runtime.currentStepCount }
  /// Effects and timers running now.
  public var runningEffectCount: Int { runtime.currentRunningEffectCount }

  /// The configurations the machine reaches from now on (a table's states), starting with the
  /// current one. Each access is a new subscription; any number may iterate at once. Ends when
  /// the store finishes.
  public var states: AsyncStream<Definition.Configuration> { runtime.configurations }

  /// Every step from now on. Each access is a new subscription. Ends when the store finishes.
  public var steps: AsyncStream<StoreStep<Definition>> { runtime.stepReports }

  /// Performs what the start asked for (a table's initial entry effects, a chart's initial
  /// configuration's content), before or after the first events. Only the first call does:
  /// calling it again does nothing.
  public func start() { runtime.startStore() }

  /// Queues `event` and, unless another caller is already handling events, handles the queue
  /// on this thread until it is empty.
  ///
  /// (Inlinable: the store steps specialised for your types where you send.)
  @inlinable @inline(__always)
  @discardableResult
  public func send(_ event: Event) -> SendResult { Definition._send(event, to: runtime, _StoreOf<Definition>.self) }

  /// Like `send(_:)`, but when the bounded mailbox is full it suspends until there is room.
  @discardableResult
  public func send(waitingForRoom event: Event) async -> SendResult { await runtime.sendWaitingForRoom(event) }

  /// Waits until no event is queued and every running effect is done or asleep on the
  /// ``ManualClock``. With another clock, until every effect is done. Awaited from an effect's
  /// own work, it does not wait for that work.
  public func settle() async { await runtime.settleStore() }

  /// Stops the store. When it returns:
  /// - no event is accepted any more (`send(_:)` returns ``SendRejection/finished``);
  /// - no step is running and none will be reported: a step that was running when `finish()`
  ///   was called completes and is reported first (it starts no effect);
  /// - every event that was accepted but not yet handled has been reported to the inspector as
  ///   ``StoreReport/queuedEventDropped(_:)``, in the order it was sent: an accepted event is
  ///   either handled or reported dropped, never lost silently;
  /// - every effect and timer has been cancelled (each reported once) and all of their tasks
  ///   have ended, as has the work of every effect a step cancelled before (what it sent since
  ///   was reported ``StoreReport/lateEventDropped(_:effect:)``), and every effect that ended on
  ///   its own has been reported ended. Awaited from an effect's own work, it does not wait for
  ///   that work, which goes on after `finish()` returns, cancelled;
  /// - the observation sequences have finished.
  public func finish() async { await runtime.finishStore() }
}
