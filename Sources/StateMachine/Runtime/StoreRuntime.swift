/// What ``Store`` and ``ChartStore`` share: the mailbox, the run-to-completion loop, the effect
/// lifecycle (start, finish, fail, cancel, timers) and the settle and finish rules, over any
/// ``StoreEngine``. The public stores are thin fronts that name their own types.
@usableFromInline
final class StoreRuntime<Engine: StoreEngine>: Sendable {
  @usableFromInline typealias Event = Engine.Event
  @usableFromInline typealias Work = Engine.Work
  @usableFromInline typealias Effect = Command<Event, Work>
  @usableFromInline typealias Handler = @Sendable (Work, Send<Event>) async throws -> Void
  @usableFromInline typealias Failure = @Sendable (Work, any Error) -> Event?
  @usableFromInline typealias Inspector = @Sendable (StoreReport<Event, Engine.Step>) -> Void

  @usableFromInline let core: Locked<StoreCore<Engine>>
  @usableFromInline let handler: Handler
  @usableFromInline let failure: Failure
  @usableFromInline let inspector: Inspector?
  @usableFromInline let clock: any Clock<Duration>
  /// The time on `clock` since the store was made (read only when a step is reported).
  @usableFromInline let elapsed: @Sendable () -> Duration
  @usableFromInline let manualClock: ManualClock?
  @usableFromInline let stateBroadcast = Broadcast<Engine.Observed>()
  @usableFromInline let stepBroadcast = Broadcast<Engine.Step>()

  @usableFromInline
  init(
    engine: Engine, clock: any Clock<Duration>, mailbox: MailboxPolicy, handler: @escaping Handler, failure: @escaping Failure,
    inspector: Inspector?
  ) {
    let capacity: Int? = if case .bounded(let c) = mailbox { max(1, c) } else { nil }
    core = Locked(StoreCore(engine: engine, capacity: capacity))
    self.handler = handler
    self.failure = failure
    self.inspector = inspector
    self.clock = clock
    elapsed = elapsedSinceNow(on: clock)
    manualClock = clock as? ManualClock
    manualClock?.register(self)
  }

  var states: AsyncStream<Engine.Observed> { stateBroadcast.subscribe(first: core.withLock { $0.engine.observed }) }
  var steps: AsyncStream<Engine.Step> { stepBroadcast.subscribe() }

  func start() {
    guard let (work, queued) = core.withLock({ $0.started() }) else { return }
    perform(work)
    if let (first, engine) = queued { drain(first, engine) }
  }

  func send(waitingForRoom event: Event) async -> SendResult {
    while true {
      let result = enqueue(event, force: false, report: false)
      guard result == .rejected(.mailboxFull) else { return result }
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let wait = core.withLock { core -> Bool in
          guard core.isFull, !core.finished else { return false }
          core.spaceWaiters.append(continuation)
          return true
        }
        if !wait { continuation.resume() }
      }
    }
  }

  func settle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = core.withLock { core -> Bool in
        if core.isIdle { return true }
        core.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }

  func finish() async {
    let dropped = core.withLock { $0.beginFinishing() }
    // Wait for a drainer in the middle of a step: it stops at its next event.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let wait = core.withLock { core -> Bool in
        guard core.draining else { return false }
        core.finishWaiters.append(continuation)
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
    for task in tasks { await task.value }
    manualClock?.unregister(self)
    stateBroadcast.finish()
    stepBroadcast.finish()
  }
}
