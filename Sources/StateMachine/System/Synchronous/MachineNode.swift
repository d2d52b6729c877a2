/// One machine of a system run on the caller's thread (``SystemMachine``): the rules its store
/// follows, as a value (``StoreCore``: effects registered, replaced and cancelled by id, scoped
/// to the states that asked for them, a halted chart's ended), with its running children and
/// what it says to its parent. The store's runtime and this share those rules; what differs is
/// only what performs the work: here no work runs and no time passes, child machines step in
/// place, and everything a step causes happens before the input returns.
///
/// A value: copying a node copies its children (each in a box that is copied when a copy is
/// stepped: see ``NodeBox``), so a checker can keep a system and step a copy of it.
@usableFromInline
struct MachineNode<Engine: StoreEngine, ParentEvent: Sendable>
where
  Engine.Step == StoreStep<Engine.Definition>, Engine.Context == Engine.Definition.Context, Engine.Event == Engine.Definition.Event,
  Engine.Definition.Context: Sendable, Engine.Definition.Configuration: Sendable
{
  @usableFromInline typealias Event = Engine.Event

  /// The machine's store rules, in a box shared by copies of the node until one of them
  /// changes them (see ``core``).
  @usableFromInline var coreBox: CoreBox<Engine>
  /// The machine's store rules. Copies of a node share them until one changes them: a parent
  /// whose child stepped, and said nothing, changes only its map of children, and copying its
  /// own rules and machine for that (a chart's, its context) was a sixth of what exploring a
  /// system cost.
  @inlinable
  var core: StoreCore<Engine> {
    _read { yield coreBox.core }
    _modify {
      if !isKnownUniquelyReferenced(&coreBox) {
        // (A context held by reference, a session, is copied too: the copy that steps must not
        // change the one a checker keeps.)
        var core = coreBox.core
        core.engine.detachContext()
        coreBox = CoreBox(core)
      }
      yield &coreBox.core
    }
  }
  /// The running children, by id.
  @usableFromInline var children: [String: AnyChildNode<Event>] = [:]
  /// What a child says to its parent and when it is done (`nil`: the root's).
  @usableFromInline let kind: ChildKind<Engine.Definition, ParentEvent>?
  /// A child done from its start (a table in a state its `doneWhen` names, a chart halted in
  /// its first macrostep).
  @usableFromInline let doneAtStart: Bool
  /// Set when the child is done: it takes nothing more.
  @usableFromInline var done = false
  /// The ids of the children that ended, and the step count then (see
  /// ``Family/endedDuring(_:step:)``, which a store keeps the same way).
  @usableFromInline var ended = EndedChildren()

  @inlinable
  init(engine: Engine, kind: ChildKind<Engine.Definition, ParentEvent>?, doneAtStart: Bool = false) {
    coreBox = CoreBox(StoreCore(engine: engine, capacity: .max))
    (self.kind, self.doneAtStart) = (kind, doneAtStart)
  }

  /// Runs `body` on a stepper made from `initial` (the engine's, as a new store's is), kept on
  /// the stack: a system steps its machines on the caller's thread, and a heap stepper per
  /// input was an allocation per machine stepped.
  @inlinable
  static func withStepper<R>(
    _ initial: Engine.Stepper, _ body: (UnsafeMutablePointer<Engine.Stepper>) throws(SystemRunError) -> R
  ) throws(SystemRunError) -> R {
    try withUnsafeTemporaryAllocation(of: Engine.Stepper.self, capacity: 1) { buffer throws(SystemRunError) -> R in
      let stepper = buffer.baseAddress.unsafelyUnwrapped
      stepper.initialize(to: initial)
      defer { stepper.deinitialize(count: 1) }
      return try body(stepper)
    }
  }

  /// Starts the machine as its store's `start()` does: the start's commands are registered and
  /// performed, and what they queued is handled. Returns what it says to its parent.
  @inlinable
  mutating func begin(_ budget: inout SystemBudget) throws(SystemRunError) -> ChildSaid<ParentEvent> {
    var said = ChildSaid<ParentEvent>()
    let started = try Self.withStepper(core.engine.stepper) { stepper throws(SystemRunError) -> Bool in
      guard let (work, taken) = core.started(stepper: stepper) else { return false }
      var first = taken
      // As a store's start: the machine drains while its start's work runs, so what that work
      // says meanwhile (a child at its start) is queued and taken after it all, not inside it.
      let drains = first != nil || (!core.draining && !work.starts.isEmpty)
      if first == nil, drains {
        core.draining = true
        core.engine.lease(stepper)
      }
      try perform(work, stepper: stepper, &budget, &said)
      // What the start's work raised goes before the event it took (as a store's start does).
      if let held = first, core.mailbox.raised != 0 {
        core.mailbox.putBack([held])
        first = core.mailbox.pop()
      }
      if drains, first == nil { first = core.takeNext(stepper: stepper) }
      if let first { _ = try drain(first, stepper: stepper, &budget, &said) }
      return true
    }
    guard started else { return said }
    if doneAtStart, !done, let kind {
      done = true
      said.done = true
      if let event = kind.onDone(core.engine.context) { said.events.append(event) }
    }
    return said
  }

  /// `event` from outside (or from a child): handled with everything it causes, unless the
  /// machine refuses it. Returns the response to `event` (`nil` when it was refused).
  @inlinable
  mutating func receive(_ event: Event, force: Bool = false, _ budget: inout SystemBudget, _ said: inout ChildSaid<ParentEvent>)
    throws(SystemRunError) -> Received
  {
    try Self.withStepper(core.engine.stepper) { stepper throws(SystemRunError) -> Received in
      switch core.eventArrived(event, force: force, stepper: stepper) {
      case .drain(let first): .handled(try drain(first, stepper: stepper, &budget, &said))
      case .queued: .handled(.ignored)
      case .rejected(let reason): .refused(reason)
      }
    }
  }

  /// What became of an event a machine received.
  @usableFromInline
  enum Received {
    /// Handled, with the response to it.
    case handled(MachineResponse)
    case refused(SendRejection)
  }

  /// Handles `first`, then the mailbox until it is empty, each step committed and its work
  /// performed before the next (the store's drain, on this thread); the response to `first`.
  @inlinable
  mutating func drain(
    _ first: Event, stepper: UnsafeMutablePointer<Engine.Stepper>, _ budget: inout SystemBudget, _ said: inout ChildSaid<ParentEvent>
  ) throws(SystemRunError) -> MachineResponse {
    var event = first
    var response: MachineResponse?
    // The event for the parent when this step leaves the child done (said after its effects).
    var doneEvent: ParentEvent?
    do throws(SystemRunError) {
      while true {
        try budget.spend()
        let outcome = Engine.apply(event, on: stepper)
        if let error = Engine.failure(of: outcome) { throw SystemRunError.step(event: "\(event)", error: "\(error)") }
        var work = core.stepped(engine: stepper, outcome: outcome)
        // A message that is the step's one command is committed apart (`isMessaging(_:)`).
        let message =
          Engine.isMessaging(outcome) && !core.finished
          ? Engine.message(of: outcome).flatMap { Engine.commitMessage($0, to: &core, &work) } : nil
        let answer = Engine.response(of: outcome)
        if response == nil { response = answer }
        if answer.isHandled || !core.engine.unhandledStepsChangeNothing { budget.changed = true }
        if _slowPath(budget.log != nil) { Self.record(outcome, of: stepper, event: event, sequence: work.sequence, in: budget.log.unsafelyUnwrapped) }
        // (The step is built only for a child's rules that read it: building it for every step
        // was a fifth of what a system's step cost.)
        if let kind, !done, kind.readsSteps {
          let step = Engine.report(outcome, of: stepper, event: event, sequence: work.sequence, time: .zero)
          if let message = kind.toParent?(step) { said.events.append(message) }
          if kind.isDone?(step) == true {
            done = true
            said.done = true
            doneEvent = kind.onDone(step.context)
          }
        }
        try perform(work, stepper: stepper, &budget, &said)
        if let message { try deliver(message, findsNoChild: work.messageAfterItsChild, stepper: stepper, &budget, &said) }
        // (After what the step's effects said: an invoked chart's messages to its parent.)
        if let event = doneEvent.take() { said.events.append(event) }
        // A child that is done takes nothing more: what it still had queued is dropped.
        if done { core.mailbox = Mailbox() }
        guard let next = core.takeNext(stepper: stepper) else { break }
        event = next
      }
    } catch {
      // The stepper is handed back; the system is not stepped again (its instance failed).
      core.draining = false
      core.engine.release(stepper)
      throw error
    }
    return response ?? .ignored
  }

  /// Records a step in `log` (out of the drain loop: a checker's steps record nothing, and
  /// the report built inline made the loop larger for every step).
  @inlinable @inline(never)
  static func record(_ outcome: Engine.Outcome, of stepper: UnsafeMutablePointer<Engine.Stepper>, event: Event, sequence: Int, in log: SystemLog) {
    log.record(Engine.report(outcome, of: stepper, event: event, sequence: sequence, time: .zero))
  }

  /// Ends the children a step cancelled, starts those it invoked and delivers its messages;
  /// queues what the children say.
  @inlinable
  mutating func perform(
    _ work: StoreCore<Engine>.StepWork, stepper: UnsafeMutablePointer<Engine.Stepper>, _ budget: inout SystemBudget,
    _ said: inout ChildSaid<ParentEvent>
  ) throws(SystemRunError) {
    for effect in work.cancelled {
      guard case .invoke = effect.command, let id = effect.id else { continue }
      let child = children.removeValue(forKey: id.name)
      if child != nil { noteEnded(id.name) }
      logEnd(of: id.name, child, ChildEnd(.cancelled), budget)
    }
    for start in work.starts {
      switch start.command {
      case .invoke(let child, let id, _):
        try launch(child, id: id, token: start.token, stepper: stepper, &budget, &said)
      case .message(let message) where !message.isDelayed:
        // (A delayed one waits, as a timer does: time does not pass here.)
        try deliver(message, findsNoChild: start.isMessageAfterItsChild, stepper: stepper, &budget, &said)
      default:
        // Work is not performed and timers do not fire: what they would send comes as input.
        continue
      }
    }
  }

  /// Records in the input's log, if it has one, that the child `id` ended as `end` says, and
  /// with it `child`'s descendants (see ``SystemLog/ended(_:_:below:)``).
  @inlinable
  func logEnd(of id: String, _ child: AnyChildNode<Event>?, _ end: ChildEnd, _ budget: SystemBudget) {
    guard let log = budget.log else { return }
    var places: [PlacedChild] = []
    child?.describe(at: "", into: &places)
    // (Described at "": itself, then its descendants by their paths below it, in no order.)
    log.ended(id, end, below: places.map(\.path).filter { !$0.isEmpty }.sorted())
  }

  /// Starts `child` as the effect `token` (``Command/invoke(_:id:scope:)``).
  @inlinable
  mutating func launch(
    _ child: ChildMachine<Event>, id: EffectID, token: UInt64, stepper: UnsafeMutablePointer<Engine.Stepper>,
    _ budget: inout SystemBudget, _ said: inout ChildSaid<ParentEvent>
  ) throws(SystemRunError) {
    var heard = ChildSaid<Event>()
    var end = ChildEnd(.finished)
    var started: AnyChildNode<Event>?
    do {
      guard let make = child.parts.node else { throw ChildLaunchError<Event>(error: ChildNotRunnable(name: child.name), event: nil) }
      guard !ChildIDHoldsSlash.holds(id) else { throw ChildLaunchError<Event>(error: ChildIDHoldsSlash(id), event: nil) }
      var node = try make()
      // (Left again only when the start returns: one that throws ends the input, and its log.)
      budget.log?.enter(id.name)
      heard = try node.start(&budget)
      budget.log?.leave()
      if !heard.done, core.isActive(token) { children[id.name] = node }
      started = node
    } catch let error as SystemRunError {
      throw error
    } catch let failure as ChildLaunchError<Event> {
      heard.done = true
      end = ChildEnd(.failed, error: "\(failure.error)")
      // (What making it raised goes ahead of the queue; its failure's event behind it.)
      heard.events = failure.raised
      heard.raised = failure.raised.count
      if let event = failure.event { heard.events.append(event) }
    } catch {
      heard.done = true
      end = ChildEnd(.failed, error: "\(error)")
    }
    // Done (or failed) at its start: its effect ends, and what it said is queued.
    if heard.done, core.isActive(token) {
      _ = core.remove(token)
      logEnd(of: id.name, started, end, budget)
    }
    try queue(heard, stepper: stepper, &budget, &said)
  }

  /// The running children's places with their paths below `prefix`, and their children's.
  @inlinable
  func describeChildren(below prefix: String, into places: inout [PlacedChild]) {
    for (id, child) in children { child.describe(at: prefix.isEmpty ? id : "\(prefix)/\(id)", into: &places) }
  }
}

/// A node's ``StoreCore`` in a box of its own (see ``MachineNode/core``).
///
/// (Changed only through a node that holds it uniquely, on its caller's thread, and read
/// otherwise: its accesses need no check at run time.)
@usableFromInline
final class CoreBox<Engine: StoreEngine> {
  @exclusivity(unchecked) @usableFromInline var core: StoreCore<Engine>

  @inlinable
  init(_ core: StoreCore<Engine>) { self.core = core }
}

/// What a child node does (see ``ChildNodeOps``).
extension MachineNode {
  @inlinable
  mutating func start(_ budget: inout SystemBudget) throws(SystemRunError) -> ChildSaid<ParentEvent> { try begin(&budget) }

  @inlinable
  mutating func deliver(_ message: any Sendable, _ budget: inout SystemBudget) throws(SystemRunError)
    -> (result: SendResult, said: ChildSaid<ParentEvent>)
  {
    guard let event = cast(message, to: Event.self) else { return (.rejected(.wrongType), ChildSaid()) }
    var said = ChildSaid<ParentEvent>()
    switch try receive(event, &budget, &said) {
    case .handled: return (.accepted, said)
    case .refused(let reason): return (.rejected(reason), said)
    }
  }

  @inlinable
  mutating func route(_ message: any Sendable, to path: Substring, _ budget: inout SystemBudget) throws(SystemRunError)
    -> (result: SendResult, said: ChildSaid<ParentEvent>)
  {
    var said = ChildSaid<ParentEvent>()
    let (result, heard) = try routeDown(message, to: path, &budget)
    if !heard.events.isEmpty {
      try Self.withStepper(core.engine.stepper) { stepper throws(SystemRunError) in try queue(heard, stepper: stepper, &budget, &said) }
    }
    return (result, said)
  }

  /// The node's own place: its configuration and its context, each kept as `kind` keeps it
  /// (describing either, by reflection, was most of what a place cost).
  @inlinable
  func ownPlace(_ kind: ChildPlaceKind<Engine.Observed, Engine.Context>) -> ChildPlace {
    TypedChildPlace(configuration: core.engine.observed, context: core.engine.context, kind: kind)
  }
}
