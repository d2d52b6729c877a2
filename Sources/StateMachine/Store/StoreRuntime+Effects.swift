import Synchronization

extension StoreRuntime {
  /// Queues an event; drains the mailbox on this thread unless another caller is draining.
  /// (Always inlined, as is what it calls under the lock: a store's `send` is this alone, and
  /// the optimiser outlined it and the closure around it once the engines became generic over
  /// the definition, about 4 ns a send.)
  @inlinable @inline(__always)
  func enqueue(_ event: Event, force: Bool, report: Bool = true) -> SendResult {
    let side = core.side
    switch core.withLock({ $0.eventArrived(event, force: force, stepper: side) }) {
    case .queued: return .accepted
    case .drain(let first):
      drain(first)
      return .accepted
    case .rejected(let reason):
      return rejected(event, reason, report: report)
    }
  }

  /// Reports a refused event (kept out of line: a send that is accepted, the hot path, then
  /// stays small enough to be inlined where it is called).
  @usableFromInline @inline(never)
  func rejected(_ event: Event, _ reason: SendRejection, report: Bool) -> SendResult {
    if report { inspector?(.eventRejected(event, reason)) }
    return .rejected(reason)
  }

  /// Handles `first`, then queued events one at a time until the mailbox is empty. Only one
  /// caller drains at a time; the step (and the table's guards and updates) and the work it asks
  /// for run outside the lock, so other threads can queue events meanwhile. The drainer stays
  /// the drainer until its step is reported and its effects started, so reports keep the
  /// steps' order: the step is kept and the next event taken under one lock, and only when the
  /// mailbox was empty does a second lock hand the draining back.
  ///
  /// When nobody listens and a step starts and cancels nothing, the drainer takes the whole
  /// mailbox at once (``StoreCore/mayBatch``) and steps its events one after another while
  /// their steps stay quiet (``StoreEngine/isQuiet(_:)``), keeping them all in the next lock:
  /// with many producers, one lock per batch instead of one per event. Order and run to
  /// completion are unchanged: the batch is the mailbox's head, handled before anything queued
  /// later, and a step that is not quiet is kept on its own, as always.
  @inlinable
  func drain(_ first: Event) {
    var event = first
    // Ours while we drain (see `core`): stepped in place, no copy.
    let stepper = core.side
    // Events taken from the mailbox at once, ahead of anything still queued there.
    var batch = Mailbox<Event>()
    // Whether quiet steps of `batch` may go without a lock each (set under the last lock).
    var mayBatch = false
    while true {
      // Quiet steps stepped since the last lock, kept with the next one.
      var skipped = 0
      let outcome =
        mayBatch && !batch.isEmpty
        ? applyQuietly(&event, batch: &batch, skipped: &skipped, stepper: stepper) : Engine.apply(event, on: stepper)
      var work = StoreCore<Engine>.StepWork(sequence: 0)
      var next: Event?
      // The step's message, when it is its one command, and where it goes (found under the lock).
      var message: (MachineMessage, to: MessageReceiver)?
      var waiters: [CheckedContinuation<Void, Never>] = []
      // Nobody listens: a step that starts and cancels nothing leaves nothing to do after the
      // lock, so the draining can be handed back in the same lock that keeps it.
      let quiet = inspector == nil && !observesStates && !observesSteps && !recording
      var handedBack = false
      if _slowPath(Engine.isMessaging(outcome)), let sent = Engine.message(of: outcome) {
        // (Kept apart: in the common lock below, it made that lock's closure too large to inline.)
        mayBatch = false
        (work, next, waiters, message) = keep(messaging: outcome, consume sent, skipped: skipped, batch: &batch, stepper: stepper)
      } else {
        core.withLock { core in
          core.steps &+= skipped
          work = core.stepped(engine: stepper, outcome: outcome)
          if let word = core.engine.publishedWord { published.store(word, ordering: .releasing) }
          // A store that finished drops what is queued: the batch too (nobody listens to be told).
          if core.finished, !batch.isEmpty { batch = Mailbox() }
          if quiet, work.starts.isEmpty, work.cancelled.isEmpty {
            mayBatch = core.mayBatch
            // The whole mailbox at once: the two buffers are swapped (the batch is empty), not copied.
            if mayBatch, batch.isEmpty, !core.mailbox.isEmpty { swap(&core.mailbox, &batch) }
            next = batch.isEmpty ? core.takeNext(stepper: stepper) : batch.pop()
            handedBack = next == nil
          } else {
            mayBatch = false
            next = batch.isEmpty ? core.takeQueued() : batch.pop()
          }
          // Senders waiting for room (taking an event made some); the idle and finish waiters
          // wait until the draining is handed back.
          waiters = core.waitersToResume()
        }
      }
      if handedBack {
        if !waiters.isEmpty { for waiter in waiters { waiter.resume() } }
        return
      }
      if Engine.changesObserved(outcome), observesStates { subscriptions?.states.yield(Engine.observed(stepper)) }
      if observesSteps || inspector != nil || recording {
        report(Engine.report(outcome, of: stepper, event: event, sequence: work.sequence, time: elapsed()))
      }
      perform(work)
      // (Consumed: delivered from where the lock put it, not copied out and destroyed twice.)
      if let message = consume message { deliver(message.0, to: message.to) }
      // What the step's work raised (an undelivered message's error) goes before what was taken.
      if _slowPath(raisedAhead.load(ordering: .relaxed)) { next = takeRaised(holding: next, batch: &batch) }
      if next == nil {
        // Those waiting for the store to settle resume only once the step has been reported.
        let settled = core.withLock { core in
          next = core.takeNext(stepper: stepper)
          return core.waitersToResume()
        }
        // (Appending even an empty array made the empty one anew: an allocation per effectful step.)
        if !settled.isEmpty { waiters += settled }
      }
      if !waiters.isEmpty { for waiter in waiters { waiter.resume() } }
      guard let following = next else { return }
      event = following
    }
  }

  /// Steps `event`, then the batch's next events for as long as the steps are quiet and the
  /// store is not finishing; returns the last step, for `event` (now the last event stepped),
  /// and counts the others in `skipped`. Apart from the drain loop so that its outcome stays a
  /// plain value there.
  @inlinable @inline(never)
  func applyQuietly(
    _ event: inout Event, batch: inout Mailbox<Event>, skipped: inout Int, stepper: UnsafeMutablePointer<Engine.Stepper>
  ) -> Engine.Outcome {
    var outcome = Engine.apply(event, on: stepper)
    while Engine.isQuiet(outcome), !finishing.load(ordering: .relaxed), let following = batch.pop() {
      skipped &+= 1
      event = following
      outcome = Engine.apply(event, on: stepper)
    }
    return outcome
  }

  /// Tells the step's subscribers and the inspector (inlinable: runs specialised for the
  /// store's types, as the drain loop that calls it does).
  @inlinable
  func report(_ step: Engine.Step) {
    let made = subscriptions
    made?.steps.yield(step)
    inspector?(.step(step))
    made?.recorder.load()?.record(step)
  }

  /// Cancels and starts what one step (or ``start()``) asked for.
  @inlinable
  func perform(_ work: StoreCore<Engine>.StepWork, starting: Bool = false) {
    if !work.cancelled.isEmpty { for effect in work.cancelled { cancel(effect) } }
    if !work.starts.isEmpty { for start in work.starts { self.start(start.command, token: start.token, starting: starting) } }
  }

  /// (Specialised, but out of the drain loop: a step that cancels nothing never runs it, and
  /// inlined its cases made the loop larger for every send.)
  @inlinable @inline(never)
  func cancel(_ effect: StoreCore<Engine>.Running) {
    if case .child(let child) = effect.handle {
      // Its end is decided now, whoever sent the event that led here: its store finishes in the
      // background, and `finish()` waits for it.
      stopChild(child)
      inspector?(.effectCancelled(id: effect.id, description: effect.description))
      noteEnd(of: effect, ChildEnd(.cancelled))
      return
    }
    if deliveringToken == effect.token {
      // The effect's own event led here, and its work is still inside `send`: whether it ends
      // finished (it returns) or cancelled (it throws, or sends more) is reported when it ends.
      core.withLock { core in
        var task: Task<Void, Never>?
        if case .task(let t) = effect.handle { task = t }
        core.makeRare().deferred[effect.token] = DeferredEnd(task: task)
      }
      if case .task(let task) = effect.handle { task.cancel() }
      return
    }
    switch effect.handle {
    case .task(let task): task.cancel()
    case .manualTimer(let timer): cancelManualTimer(timer)
    case .pending, .child: break
    }
    inspector?(.effectCancelled(id: effect.id, description: effect.description))
    // (A child cancelled while its store starts ends here; any other effect is passed by.)
    noteEnd(of: effect, ChildEnd(.cancelled))
  }

  /// (Specialised, but out of the drain loop, as ``cancel(_:)``.)
  @inlinable @inline(never)
  func start(_ command: Effect, token: UInt64, starting: Bool = false) {
    // Descriptions are built only for the inspector (and a late event's report), never per effect.
    switch command {
    case .perform(let work, let id, _):
      inspector?(.effectStarted(id: id, description: command.description))
      let task: Task<Void, Never>
      if usesManualClock {
        task = manualPerformTask(work, token: token, command: command, id: id)
      } else if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
        // The handler starts here, on the thread that stepped, and runs until its first
        // suspension: one that never suspends ends before this returns, with no hop to another
        // thread (the scheduling was most of what an effect cost).
        task = Task.immediate { await self.runToEnd(work, token: token, command: command, id: id) }
      } else {
        task = Task { await self.runToEnd(work, token: token, command: command, id: id) }
      }
      attach(.task(task), to: token)
    case .send(let event, let delay, let id, _):
      inspector?(.effectStarted(id: id, description: command.description))
      startTimer(token: token, delay: delay, repeating: false) { [self] in timerFired(token, event: event, keep: false) }
    case .every(let interval, let event, let id, _):
      inspector?(.effectStarted(id: id, description: command.description))
      startTimer(token: token, delay: interval, repeating: true) { [self] in timerFired(token, event: event, keep: true) }
    case .cancel:
      break  // handled under the lock when the step ran
    case .invoke(let child, let id, _):
      inspector?(.effectStarted(id: id, description: command.description))
      launch(child, id: id, token: token, command: command)
    case .message(let message):
      // A forwarded event goes to its child only while the child runs: to one that does not, it
      // is not an effect at all (out of line: forwarding is rare).
      if message.isForwarded, !forwardsTo(message.target) { return }
      inspector?(.effectStarted(id: message.id, description: command.description))
      if token == StoreCore<Engine>.Start.afterItsChild {
        // Sent after its step cancelled its child (``StoreCore/Start/init(messageAfterItsChild:)``).
        report(.rejected(.unknownTarget), of: message, as: command)
      } else if message.isDelayed {
        startTimer(token: token, delay: message.delay, repeating: false) { [self] in messageDue(token, message, command: command) }
      } else {
        deliver(message, command: command, starting: starting)
      }
    }
  }

  /// Whether perform tasks run with a manual clock's participant (this store's, or one the
  /// starting task inherited).
  @usableFromInline
  var usesManualClock: Bool { manualClock != nil || ManualClockContext.participant != nil }

  /// A perform task whose sleeps count as this store's (none: another store's, inherited, does
  /// not apply), so `settle()` on a manual clock can tell.
  @usableFromInline
  func manualPerformTask(_ work: Work, token: UInt64, command: Effect, id: EffectID?) -> Task<Void, Never> {
    let participant: (any ManualClockParticipant)? = manualClock == nil ? nil : self
    // (Taken now, in the order the step started its effects, not when the task runs.)
    let order = manualClock?.ticket()
    return Task {
      let ending = await ManualClockContext.$participant.withValue(participant) {
        await ManualClockContext.$order.withValue(order) { await self.run(work, token: token, command: command) }
      }
      self.taskEnded(token, work: work, ending: ending, id: id, command: command)
    }
  }

  @usableFromInline
  func cancelManualTimer(_ timer: UInt64) { manualClock?.cancelScheduled(timer) }

  /// The token of the perform effect whose `send` drains on this task, if any.
  @usableFromInline
  var deliveringToken: UInt64? { DeliveryContext.token }

  /// A perform task's whole life: the work, then its one report.
  @inlinable
  func runToEnd(_ work: Work, token: UInt64, command: Effect, id: EffectID?) async {
    let ending = await run(work, token: token, command: command)
    taskEnded(token, work: work, ending: ending, id: id, command: command)
  }

  @inlinable
  func run(_ work: Work, token: UInt64, command: Effect) async -> StoreCore<Engine>.Ending {
    do {
      try await handler(work, Send { self.deliver($0, from: token, effect: command) })
      return .returned
    } catch {
      return .threw(error)
    }
  }

  /// Starts the timer of effect `token`: `fire` runs when it falls due (again every `delay`
  /// while it returns true, when `repeating`). One mechanism for every timer: a delayed send,
  /// a repeating one, and a delayed message.
  @usableFromInline
  func startTimer(token: UInt64, delay: Duration, repeating: Bool, fire: @escaping @Sendable () -> Bool) {
    if let manualClock = clock.manual {
      let timer = manualClock.schedule(after: delay) { [self] in
        if fire(), repeating { startTimer(token: token, delay: delay, repeating: true, fire: fire) }
      }
      if !attach(.manualTimer(timer), to: token) { manualClock.cancelScheduled(timer) }
      return
    }
    let clock = self.clock
    let task = Task {
      repeat {
        do { try await clock.sleep(for: delay) } catch { return }
      } while fire() && repeating
    }
    attach(.task(task), to: token)
  }

  /// A timer fell due: queue its event if it is still running. Returns whether it was.
  /// A one-shot timer has finished once it fired (its event is queued); a repeating one runs on.
  @usableFromInline
  func timerFired(_ token: UInt64, event: Event, keep: Bool) -> Bool {
    let side = core.side
    let told = !keep && inspector != nil
    let fired = core.withLock { core -> (StoreCore<Engine>.Enqueued, ended: StoreCore<Engine>.Running?)? in
      guard core.isActive(token) else { return nil }
      let ended = keep ? nil : core.remove(token)
      // (Its event may be queued for another drainer, who may stop draining before it is told.)
      if told { core.endPending() }
      return (core.eventArrived(event, force: true, stepper: side), ended)
    }
    guard let fired else { return false }
    if let ended = fired.ended, let inspector {
      inspector(.effectFinished(id: ended.id, description: ended.description))
      for waiter in core.withLock({ $0.endTold() }) { waiter.resume() }
    }
    if case .drain(let first) = fired.0 { drain(first) }
    return true
  }

  /// An effect sent an event: queue it if the effect still runs, else drop it and say so.
  @usableFromInline
  func deliver(_ event: Event, from token: UInt64, effect: Effect) {
    if !deliver(event, from: token) { inspector?(.lateEventDropped(event, effect: effect.description)) }
  }

  /// Queues `event` from the running effect `token` (and drains, unless another caller does);
  /// `false` when that effect no longer runs, and the event is dropped. `child`: the effect is
  /// a child machine, which said it. `raised`: ahead of the queue (``raised(_:in:stepper:)``).
  @usableFromInline
  func deliver(_ event: Event, from token: UInt64, child: Bool = false, raised: Bool = false) -> Bool {
    let side = core.side
    let enqueued = core.withLock { core -> StoreCore<Engine>.Enqueued? in
      guard core.isActive(token) else {
        core.rare?.deferred[token]?.dropped = true
        return nil
      }
      if child { core.childEventArrived(feeding: feeding.load(ordering: .relaxed)) }
      return raised ? self.raised(event, in: &core, stepper: side) : core.eventArrived(event, force: true, stepper: side)
    }
    switch enqueued {
    case nil: return false
    case .drain(let first)?: DeliveryContext.$token.withValue(token) { drain(first) }
    case .queued?, .rejected?: break
    }
    return true
  }

  @inlinable @discardableResult
  func attach(_ handle: StoreCore<Engine>.Handle, to token: UInt64) -> Bool {
    let attached = core.withLock { $0.attach(handle, to: token) }
    if !attached, case .task(let task) = handle { task.cancel() }
    return attached
  }

  /// A perform task ended: report exactly one of finished, failed (with the event its error
  /// maps to, queued as the effect's last result) or cancelled — or nothing, when its
  /// cancellation was reported already.
  @inlinable
  func taskEnded(
    _ token: UInt64, work: Work, ending: StoreCore<Engine>.Ending, id: EffectID?, command: Effect
  ) {
    typealias Core = StoreCore<Engine>
    var mapped: Event?
    if case .threw(let error) = ending, !(error is CancellationError), core.withLock({ $0.isActive(token) }) {
      mapped = failure(work, error)
    }
    let side = core.side
    let inspected = inspector != nil
    var (end, enqueued, waiters) = core.withLock { core -> (Core.TaskEnd, Core.Enqueued?, [CheckedContinuation<Void, Never>]) in
      let end = core.taskEnded(token, ending)
      // Forgotten now, and told below: `finish()` and `settle()` wait for that.
      if inspected, end != .nothing { core.endPending() }
      let enqueued = end == .failed ? mapped.map { core.eventArrived($0, force: true, stepper: side) } : nil
      return (end, enqueued, core.waitersToResume())
    }
    switch end {
    case .nothing: break
    case .finished: inspector?(.effectFinished(id: id, description: command.description))
    case .cancelled: inspector?(.effectCancelled(id: id, description: command.description))
    case .failed:
      if case .threw(let error) = ending {
        inspector?(.effectFailed(description: command.description, error: String(describing: error), event: mapped))
      }
    }
    if inspected, end != .nothing { waiters += core.withLock { $0.endTold() } }
    for waiter in waiters { waiter.resume() }
    if case .drain(let first)? = enqueued { drain(first) }
  }
}

/// The perform effect whose `send` is draining the mailbox on this task, if any: a step it
/// causes that cancels that very effect defers the report to the effect's end.
enum DeliveryContext {
  @TaskLocal static var token: UInt64?
}
