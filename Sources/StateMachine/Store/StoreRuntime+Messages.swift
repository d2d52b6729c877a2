import Synchronization

/// Messages to child machines (``Command/message(_:)``, `Store.send(_:to:)`): each goes to the
/// running child its path begins with (``StoreCore/receiver(ofPath:feeding:limit:)``), found
/// under the store's lock, and on from there down the rest of the path, outside it.
extension StoreRuntime {
  /// Keeps a step whose one command is a message (``StoreEngine/isMessaging(_:)``), as the
  /// drain loop keeps any step that starts something, and commits the message in the same
  /// lock, finding its receiver there: the step's work, the next event, the waiters to resume,
  /// and the message to deliver now, with its receiver (`nil`: a delayed message, now a
  /// running timer, or the store finished).
  @inlinable @inline(never)
  func keep(
    messaging outcome: Engine.Outcome, _ sent: consuming MachineMessage, skipped: Int, batch: inout Mailbox<Event>,
    stepper: UnsafeMutablePointer<Engine.Stepper>
  ) -> (StoreCore<Engine>.StepWork, Event?, [CheckedContinuation<Void, Never>], (MachineMessage, to: MessageReceiver)?) {
    // (Locked without a closure, which would copy the outcome it reads.)
    let core = self.core.lock()
    defer { self.core.unlock() }
    core.pointee.steps &+= skipped
    var work = core.pointee.stepped(engine: stepper, outcome: outcome)
    // (A step that ran when the store finished starts nothing: its message goes nowhere. The
    // message is moved from the step to its delivery, not copied: each copy of its one object
    // was a retain and a release.)
    var delivery: (MachineMessage, to: MessageReceiver)?
    if !core.pointee.finished, let message = Engine.commitMessage(consume sent, to: &core.pointee, &work) {
      // (One sent after the step cancelled its child finds none, whatever runs by its id now.)
      let receiver =
        work.messageAfterItsChild ? MessageReceiver.refused(.unknownTarget) : core.pointee.receiver(of: message, limit: Self.cascadeLimit)
      delivery = (consume message, to: receiver)
    }
    if let word = core.pointee.engine.publishedWord { published.store(word, ordering: .releasing) }
    if core.pointee.finished, !batch.isEmpty { batch = Mailbox() }
    let next = batch.isEmpty ? core.pointee.takeQueued() : batch.pop()
    return (work, next, core.pointee.waitersToResume(), delivery)
  }

  /// Delivers a step's message (see ``keep(messaging:_:skipped:batch:stepper:)``) to the
  /// receiver the step's lock found, or refuses it, and reports it started, then finished or
  /// failed. (Out of the drain loop, as ``start(_:token:)``.)
  @inlinable @inline(never)
  func deliver(_ message: MachineMessage, to receiver: MessageReceiver) {
    inspector?(.effectStarted(id: message.id, description: Effect.message(message).description))
    let result: SendResult =
      switch receiver {
      // (A receiver is found only for a message that carries one. To the child itself, the
      // message's object is passed down, and the child finds its payload by a class cast.)
      case .child(let child, nested: false): send(message.content, to: child)
      case .child(let child, nested: true):
        send(message.content.payload, along: Substring(message.target), to: child, feeding: true)
      case .ended: .rejected(.finished)
      case .refused(let reason): saidToParent(message, starting: false) ?? .rejected(reason)
      }
    // (A message taken with nobody to tell has nothing to report: the command made for the
    // report retained and released the message's content on every message.)
    if case .accepted = result, inspector == nil { return }
    report(result, of: message, as: .message(message))
  }

  /// A ``Command/message(_:)`` started as any effect is (a chart's, a delayed one when it is
  /// due): delivered now, and reported finished or failed. `fromDrain`: the drainer delivers it
  /// as its step's work (what the child says meanwhile counts toward a loop); else a delayed
  /// message's timer does.
  @inlinable @inline(never)
  func deliver(_ message: MachineMessage, command: Effect, fromDrain: Bool = true, starting: Bool = false) {
    let result =
      saidToParent(message, starting: starting)
      ?? message.payload.map { routeToChild($0, to: Substring(message.target), feeding: fromDrain) } ?? .rejected(.wrongType)
    report(result, of: message, as: command)
  }

  /// Whether a child runs at `target`, for a forwarded event (SCXML's `autoforward`), which goes
  /// only to a child that runs.
  @usableFromInline @inline(never)
  func forwardsTo(_ target: String) -> Bool { core.withLock { $0.runsChild(target) } }

  /// How an invoked chart's message to `#_parent` reached its parent (`nil` for any other
  /// message): one its step made went as the step was reported, before the chart's end (see
  /// ``ChildKind/parentMessages``); one its start made (no step reports it, `starting`), or a
  /// delayed one now due, goes now (``Rare/parentSink``).
  @inlinable
  func saidToParent(_ message: MachineMessage, starting: Bool) -> SendResult? {
    guard parentTakesMessages, message.target == MachineMessage.parentTarget else { return nil }
    if !starting, !message.isDelayed { return .accepted }
    guard let sink = core.withLock({ $0.rare?.parentSink }) else { return .rejected(.unknownTarget) }
    return sink(message.content)
  }

  /// Tells the inspector how a message's delivery ended: finished when the child accepted it,
  /// failed otherwise. A failed one raises the machine's communication error, unless its child
  /// had ended (``SendRejection/finished``: sent while the child ran, see
  /// ``Family/endedDuring(_:step:)``) or it was a forwarded copy.
  @inlinable
  func report(_ result: SendResult, of message: MachineMessage, as command: @autoclosure () -> Effect) {
    if case .rejected(let reason) = result, reason != .finished, Engine.mayRaiseCommunicationErrors, !message.isForwarded {
      communicationFailed(reason)
    }
    guard let inspector else { return }
    switch result {
    case .accepted: inspector(.effectFinished(id: message.id, description: command().description))
    case .rejected(let reason): inspector(.effectFailed(description: command().description, error: reason.description, event: nil))
    }
  }

  /// A message this store's machine sent reached no machine, refused for `reason`: its
  /// ``StoreEngine/communicationError``, if it has one, is raised for it, ahead of the queue
  /// (SCXML's `error.communication`, on the internal queue: see ``raise(_:)``). The error
  /// counts toward a loop as an event a child said while the store delivered
  /// (``StoreCore/beginFeeding(limit:)``): a chart that answers it with the same message again
  /// has that message refused as ``SendRejection/loop`` after ``cascadeLimit`` steps, which
  /// raises no error, and the loop ends.
  @inlinable @inline(never)
  func communicationFailed(_ reason: SendRejection) {
    guard reason != .loop else { return }
    raise { core in
      guard let event = core.engine.communicationError else { return nil }
      _ = core.makeFamily()
      core.childEventArrived(feeding: true)
      return event
    }
  }

  /// A delayed message (``MachineMessage/init(_:to:after:id:)``) fell due: delivered (and
  /// reported finished or failed) if it was not cancelled meanwhile. Returns whether it was.
  @usableFromInline
  func messageDue(_ token: UInt64, _ message: MachineMessage, command: Effect) -> Bool {
    let due = core.withLock { core -> Bool in
      guard core.isActive(token) else { return false }
      _ = core.remove(token)
      // Delivered and reported outside the lock: `finish()` and `settle()` wait for that.
      core.endPending()
      return true
    }
    guard due else { return false }
    deliver(message, command: command, fromDrain: false)
    for waiter in core.withLock({ $0.endTold() }) { waiter.resume() }
    return true
  }

  /// Sends `message` to the running child at `path` (see ``StoreRuntimeBase/route(_:to:)``).
  /// `feeding`: the drainer sends it (a ``Command/message(_:)``), and what the child says
  /// meanwhile counts toward a loop (see ``StoreCore/beginFeeding(limit:)``).
  @inlinable
  func routeToChild(_ message: any Sendable, to path: Substring, feeding: Bool = false) -> SendResult {
    switch core.withLock({ $0.receiver(ofPath: path, feeding: feeding, limit: Self.cascadeLimit) }) {
    // (To the child itself when the path is its id alone: the lookup found no `/` in it, and
    // is not asked again.)
    case .child(let child, nested: false): send(message, along: nil, to: child, feeding: feeding)
    case .child(let child, nested: true): send(message, along: path, to: child, feeding: feeding)
    case .ended: .rejected(.finished)
    case .refused(let reason): .rejected(reason)
    }
  }

  /// Sends the message `content` carries from the drainer to `child`, the receiver of its
  /// whole path (see ``send(_:along:to:feeding:)``).
  @inlinable
  func send(_ content: MachineMessage.Content, to child: RunningChild) -> SendResult {
    feeding.store(true, ordering: .relaxed)
    defer { feeding.store(false, ordering: .relaxed) }
    return child.deliver(content)
  }

  /// Sends `message` to `child`, the receiver of `path`'s first id: on down the rest of the
  /// path, or to it (`nil`: the path is its id). `feeding`: the store is marked feeding
  /// meanwhile (``feeding``).
  @inlinable
  func send(_ message: any Sendable, along path: Substring?, to child: RunningChild, feeding: Bool) -> SendResult {
    if feeding { self.feeding.store(true, ordering: .relaxed) }
    defer { if feeding { self.feeding.store(false, ordering: .relaxed) } }
    guard let path, let slash = path.utf8.firstIndex(of: UInt8(ascii: "/")) else { return child.deliver(message) }
    return child.route(message, to: path[path.utf8.index(after: slash)...])
  }
}
