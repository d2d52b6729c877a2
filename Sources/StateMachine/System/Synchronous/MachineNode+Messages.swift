/// A machine of a system delivering its steps' messages: down to its children, and what they
/// say queued for it (the events raised for it ahead of its queue).
extension MachineNode {
  /// Delivers an immediate message; queues what the children said. A message to no running
  /// child, or of another type, is refused and goes no further (the store reports it to its
  /// inspector as a failed effect; the system notes the input's first, see
  /// ``SystemMachine/undeliveredMessage``). `findsNoChild`: its step sent it after cancelling
  /// its child (see ``StoreCore/Start/init(messageAfterItsChild:)``), and it is refused as sent
  /// to no child.
  @inlinable
  mutating func deliver(
    _ message: MachineMessage, findsNoChild: Bool = false, stepper: UnsafeMutablePointer<Engine.Stepper>, _ budget: inout SystemBudget,
    _ said: inout ChildSaid<ParentEvent>
  ) throws(SystemRunError) {
    guard let payload = message.payload else { return }
    if findsNoChild { return try refused(message, .unknownTarget, stepper: stepper, &budget, &said) }
    // An invoked chart's message to its parent is said to it, before the chart's end.
    if let parentEvent = kind?.parentEvent, message.target == MachineMessage.parentTarget {
      if let event = parentEvent(message.content) {
        said.events.append(event)
      } else if budget.undelivered == nil {
        budget.undelivered = "\(Command<Never, Never>.message(message)): \(SendRejection.wrongType)"
      }
      return
    }
    let (result, heard) = try routeDown(payload, to: Substring(message.target), &budget)
    // (A forwarded event goes to its child only while the child runs, as in a store.)
    if message.isForwarded, result == .rejected(.unknownTarget) { return }
    // A child this step's work ended: refused as its store's would be, and no error (as in a store).
    if result == .rejected(.unknownTarget), endedDuringStep(message.target) {
      if budget.undelivered == nil { budget.undelivered = "\(Command<Never, Never>.message(message)): \(SendRejection.finished)" }
      return
    }
    if case .rejected(let reason) = result { try refused(message, reason, stepper: stepper, &budget, &said) }
    try queue(heard, stepper: stepper, &budget, &said)
  }

  /// `message` reached no machine, refused for `reason`: noted as the input's first undelivered
  /// message if it is, and the machine's communication error raised for it, as a store does.
  @inlinable
  mutating func refused(
    _ message: MachineMessage, _ reason: SendRejection, stepper: UnsafeMutablePointer<Engine.Stepper>, _ budget: inout SystemBudget,
    _ said: inout ChildSaid<ParentEvent>
  ) throws(SystemRunError) {
    if budget.undelivered == nil { budget.undelivered = "\(Command<Never, Never>.message(message)): \(reason)" }
    // (As a store queues it: SCXML's `error.communication`, for a chart that invokes.)
    guard Engine.mayRaiseCommunicationErrors, let event = core.engine.communicationError else { return }
    var failed = ChildSaid<Event>()
    failed.events = [event]
    failed.raised = 1
    try queue(failed, stepper: stepper, &budget, &said)
  }

  /// The running child `id` ended (on its own, or cancelled) in the current step (see
  /// ``Family/noteEnded(_:atStep:)``).
  @inlinable
  mutating func noteEnded(_ id: String) { ended.note(id, atStep: core.steps) }

  /// Whether the child `target` names (its id, or SCXML's `#_<id>`) ended while this machine's
  /// current step's work was delivered (see ``Family/endedDuring(_:step:)``).
  @inlinable
  func endedDuringStep(_ target: String) -> Bool { ended.contain(target, atStep: core.steps) }

  /// Sends `message` to the descendant at `path` (ids separated by `/`): the result, and what
  /// the child on the way said to this machine. A child that is done is forgotten.
  @inlinable @inline(__always)
  mutating func routeDown(_ message: any Sendable, to path: Substring, _ budget: inout SystemBudget) throws(SystemRunError)
    -> (result: SendResult, said: ChildSaid<Event>)
  {
    // (Over the UTF-8 view: a `/` is one byte, and searching the characters cost more.)
    let slash = path.utf8.firstIndex(of: UInt8(ascii: "/"))
    var id = String(slash.map { path[..<$0] } ?? path)
    var found = children.scanningIndex(forKey: id)
    // SCXML's `#_<id>` names the child `id` when no child's id is the whole target.
    if found == nil, let invoked = MachineMessage.invokedID(in: id) {
      id = invoked
      found = children.scanningIndex(forKey: id)
    }
    guard let index = found else { return (.rejected(.unknownTarget), ChildSaid()) }
    // (Found once, and stepped where it is in the map.)
    // (Left again only when the child returns: a step that throws ends the input, and its log.)
    budget.log?.enter(id)
    let (result, heard) =
      if let slash {
        try children.values[index].route(message, to: path[path.utf8.index(after: slash)...], &budget)
      } else {
        try children.values[index].deliver(message, &budget)
      }
    budget.log?.leave()
    if heard.done {
      noteEnded(id)
      let child = children.removeValue(forKey: id)
      if let token = core.token(of: EffectID(id)), core.isActive(token) {
        _ = core.remove(token)
        logEnd(of: id, child, ChildEnd(.finished), budget)
      }
    }
    return (result, heard)
  }

  /// Queues what a child said (handled now when nothing is draining): the events raised for
  /// this machine ahead of its queue (see ``StoreCore/eventRaised(_:stepper:)``), the others
  /// behind it.
  @inlinable
  mutating func queue(
    _ heard: ChildSaid<Event>, stepper: UnsafeMutablePointer<Engine.Stepper>, _ budget: inout SystemBudget,
    _ said: inout ChildSaid<ParentEvent>
  ) throws(SystemRunError) {
    for (index, event) in heard.events.enumerated() {
      let enqueued =
        index < heard.raised ? core.eventRaised(event, stepper: stepper) : core.eventArrived(event, force: true, stepper: stepper)
      switch enqueued {
      case .drain(let first): _ = try drain(first, stepper: stepper, &budget, &said)
      case .queued, .rejected: continue
      }
    }
  }
}
