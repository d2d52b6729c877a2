import Synchronization

/// What a ``Store`` runs, for any kind of machine: the mailbox, the run-to-completion loop, the
/// effect lifecycle (start, finish, fail, cancel, timers) and the settle and finish rules, over
/// any ``StoreEngine``. The store is a thin front that reaches it through its base class, or
/// directly (specialised) in the members for one kind.
///
/// (Sendable through its base class, unchecked there: its state is behind the core's lock and
/// in atomics, and its other properties are immutable and Sendable.)
@usableFromInline
final class StoreRuntime<Engine: StoreEngine>: StoreRuntimeBase<Engine.Event, Engine.Work, Engine.Context, Engine.Observed, Engine.Step>, @unchecked Sendable {
  @usableFromInline typealias Event = Engine.Event
  @usableFromInline typealias Work = Engine.Work
  @usableFromInline typealias Effect = Command<Event, Work>
  @usableFromInline typealias Handler = @Sendable (Work, Send<Event>) async throws -> Void
  @usableFromInline typealias Failure = @Sendable (Work, any Error) -> Event?
  @usableFromInline typealias Inspector = @Sendable (StoreReport<Event, Engine.Step>) -> Void

  /// The core behind its lock and, beside it, the drainer's stepper, in one allocation this
  /// runtime owns (freed in `deinit`). The stepper (`core.side`) is what steps: it is touched
  /// only by the caller that set the core's `draining` under the lock, until it clears it under
  /// the lock (and by `init` and `deinit`, and under the lock by the lease and release that go
  /// with setting and clearing `draining`), so the mutex orders every access. The core's engine
  /// is what readers see, updated when a step is kept; a send copies no engine out of the lock.
  @usableFromInline let core: LockedRegion<StoreCore<Engine>, Engine.Stepper>
  @usableFromInline let handler: Handler
  @usableFromInline let failure: Failure
  @usableFromInline let inspector: Inspector?
  /// The injected clock and the instant the store was made on it.
  @usableFromInline let clock: any StoreClock
  /// The `states` and `steps` subscriptions (``subscriptions``), made on the first
  /// subscription: a store nobody observes does not carry them (an idle store's size is most of
  /// what it costs). (Kept as any object: the unspecialised `deinit` then destroys a reference
  /// of a type it knows, where one to `Subscriptions` looked up two generic types each time,
  /// about 4% of a child's start and stop.)
  @usableFromInline let madeSubscriptions = OnceReference<AnyObject>()

  /// The subscriptions, once made.
  @inlinable var subscriptions: Subscriptions? { madeSubscriptions.load().map { unsafeDowncast($0, to: Subscriptions.self) } }
  /// Set once `subscriptions` is made: the hot path reads this flag, not the reference.
  @usableFromInline let subscribed = Atomic<Bool>(false)
  /// Set when ``finish()`` begins: a drainer stepping a batch of queued events stops before the
  /// next one (it takes no lock per event to see the core's mark).
  @usableFromInline let finishing = Atomic<Bool>(false)
  /// Set while the drainer delivers a message or starts a child: what a child says or ends
  /// with meanwhile is an event the store fed itself (see ``StoreCore/beginFeeding(limit:)``).
  @usableFromInline let feeding = Atomic<Bool>(false)
  /// A child's store: its children's ends go to its inspector, its run's watcher (see
  /// ``_StoreOptions/forwardsChildEnds``). (Declared beside the flags above, it takes a byte
  /// of their word's padding: an idle child's size is most of what it costs.)
  @usableFromInline let forwardsChildEnds: Bool
  /// An invoked chart's store: its messages to `#_parent` went to its parent as its steps were
  /// reported (see ``ChildKind/parentMessages``), and are delivered so. (Another byte of the
  /// flags' padding.)
  @usableFromInline let parentTakesMessages: Bool
  /// Set when an event was raised ahead of the queue while the store was draining (see
  /// ``raise(_:)``): the drainer puts the events it took before it back behind it. (Another
  /// byte of the flags' padding.)
  @usableFromInline let raisedAhead = Atomic<Bool>(false)
  /// The engine's ``StoreEngine/publishedWord``, stored under the lock whenever a step is
  /// kept, so a reader of a small state needs no lock.
  @usableFromInline let published: Atomic<UInt64>

  /// What ``attachRecorder(path:_:)`` keeps: records one step.
  @usableFromInline
  final class StepRecorder: Sendable {
    @usableFromInline let record: @Sendable (Engine.Step) -> Void
    /// Records a child's step (a system's log), when the recorder keeps them.
    @usableFromInline let recordChild: (@Sendable (ChildStep) -> Void)?
    @usableFromInline
    init(_ record: @escaping @Sendable (Engine.Step) -> Void, children: (@Sendable (ChildStep) -> Void)?) {
      (self.record, recordChild) = (record, children)
    }
  }

  /// Whether a recorder is attached: steps are then never quiet, and each is reported. The
  /// recorder lives with the subscriptions, so a store that nobody observes or records pays
  /// one flag load here, and no memory.
  @inlinable var recording: Bool {
    subscribed.load(ordering: .acquiring) && subscriptions?.recorder.load() != nil
  }

  @usableFromInline
  final class Subscriptions: Sendable {
    @usableFromInline let states = Broadcast<Engine.Observed>()
    @usableFromInline let steps = Broadcast<Engine.Step>()
    /// A recorder attached after the store was made: it sees every step from then on. Set at
    /// most once.
    @usableFromInline let recorder = OnceReference<StepRecorder>()
    init() {}
  }

  /// The time on `clock` since the store was made (read only when a step is reported).
  @usableFromInline
  func elapsed() -> Duration { clock.elapsed }

  /// The clock, when it is a manual one.
  @usableFromInline var manualClock: ManualClock? { clock.manual }

  /// Whether anyone listens to states.
  @inlinable var observesStates: Bool {
    subscribed.load(ordering: .acquiring) && subscriptions?.states.hasSubscribers ?? false
  }
  /// Whether anyone listens to steps.
  @inlinable var observesSteps: Bool {
    subscribed.load(ordering: .acquiring) && subscriptions?.steps.hasSubscribers ?? false
  }

  /// The subscriptions, made now if needed; finished at once when the store has finished.
  func subscribing() -> Subscriptions {
    if let made = subscriptions { return made }
    let made = unsafeDowncast(madeSubscriptions.storeIfNil(Subscriptions()), to: Subscriptions.self)
    subscribed.store(true, ordering: .releasing)
    // `finish()` marks the core finished before it finishes the subscriptions it finds: seeing
    // the mark unset here means it will find these.
    if core.withLock({ $0.finished }) {
      made.states.finish()
      made.steps.finish()
    }
    return made
  }

  @usableFromInline
  override func sendWaitingForRoom(_ event: Event) async -> SendResult { await send(waitingForRoom: event) }
  @usableFromInline override func startStore() { start() }
  @usableFromInline override func settleStore() async { await settle() }
  @usableFromInline override func finishStore() async { await finish() }
  @usableFromInline override var currentStepCount: Int { core.withLock { $0.steps } }
  @usableFromInline override var currentRunningEffectCount: Int { core.withLock { $0.runningCount } }
  @usableFromInline override var configurations: AsyncStream<Engine.Observed> { states }
  @usableFromInline override var stepReports: AsyncStream<Engine.Step> { steps }
  @usableFromInline override func finishNow() -> Bool { finishIfIdle() }
  @usableFromInline override func childSaid(_ event: Event, token: UInt64, label: ChildLabel) {
    if !deliver(event, from: token, child: true) { inspector?(.lateEventDropped(event, effect: label.description)) }
  }
  @usableFromInline override func childRaised(_ event: Event, token: UInt64, label: ChildLabel) {
    if !deliver(event, from: token, child: true, raised: true) { inspector?(.lateEventDropped(event, effect: label.description)) }
  }
  @usableFromInline override func childFinished(token: UInt64, event: Event?) { finishedChild(token, event: event) }
  @usableFromInline override var watchesChildren: Bool { inspector != nil || recording }
  @usableFromInline override func childStepped(_ step: ChildStep) {
    // (A descendant's end is not a step: only a child's store passes it on, to its watcher.)
    if step.ended == nil || forwardsChildEnds { inspector?(.childStep(step)) }
    if subscribed.load(ordering: .acquiring), let recorder = subscriptions?.recorder.load() { recorder.recordChild?(step) }
  }
  @usableFromInline override func childStopping(_ child: RunningChild) { core.withLock { $0.stopping(child) } }
  @usableFromInline override func childStopTask(_ child: ObjectIdentifier, _ task: Task<Void, Never>) {
    core.withLock { $0.stopTask(task, of: child) }
  }
  @usableFromInline override func childStopped(_ child: ObjectIdentifier) {
    _ = core.withLock { $0.family?.stopping.removeValue(forKey: child) }
  }
  @usableFromInline override func route(_ message: any Sendable, to path: Substring) -> SendResult { routeToChild(message, to: path) }
  @usableFromInline override func performer<E: Sendable, W: Sendable>(of events: E.Type, _ work: W.Type) -> Performer<E, W>? {
    Performer<Event, Work>(handler: handler, failure: failure) as? Performer<E, W>
  }
  @usableFromInline override var childPaths: [String] { descendantPaths }
  @usableFromInline override var childStepTotal: Int { descendantSteps }
  @usableFromInline override func childSnapshots() throws(SystemSnapshotError) -> [ChildSnapshot] { try snapshotChildren() }
  @usableFromInline override func takeParentMessages(_ sink: @escaping @Sendable (MachineMessage.Content) -> SendResult) {
    core.withLock { $0.makeRare().parentSink = sink }
  }

  @usableFromInline override func restoreChildren(_ snapshots: [ChildSnapshot], resolve: @escaping ChildResolver) throws(SystemSnapshotError) {
    try restore(snapshots, resolve: resolve)
  }

  /// (Inlinable: a store made where its types are known, a child's for one, is made
  /// specialised, without looking up the generic types it is built of.)
  @inlinable
  init(
    engine: Engine, clock: any StoreClock, mailbox: MailboxPolicy, handler: @escaping Handler, failure: @escaping Failure,
    inspector: Inspector?, forwardsChildEnds: Bool = false, parentTakesMessages: Bool = false
  ) {
    let capacity = if case .bounded(let c) = mailbox { max(1, c) } else { Int.max }
    core = LockedRegion(StoreCore(engine: engine, capacity: capacity), side: engine.stepper)
    published = Atomic(engine.publishedWord ?? 0)
    self.handler = handler
    self.failure = failure
    self.inspector = inspector
    (self.forwardsChildEnds, self.parentTakesMessages) = (forwardsChildEnds, parentTakesMessages)
    self.clock = clock
    super.init()
    // The stepper lives as long as the store: it may keep what it leases between drains.
    Engine.keepLeases(core.side)
    self.clock.manual?.register(self)
  }

  deinit {
    // A drainer holds the runtime, so none is draining: the stepper gives back what it kept
    // between drains (and what a step that never returned held: its caller is gone). (This
    // deinit runs unspecialised: an engine whose steppers hold nothing skips the lock, and the
    // generic types it would look up.)
    if Engine.retiresSteppers { core.withLock { [side = core.side] in $0.engine.retire(side) } }
    core.deallocate()
  }

  /// Attaches the recorder `make` builds from the engine as it is now. The store must not be
  /// handling an event (every step kept so far has then been reported, and the next drainer
  /// takes the lock after this one, so it sees the recorder): the recorder's first state is
  /// the one the next step starts from, and it sees every step after it.
  ///
  /// - Throws: ``LogError/io(path:detail:)`` naming `path` when a step is running, the store
  ///   finished, or a recorder is already attached; or what `make` throws.
  @usableFromInline
  func attachRecorder(
    path: String, _ make: (Engine) throws(LogError) -> StepRecorder
  ) throws(LogError) {
    // Made before the lock: making them takes it.
    let made = subscribing()
    let result = core.withLock { core -> Result<Void, LogError> in
      let refusal: String? =
        if core.finished { "the store has finished" }
        else if core.draining { "the store is handling an event; attach a recorder before the first send, or while the store is idle" }
        else if made.recorder.load() != nil { "the store already has a recorder" }
        else { nil }
      if let refusal { return .failure(.io(path: path, detail: "cannot record: \(refusal)")) }
      do throws(LogError) {
        _ = made.recorder.storeIfNil(try make(core.engine))
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }

  /// Attaches `record` to a store nobody else holds yet (one being made): nothing can step
  /// before it is in place.
  func attachRecorderBeforeUse(_ recorder: StepRecorder) {
    _ = subscribing().recorder.storeIfNil(recorder)
  }

  var states: AsyncStream<Engine.Observed> { subscribing().states.subscribe(first: core.withLock { $0.engine.observed }) }
  var steps: AsyncStream<Engine.Step> { subscribing().steps.subscribe() }

  /// Starts the store: its start's effects start as a step's do, by the drainer, so that what
  /// they say meanwhile (a child at its start, to its parent) is queued and handled after them
  /// all, not inside one of them.
  @inlinable
  func start(committingStart: Bool = true) {
    let side = core.side
    let started = core.withLock { core -> (work: StoreCore<Engine>.StepWork, first: Event?, drains: Bool)? in
      guard let (work, first) = core.started(stepper: side, committingStart: committingStart) else { return nil }
      if first != nil { return (work, first, true) }
      // (A start that starts nothing has nothing to say meanwhile: it takes no draining.)
      guard !core.draining, !work.starts.isEmpty else { return (work, nil, false) }
      core.draining = true
      core.engine.lease(side)
      return (work, nil, true)
    }
    guard let started else { return }
    perform(started.work, starting: true)
    guard started.drains else { return }
    var first = started.first
    // What the start's work raised goes before what was taken (see `drain(_:)`).
    if _slowPath(raisedAhead.load(ordering: .relaxed)) {
      var batch = Mailbox<Event>()
      first = takeRaised(holding: first, batch: &batch)
    }
    if let first { return drain(first) }
    let (next, waiters) = core.withLock { core in
      let next = core.takeNext(stepper: side)
      return (next, next == nil ? core.waitersToResume() : [])
    }
    for waiter in waiters { waiter.resume() }
    if let next { drain(next) }
  }

  func send(waitingForRoom event: Event) async -> SendResult {
    while true {
      let result = enqueue(event, force: false, report: false)
      guard result == .rejected(.mailboxFull) else { return result }
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let wait = core.withLock { core -> Bool in
          guard core.isFull, !core.finished else { return false }
          core.makeRare().space.append(continuation)
          return true
        }
        if !wait { continuation.resume() }
      }
    }
  }

  /// The current task, as its hash (`nil` outside a task): `finish()` and `settle()` awaited
  /// from the work of one of this store's perform effects do not wait for that work, which
  /// would wait for ever. (Found only when asked: marking each effect's task, as a task-local
  /// value, cost a quarter of what an effect costs. A `Task` and the `UnsafeCurrentTask` of the
  /// same task hash alike: both hash the task's address.)
  static var currentTask: Int? { withUnsafeCurrentTask { $0?.hashValue } }

  /// Waits until this store is idle (its children aside: see ``settle()``).
  func settleOwn() async {
    let current = Self.currentTask
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = core.withLock { core -> Bool in
        let besides: Int32 = core.runsTask(current) ? 1 : 0
        if core.isIdle(besides: besides) { return true }
        core.makeRare().idle.append((continuation, besides))
        return false
      }
      if idle { continuation.resume() }
    }
  }

  /// See ``StoreRuntimeBase/finishNow()``: what ``finish()`` does, for a store with nothing
  /// to cancel or wait for.
  @inlinable
  func finishIfIdle() -> Bool {
    let waiters = core.withLock { core -> [CheckedContinuation<Void, Never>]? in
      guard !core.finished, !core.draining, core.mailbox.isEmpty, core.nothingRuns,
        core.rare.map({ $0.deferred.isEmpty && $0.pendingEnds == 0 && $0.cancelledTasks.isEmpty }) ?? true,
        core.family.map({ $0.stopping.isEmpty && $0.ending == 0 }) ?? true
      else { return nil }
      core.finished = true
      return core.drainWaiters()
    }
    guard let waiters else { return false }
    finishedNow(waiters)
    return true
  }

  /// What is left of finishing once the core is marked finished with nothing running.
  @inlinable
  func finishedNow(_ waiters: [CheckedContinuation<Void, Never>]) {
    finishing.store(true, ordering: .relaxed)
    for waiter in waiters { waiter.resume() }
    leaveClockAndObservers()
  }

  /// The last of finishing: the manual clock stops waiting for this store, and the observation
  /// sequences end. (Inlinable: run specialised where a store finishes, it looks up no generic
  /// type; a child's store finishes each time its state is left.)
  @inlinable
  func leaveClockAndObservers() {
    manualClock?.unregister(self)
    if let made = subscriptions {
      made.states.finish()
      made.steps.finish()
    }
  }

  func finish() async {
    finishing.store(true, ordering: .relaxed)
    let dropped = core.withLock { $0.beginFinishing() }
    // Wait for a drainer in the middle of a step: it stops at its next event.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let wait = core.withLock { core -> Bool in
        guard core.draining else { return false }
        core.makeRare().finish.append(continuation)
        return true
      }
      if !wait { continuation.resume() }
    }
    for event in dropped { inspector?(.queuedEventDropped(event)) }
    let (cancelled, awaited, waiters) = core.withLock { core in
      let (cancelled, awaited) = core.cancelAll()
      return (cancelled, awaited, core.drainWaiters())
    }
    var tasks = awaited
    for effect in cancelled {
      if case .task(let task) = effect.handle { tasks.append(task) }
      cancel(effect)
    }
    for waiter in waiters { waiter.resume() }
    // Awaited from an effect's own work: that work goes on after this returns, cancelled.
    let current = Self.currentTask
    for task in tasks where current == nil || task.hashValue != current { await task.value }
    // Effects that ended on their own before, whose ends are still being told.
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      if !core.withLock({ $0.waitsForEndsTold(waiter) }) { waiter.resume() }
    }
    // Children cancelled here or before, or ended on their own meanwhile, whose stores are
    // still finishing.
    await childrenStopped()
    leaveClockAndObservers()
  }
}
