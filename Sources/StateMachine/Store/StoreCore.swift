/// The store's state, kept behind its lock: the engine (a table's or a chart's machine), the
/// mailbox, and the running effects. Its mutating methods are named after what happens and
/// return what the caller must do outside the lock (start or cancel work, notify observers), in
/// the style of swift-nio's state machines.
@usableFromInline
struct StoreCore<Engine: StoreEngine> {
  @usableFromInline typealias Event = Engine.Event
  @usableFromInline typealias Work = Engine.Work
  @usableFromInline typealias Effect = Command<Event, Work>

  /// How a perform effect's work ended.
  @usableFromInline
  enum Ending {
    case returned
    case threw(any Error)
  }

  /// A piece of work to start outside the lock.
  @usableFromInline
  struct Start {
    @usableFromInline let token: UInt64
    @usableFromInline let command: Effect

    @usableFromInline
    init(token: UInt64, command: Effect) { (self.token, self.command) = (token, command) }

    /// A message its step sent after that step had cancelled its child (a chart's message
    /// after the exit of the state that invoked the child: SCXML cancels a state's invocations
    /// as it is exited): refused as sent to no child, as SCXML's `error.communication` says.
    /// Its token is ``afterItsChild``.
    @inlinable
    init(messageAfterItsChild command: Effect) { (token, self.command) = (Self.afterItsChild, command) }

    /// The token of a message sent after its step cancelled its child: 0, which no running
    /// effect has (tokens count from 1).
    @inlinable
    static var afterItsChild: UInt64 { 0 }

    /// Whether it is a message sent after its step cancelled its child (see
    /// ``init(messageAfterItsChild:)``).
    @inlinable
    var isMessageAfterItsChild: Bool { token == Self.afterItsChild }
  }

  /// What the caller does after one step: cancel and start effects.
  @usableFromInline
  struct StepWork {
    /// The step's number.
    @usableFromInline var sequence: Int
    @usableFromInline var starts: [Start] = []
    @usableFromInline var cancelled: [Running] = []
    /// A messaging step's one message (``StoreEngine/isMessaging(_:)``) was sent after the step
    /// cancelled its child: it is refused as sent to no child (see
    /// ``Start/init(messageAfterItsChild:)``).
    @usableFromInline var messageAfterItsChild = false

    @inlinable
    init(sequence: Int) { self.sequence = sequence }
  }

  // (The fields are ordered so that the flags and the 32-bit counts share words: an idle
  // store's size is most of what it costs.)
  @usableFromInline var engine: Engine
  @usableFromInline var mailbox = Mailbox<Event>()
  @usableFromInline var draining = false
  @usableFromInline var finished = false
  /// The engine halted (a chart reached its top-level final state): events are refused.
  @usableFromInline var halted = false
  /// ``Store/start()`` was called (it does its work once).
  @usableFromInline var hasStarted = false
  /// Perform tasks started and not finished, and how many of them sleep on a manual clock.
  @usableFromInline var activeTasks: Int32 = 0
  @usableFromInline var sleeping: Int32 = 0
  /// The mailbox's capacity (`UInt32.max`: unbounded; a larger bound is kept as one less).
  @usableFromInline let bound: UInt32
  @usableFromInline var steps = 0
  @usableFromInline var nextToken: UInt64 = 0
  @usableFromInline var running: [UInt64: Entry] = [:]
  @usableFromInline var byID: [EffectID: UInt64] = [:]
  /// The running state-scoped effects of each owner, so leaving a state looks at its own
  /// effects only (not at every effect in flight).
  @usableFromInline var owned: [Int: OwnedTokens] = [:]
  /// Those waiting on the store, effects whose end is deferred, and its children, once it has
  /// any.
  @usableFromInline var rare: Rare?

  /// `capacity`: `Int.max` for an unbounded mailbox.
  @inlinable
  init(engine: Engine, capacity: Int) {
    self.engine = engine
    bound = capacity == .max ? .max : UInt32(clamping: min(capacity, Int(UInt32.max) - 1))
    halted = engine.haltedBeforeStart
  }

  /// The mailbox's capacity (`Int.max`: unbounded).
  @inlinable var capacity: Int { bound == .max ? .max : Int(bound) }
  /// Nothing drains, nothing is queued, every perform task sleeps on a manual clock (or none
  /// runs) but `besides` of them (the work that asks, if it is one), and no ended effect's end
  /// is still being told (``endPending()``).
  @inlinable
  func isIdle(besides: Int32 = 0) -> Bool { !draining && mailbox.isEmpty && activeTasks - besides <= sleeping && !endsPending }
  @inlinable var isFull: Bool { mailbox.count >= capacity }

  @usableFromInline
  enum Enqueued {
    /// Nobody was draining: the caller drains, starting with this event.
    case drain(Event)
    case queued
    case rejected(SendRejection)
  }

  /// An event arrives from outside (or from a timer or effect). When it makes its caller the
  /// drainer, the engine leases `stepper` (the store's, beside the lock) for it.
  @inlinable @inline(__always)
  mutating func eventArrived(_ event: Event, force: Bool = false, stepper: UnsafeMutablePointer<Engine.Stepper>) -> Enqueued {
    if finished { return .rejected(.finished) }
    if halted { return .rejected(.halted) }
    if !force, isFull { return .rejected(.mailboxFull) }
    if draining {
      mailbox.append(event)
      return .queued
    }
    // Nobody drains, so the mailbox is empty: the event goes straight to the caller.
    draining = true
    engine.lease(stepper)
    return .drain(event)
  }

  /// An event the store raises for its own machine (an undelivered message's
  /// ``StoreEngine/communicationError``, the events an invocation raised as it started): queued
  /// ahead of every event queued, after those raised before it (SCXML's internal queue, which
  /// the machine takes before any external event). When it makes its caller the drainer, the
  /// caller drains, starting with it.
  @usableFromInline
  mutating func eventRaised(_ event: Event, stepper: UnsafeMutablePointer<Engine.Stepper>) -> Enqueued {
    if finished { return .rejected(.finished) }
    if halted { return .rejected(.halted) }
    mailbox.insertRaised(event)
    if draining { return .queued }
    draining = true
    engine.lease(stepper)
    return .drain(mailbox.pop().unsafelyUnwrapped)
  }

  /// Whether the drainer may take the whole mailbox at once and step quiet events
  /// (``StoreEngine/isQuiet(_:)``) without committing each: nothing bounds the mailbox (a
  /// batch in hand would not count against it), no state-scoped effect runs (only the drainer
  /// registers one, and a quiet step registers none, so none starts while it holds the
  /// batch), and the store has not finished.
  @inlinable
  var mayBatch: Bool { capacity == .max && owned.isEmpty && !finished }

  /// The next queued event, if any, for the drainer, which stays the drainer either way.
  @inlinable
  mutating func takeQueued() -> Event? {
    guard !finished else { return nil }
    return mailbox.pop()
  }

  /// The drainer takes the next event to step outside the lock (on its stepper, which only it
  /// changes); `nil` when the mailbox is empty (draining stops, and the stepper is released).
  @inlinable
  mutating func takeNext(stepper: UnsafeMutablePointer<Engine.Stepper>) -> Event? {
    guard !finished, !mailbox.isEmpty, let event = mailbox.pop() else {
      draining = false
      engine.release(stepper)
      return nil
    }
    return event
  }

  /// The drainer stepped its engine to `outcome`: keep it (this copy is what readers see),
  /// cancel what the step ends, register what it starts.
  @inlinable
  mutating func stepped(engine stepped: UnsafePointer<Engine.Stepper>, outcome: Engine.Outcome) -> StepWork {
    engine.adopt(stepped)
    steps += 1
    var work = StepWork(sequence: steps)
    // A step that was running when the store finished completes, but starts nothing.
    guard !finished else { return work }
    Engine.commit(outcome, stepped: stepped, to: &self, &work)
    fileCancelledTasks(of: work)
    return work
  }

  /// The engine's start effects, registered like a step's; and, when the start queued events
  /// and nobody drains, the first of them for the caller to drain.
  @inlinable
  mutating func started(stepper: UnsafeMutablePointer<Engine.Stepper>, committingStart: Bool = true) -> (StepWork, drain: Event?)? {
    guard !finished, !hasStarted else { return nil }
    hasStarted = true
    var work = StepWork(sequence: 0)
    // (A store restored from a snapshot asks for no start effects: it is not entering a state.)
    if committingStart {
      Engine.commitStart(to: &self, &work)
      fileCancelledTasks(of: work)
    }
    guard !draining, let first = mailbox.pop() else { return (work, nil) }
    draining = true
    engine.lease(stepper)
    return (work, first)
  }

  /// The state `owner` was left: its state-scoped effects are cancelled.
  @inlinable
  mutating func left(_ owner: Int, into work: inout StepWork) {
    guard !owned.isEmpty, let tokens = owned.removeValue(forKey: owner) else { return }
    // (In the order they started; each is no longer owned: removed without looking it up.)
    work.cancelled.append(remove(tokens.first, owned: false))
    for token in tokens.more { work.cancelled.append(remove(token, owned: false)) }
  }

  /// The engine halted: every running effect and timer is cancelled, and no event is accepted.
  @usableFromInline
  mutating func halt(into work: inout StepWork) {
    halted = true
    for token in runningTokens { work.cancelled.append(remove(token)) }
  }

  /// The tokens of every running effect and child, in the order they started.
  @usableFromInline
  var runningTokens: [UInt64] { (Array(running.keys) + (family.map { Array($0.children.keys) } ?? [])).sorted() }

  /// Whether no effect or child runs.
  @inlinable
  var nothingRuns: Bool { running.isEmpty && (family?.children.isEmpty ?? true) }

  /// How many effects and children run.
  @inlinable
  var runningCount: Int { running.count + (family?.children.count ?? 0) }

  @inlinable
  mutating func register(_ command: Effect, owner: Int, into work: inout StepWork) {
    switch command {
    case .cancel(let target):
      if let token = token(of: target) { work.cancelled.append(remove(token)) }
      return
    case .message(let message) where !message.isDelayed:
      // Delivered when the step's work is done, and over then: nothing keeps running. (A
      // delayed one runs as a timer does, until it is due or cancelled.)
      nextToken += 1
      work.starts.append(Start(token: nextToken, command: command))
      return
    default:
      break
    }
    let (token, replaced) = enroll(command, owner: owner)
    if let replaced { work.cancelled.append(replaced) }  // a new one replaces it
    if case .perform = command { activeTasks += 1 }
    work.starts.append(Start(token: token, command: command))
  }

  /// The running effect or child named `id`: among a few ids, found by comparing them one by
  /// one (`scanningIndex(forKey:)`; hashing the id, a string, was a fifth of a step that
  /// cancels what does not run).
  @inlinable
  func token(of id: EffectID) -> UInt64? { byID.scanningIndex(forKey: id).map { byID.values[$0] } }

  /// Files `command` as a running effect belonging to state `owner`, by the id and scope its
  /// command says, its handle to be attached; returns its token, and the effect of the same id
  /// it replaces (forgotten here: the caller cancels it).
  @inlinable
  mutating func enroll(_ command: Effect, owner: Int) -> (token: UInt64, replaced: Running?) {
    let (id, scope) = (command.runningID, command.scope)
    var replaced: Running?
    if let id, let old = token(of: id) { replaced = remove(old) }
    nextToken += 1
    running[nextToken] = Entry(owner: owner, command: command, handle: .pending)
    if let id { byID[id] = nextToken }
    if scope == .state {
      if let index = owned.index(forKey: owner) { owned.values[index].append(nextToken) } else { owned[owner] = OwnedTokens(nextToken) }
    }
    return (nextToken, replaced)
  }

  /// Forgets a running effect and returns it, so the caller can cancel its handle. `owned`:
  /// its state may still own it (not when that state's effects were taken already).
  @inlinable
  mutating func remove(_ token: UInt64, owned isOwned: Bool = true) -> Running {
    let effect: Running
    if let entry = running.removeValue(forKey: token) {
      effect = Running(token: token, entry: entry)
    } else if let family, let child = family.children.removeValue(forKey: token) {
      effect = Running(token: token, child: child)
    } else {
      preconditionFailure("invalid state: no running effect or child has the token \(token)")
    }
    // (Removed where it was found: found, then removed by its id, it was looked up twice.)
    if let id = effect.id, let index = byID.scanningIndex(forKey: id), byID.values[index] == token { byID.remove(at: index) }
    if case .child = effect.handle, let family {
      family.last = nil
      // (Its step's later messages to it are refused as to a store that finished, with no error.)
      if let id = effect.id { family.noteEnded(id.name, atStep: steps) }
    }
    if isOwned, effect.scope == .state, let index = owned.index(forKey: effect.owner), !owned.values[index].remove(token) {
      owned.remove(at: index)
    }
    return effect
  }

  /// Attaches the task or timer of a started effect; `false` when it was cancelled meanwhile.
  @inlinable
  mutating func attach(_ handle: Handle, to token: UInt64) -> Bool {
    guard running[token] != nil else {
      if let rare, rare.deferred[token] != nil, case .task(let task) = handle { rare.deferred[token]!.task = task }
      return false
    }
    running[token]!.handle = handle
    return true
  }

  /// Whether an effect's result may still be delivered.
  @inlinable
  func isActive(_ token: UInt64) -> Bool {
    (running[token] != nil || family?.children[token] != nil) && !finished && !halted
  }

  /// What to report when a perform task ends.
  @usableFromInline
  enum TaskEnd {
    /// Already reported (cancelled); nothing more.
    case nothing
    case finished
    /// Its work threw while it was still running: the error goes to the failure mapping.
    case failed
    /// It was cancelled by a step its own event caused; reported now.
    case cancelled
  }

  /// A perform task ended: say what to report. It is forgotten either way.
  @inlinable
  mutating func taskEnded(_ token: UInt64, _ ending: Ending) -> TaskEnd {
    activeTasks -= 1
    if let rare, !rare.cancelledTasks.isEmpty { rare.cancelledTasks.removeValue(forKey: token) }
    if let rare, let late = rare.deferred.removeValue(forKey: token) {
      if case .returned = ending, !late.dropped { return .finished }
      return .cancelled
    }
    guard running[token] != nil else { return .nothing }
    _ = remove(token)
    if case .threw(let error) = ending, !(error is CancellationError) { return .failed }
    return .finished
  }

  /// No event is accepted any more; returns the events still queued, which will never be handled.
  mutating func beginFinishing() -> [Event] {
    finished = true
    var dropped: [Event] = []
    while let event = mailbox.pop() { dropped.append(event) }
    mailbox = Mailbox()
    return dropped
  }

  /// Every running effect, to cancel, and the tasks to wait for besides theirs: those of the
  /// effects whose end is still to be reported, and those of effects a step cancelled whose
  /// work has not returned.
  mutating func cancelAll() -> (cancelled: [Running], awaited: [Task<Void, Never>]) {
    (byID, owned) = ([:], [:])
    family?.last = nil
    defer { running = [:] }
    var cancelled = running.map { Running(token: $0.key, entry: $0.value) }
    if let family {
      cancelled += family.children.map { Running(token: $0.key, child: $0.value) }
      family.children = [:]
    }
    cancelled.sort { $0.token < $1.token }
    guard let rare else { return (cancelled, []) }
    return (cancelled, rare.deferred.values.compactMap(\.task) + rare.cancelledTasks.values)
  }
}
