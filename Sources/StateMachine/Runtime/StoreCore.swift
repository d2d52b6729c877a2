/// The store's state, kept behind its lock: the machine, the mailbox, and the running effects.
/// Its mutating methods are named after what happens and return what the caller must do
/// outside the lock (start or cancel work, notify observers), in the style of swift-nio's
/// state machines.
struct StoreCore<State: Discriminated, Event: Discriminated, Context, Work: Sendable> {
  typealias Effect = Command<Event, Work>

  /// What is running for a token.
  enum Handle {
    case pending  // registered, its task or timer not attached yet
    case task(Task<Void, Never>)
    case manualTimer(UInt64)
  }

  struct Running {
    let id: EffectID?
    let scope: EffectScope
    /// The state index the machine was in after the step that started it.
    let stateIndex: Int
    let description: String
    var handle: Handle
    let isPerform: Bool
  }

  /// A piece of work to start outside the lock.
  struct Start {
    let token: UInt64
    let command: Effect
  }

  /// What the caller does after one step.
  struct StepWork {
    var step: StoreStep<State, Event, Effect>?
    var starts: [Start]
    var cancelled: [Running]
  }

  var machine: Machine<State, Event, Context, Effect>
  var mailbox = Mailbox<Event>()
  let capacity: Int?
  var draining = false
  var finished = false
  var steps = 0
  var nextToken: UInt64 = 0
  var running: [UInt64: Running] = [:]
  var byID: [EffectID: UInt64] = [:]
  /// Perform tasks started and not finished, and how many of them sleep on a manual clock.
  var activeTasks = 0
  var sleeping = 0
  var idleWaiters: [CheckedContinuation<Void, Never>] = []
  var spaceWaiters: [CheckedContinuation<Void, Never>] = []

  var isIdle: Bool { !draining && mailbox.isEmpty && activeTasks == sleeping }
  var isFull: Bool { capacity.map { mailbox.count >= $0 } ?? false }

  enum Enqueued {
    case drain, queued
    case rejected(SendRejection)
  }

  /// An event arrives from outside (or from a timer or effect).
  mutating func eventArrived(_ event: Event, force: Bool = false) -> Enqueued {
    if finished { return .rejected(.finished) }
    if !force, isFull { return .rejected(.mailboxFull) }
    mailbox.append(event)
    if draining { return .queued }
    draining = true
    return .drain
  }

  /// The drainer takes the next event and a copy of the machine to step outside the lock;
  /// `nil` when the mailbox is empty (draining stops).
  mutating func takeNext() -> (Event, Machine<State, Event, Context, Effect>)? {
    guard !finished, let event = mailbox.pop() else {
      draining = false
      return nil
    }
    return (event, machine)
  }

  /// The drainer stepped `machine` (taken with ``takeNext()``) on `event`: keep it, cancel what
  /// the step ends, register what it starts.
  mutating func stepped(
    _ event: Event, machine stepped: Machine<State, Event, Context, Effect>, from: State, fromIndex: Int,
    outcome: StepOutcome<State, Effect>
  ) -> StepWork {
    machine = stepped
    steps += 1
    var work = StepWork(
      step: StoreStep(sequence: steps, event: event, from: from, to: machine.state, outcome: outcome), starts: [],
      cancelled: [])
    guard !finished else { return work }
    if case .transitioned = outcome {
      // State-scoped effects of the state left are cancelled before the new ones start.
      for (token, effect) in running where effect.scope == .state && effect.stateIndex == fromIndex {
        work.cancelled.append(remove(token))
      }
    }
    for command in outcome.effects { register(command, into: &work) }
    return work
  }

  /// The initial state's entry effects, registered like a step's.
  mutating func started(_ effects: [Effect]) -> StepWork? {
    guard !finished else { return nil }
    var work = StepWork(step: nil, starts: [], cancelled: [])
    for command in effects { register(command, into: &work) }
    return work
  }

  private mutating func register(_ command: Effect, into work: inout StepWork) {
    let id: EffectID?
    let scope: EffectScope
    switch command {
    case .cancel(let target):
      if let token = byID[target] { work.cancelled.append(remove(token)) }
      return
    case .perform(_, let i, let s), .send(_, _, let i, let s): (id, scope) = (i, s)
    case .every(_, _, let i, let s): (id, scope) = (i, s)
    }
    if let id, let old = byID[id] { work.cancelled.append(remove(old)) }  // a new one replaces it
    nextToken += 1
    let isPerform: Bool
    if case .perform = command { isPerform = true } else { isPerform = false }
    running[nextToken] = Running(
      id: id, scope: scope, stateIndex: machine.index, description: command.description, handle: .pending,
      isPerform: isPerform)
    if let id { byID[id] = nextToken }
    if isPerform { activeTasks += 1 }
    work.starts.append(Start(token: nextToken, command: command))
  }

  /// Forgets a running effect and returns it, so the caller can cancel its handle.
  mutating func remove(_ token: UInt64) -> Running {
    let effect = running.removeValue(forKey: token)!
    if let id = effect.id, byID[id] == token { byID[id] = nil }
    return effect
  }

  /// Attaches the task or timer of a started effect; `false` when it was cancelled meanwhile.
  mutating func attach(_ handle: Handle, to token: UInt64) -> Bool {
    guard running[token] != nil else { return false }
    running[token]!.handle = handle
    return true
  }

  /// Whether an effect's result may still be delivered.
  func isActive(_ token: UInt64) -> Bool { running[token] != nil && !finished }

  /// A perform task ended (finished, failed or cancelled).
  mutating func taskEnded(_ token: UInt64) -> Running? {
    activeTasks -= 1
    return running[token] != nil ? remove(token) : nil
  }

  /// Continuations to resume now that the store may be idle or have room.
  mutating func waitersToResume() -> [CheckedContinuation<Void, Never>] {
    var resume: [CheckedContinuation<Void, Never>] = []
    if isIdle {
      resume += idleWaiters
      idleWaiters = []
    }
    while !spaceWaiters.isEmpty, !isFull || finished {
      resume.append(spaceWaiters.removeFirst())
      if !finished { break }
    }
    return resume
  }

  /// Every waiter, when the store finishes.
  mutating func drainWaiters() -> [CheckedContinuation<Void, Never>] {
    defer { (idleWaiters, spaceWaiters) = ([], []) }
    return idleWaiters + spaceWaiters
  }

  /// Everything is cancelled; no event is accepted any more.
  mutating func finish() -> [Running] {
    finished = true
    mailbox = Mailbox()
    byID = [:]
    defer { running = [:] }
    return Array(running.values)
  }
}
