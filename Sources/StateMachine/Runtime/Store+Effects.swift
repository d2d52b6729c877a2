extension Store {
  /// Queues an event; drains the mailbox on this thread unless another caller is draining.
  func enqueue(_ event: Event, force: Bool, report: Bool = true) -> SendResult {
    switch core.withLock({ $0.eventArrived(event, force: force) }) {
    case .queued: return .accepted
    case .drain:
      drain()
      return .accepted
    case .rejected(let reason):
      if report { inspector?(.eventRejected(event, reason)) }
      return .rejected(reason)
    }
  }

  /// Handles queued events one at a time until the mailbox is empty. Only one caller drains
  /// at a time; the step (and the table's guards and updates) and the work it asks for run
  /// outside the lock, so other threads can queue events meanwhile.
  func drain() {
    while true {
      let (next, waiters) = core.withLock { core in (core.takeNext(), core.waitersToResume()) }
      for waiter in waiters { waiter.resume() }
      guard let (event, taken) = next else { return }
      var machine = taken
      let from = machine.state
      let fromIndex = machine.index
      let outcome = machine.send(event)
      let work = core.withLock { core in
        core.stepped(event, machine: machine, from: from, fromIndex: fromIndex, outcome: outcome)
      }
      perform(work)
    }
  }

  /// Cancels, starts and reports what one step (or ``start()``) asked for.
  func perform(_ work: StoreCore<State, Event, Context, Work>.StepWork) {
    for effect in work.cancelled { cancel(effect) }
    if let step = work.step {
      if case .transitioned = step.outcome { stateBroadcast.yield(step.to) }
      stepBroadcast.yield(step)
      inspector?(.step(step))
    }
    for start in work.starts { self.start(start.command, token: start.token) }
  }

  func cancel(_ effect: StoreCore<State, Event, Context, Work>.Running) {
    switch effect.handle {
    case .task(let task): task.cancel()
    case .manualTimer(let timer): manualClock?.cancelScheduled(timer)
    case .pending: break
    }
    inspector?(.effectCancelled(id: effect.id, description: effect.description))
  }

  private func start(_ command: Effect, token: UInt64) {
    let description = command.description
    switch command {
    case .perform(let work, let id, _):
      inspector?(.effectStarted(id: id, description: description))
      let participant: (any ManualClockParticipant)? = manualClock == nil ? nil : self
      let task = Task {
        await ManualClockContext.$participant.withValue(participant) {
          await self.run(work, token: token, description: description)
        }
        self.taskEnded(token, id: id, description: description)
      }
      attach(.task(task), to: token)
    case .send(let event, let delay, let id, _):
      inspector?(.effectStarted(id: id, description: description))
      startTimer(token: token, event: event, delay: delay, repeating: false)
    case .every(let interval, let event, let id, _):
      inspector?(.effectStarted(id: id, description: description))
      startTimer(token: token, event: event, delay: interval, repeating: true)
    case .cancel:
      break  // handled under the lock when the step ran
    }
  }

  private func run(_ work: Work, token: UInt64, description: String) async {
    do {
      try await handler(work, Send { self.deliver($0, from: token, effect: description) })
    } catch is CancellationError {
    } catch {
      guard core.withLock({ $0.isActive(token) }) else { return }
      let event = failure(work, error)
      inspector?(.effectFailed(description: description, error: String(describing: error), event: event))
      if let event { deliver(event, from: token, effect: description) }
    }
  }

  private func startTimer(token: UInt64, event: Event, delay: Duration, repeating: Bool) {
    if let manualClock {
      let timer = manualClock.schedule(after: delay) { [self] in
        if timerFired(token, event: event, keep: repeating), repeating {
          startTimer(token: token, event: event, delay: delay, repeating: true)
        }
      }
      if !attach(.manualTimer(timer), to: token) { manualClock.cancelScheduled(timer) }
      return
    }
    let clock = self.clock
    let task = Task {
      repeat {
        do { try await clock.sleep(for: delay) } catch { return }
      } while timerFired(token, event: event, keep: repeating) && repeating
    }
    attach(.task(task), to: token)
  }

  /// A timer fell due: queue its event if it is still running. Returns whether it was.
  private func timerFired(_ token: UInt64, event: Event, keep: Bool) -> Bool {
    let enqueued = core.withLock { core -> StoreCore<State, Event, Context, Work>.Enqueued? in
      guard core.isActive(token) else { return nil }
      if !keep { _ = core.remove(token) }
      return core.eventArrived(event, force: true)
    }
    guard let enqueued else { return false }
    if case .drain = enqueued { drain() }
    return true
  }

  /// An effect sent an event: queue it if the effect still runs, else drop it and say so.
  private func deliver(_ event: Event, from token: UInt64, effect: String) {
    let enqueued = core.withLock { core -> StoreCore<State, Event, Context, Work>.Enqueued? in
      guard core.isActive(token) else { return nil }
      return core.eventArrived(event, force: true)
    }
    switch enqueued {
    case nil: inspector?(.lateEventDropped(event, effect: effect))
    case .drain?: drain()
    case .queued?, .rejected?: break
    }
  }

  @discardableResult
  private func attach(_ handle: StoreCore<State, Event, Context, Work>.Handle, to token: UInt64) -> Bool {
    let attached = core.withLock { $0.attach(handle, to: token) }
    if !attached, case .task(let task) = handle { task.cancel() }
    return attached
  }

  private func taskEnded(_ token: UInt64, id: EffectID?, description: String) {
    let (ended, waiters) = core.withLock { core in (core.taskEnded(token), core.waitersToResume()) }
    if ended != nil { inspector?(.effectFinished(id: id, description: description)) }
    for waiter in waiters { waiter.resume() }
  }
}

extension Store: ManualClockParticipant {
  func sleeperStarted() {
    let waiters = core.withLock { core in
      core.sleeping += 1
      return core.waitersToResume()
    }
    for waiter in waiters { waiter.resume() }
  }

  func sleeperWoke() {
    core.withLock { $0.sleeping -= 1 }
  }

  func waitUntilIdle() async { await settle() }
}
