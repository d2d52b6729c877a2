import Synchronization

/// Events a store raises for its own machine: an undelivered message's
/// ``StoreEngine/communicationError`` and the events an invocation raised as it started
/// (SCXML's `error.communication` and `error.execution`). They go on SCXML's internal queue,
/// which a machine takes before any external event: ahead of every event queued, in the order
/// they were raised, whoever drains.
extension StoreRuntime {
  /// Raises the event `make` gives under the lock (`nil`: none), ahead of the queue (see
  /// ``StoreCore/eventRaised(_:stepper:)``): drained now when nobody drains; otherwise the
  /// drainer takes it next, before the events it took from the queue earlier
  /// (``takeRaised(holding:batch:)``).
  @usableFromInline
  func raise(_ make: (inout StoreCore<Engine>) -> Event?) {
    let side = core.side
    let enqueued = core.withLock { core -> StoreCore<Engine>.Enqueued? in
      guard let event = make(&core) else { return nil }
      return raised(event, in: &core, stepper: side)
    }
    if case .drain(let first)? = enqueued { drain(first) }
  }

  /// `event` raised ahead of the queue, under the lock (``StoreCore/eventRaised(_:stepper:)``);
  /// queued while another drains, it marks ``raisedAhead`` for the drainer.
  @usableFromInline
  func raised(_ event: Event, in core: inout StoreCore<Engine>, stepper: UnsafeMutablePointer<Engine.Stepper>) -> StoreCore<Engine>.Enqueued {
    let enqueued = core.eventRaised(event, stepper: stepper)
    if case .queued = enqueued { raisedAhead.store(true, ordering: .relaxed) }
    return enqueued
  }

  /// The next event for a drainer that holds `next` and `batch`, taken from the queue before
  /// an event was raised ahead of it (``raisedAhead``): they go back behind the raised events,
  /// and the first of those is next. (Out of the drain loop: it runs only after a raise.)
  @usableFromInline @inline(never)
  func takeRaised(holding next: Event?, batch: inout Mailbox<Event>) -> Event? {
    core.withLock { core in
      raisedAhead.store(false, ordering: .relaxed)
      // (Nothing held: the raised events are at the queue's head already. A store that
      // finished drops its queue, and the drainer steps what it holds, as before.)
      guard next != nil || !batch.isEmpty, !core.finished else { return next }
      var held: [Event] = []
      if let next { held.append(next) }
      while let event = batch.pop() { held.append(event) }
      core.mailbox.putBack(held)
      return core.mailbox.pop()
    }
  }
}
