import StateMachine

/// Runs a document chart the way an SCXML processor's event loop does, on a virtual clock: an
/// external queue (sends without delay wait there until the current macrostep ends) and
/// delayed sends due on the clock, cancellable by id. Used by `fsm conform` and `fsm run`.
///
/// A chart's `<invoke>`s run here too (SCXML §6.4, see ``ChartInvoke``): each invoked chart is a
/// session of its own, with its own queue and sends on the same clock, started at the end of
/// the macrostep that entered its state (in document order) and cancelled when the state is
/// exited; its `#_parent` messages join its parent's queue, its parent's `#_<id>` messages its
/// own, `autoforward` copies every event the parent takes to it, and its halting queues
/// `done.invoke.<id>` for its parent. Sessions take their queued events in turn, one each, the
/// root first. A message to a session that is not running raises `error.communication` in its
/// sender, as the next event it takes.
///
/// A chart that keeps sending itself events never hangs the driver: one input (the start, an
/// event, or a stretch of time) handles at most ``maxEventsPerInput`` events in all its
/// sessions, then stops with ``ChartDriverError/tooManyEvents(limit:input:states:)``; and at
/// most ``maxSessions`` charts run at once (``ChartDriverError/tooManyInvocations(limit:input:)``).
struct ChartDriver<Event: DriverEvent, Context> {
  /// The most events one input may cause, by default: sends without delay handled after it,
  /// and, while time passes, delayed sends falling due.
  static var defaultMaxEventsPerInput: Int { 10_000 }
  /// The most charts (the document and those it invoked, and theirs) running at once.
  static var maxSessions: Int { 1_000 }

  typealias DocumentChart = Chart<String, Event, Context, String>
  typealias Machine = ChartMachine<String, Event, Context, String>
  typealias Invoke = ChartInvoke<String, Event, Context, String>

  /// What the driver asks of sessions' contexts beyond stepping them: a datamodel's (see
  /// `init(_:maxEventsPerInput:datamodel:)`); a document without one needs only contexts.
  struct Hooks {
    /// Makes the context of a session: the document's (key 0) or an invoked chart's, whose
    /// data starts with `values` (JSON by id) where its invoker gave some.
    var makeContext: (_ chart: DocumentChart, _ key: Int, _ values: [String: String]) -> Context
    /// An invocation `id` starts from a session with `parent`'s context: the values it gives
    /// the invoked chart's data, and the chart it runs when that is read only now (`nil`: the
    /// invocation's own). `nil`: it does not start (its invoker was told why).
    var invoking: (_ parent: Context, _ invoke: Invoke, _ id: String) -> (values: [String: String], chart: DocumentChart?)? = { _, _, _ in
      ([:], nil)
    }
    /// The data a halted chart's done event carries (its final state's `<donedata>`).
    var doneData: (_ context: Context) -> String? = { _ in nil }
    /// The events an invocation's start raised in its invoker's context (`error.execution`),
    /// taken from it: the invoker takes them next, before its queued events, as the internal
    /// events they are.
    var raised: (_ context: Context) -> [Event] = { _ in [] }
  }

  /// One running chart: the document (key 0) or one it invoked.
  struct Session {
    var machine: Machine
    /// Events waiting for it, in order: first those it raised for itself (see ``raise(_:)``).
    var external: [Event] = []
    /// How many of the first events of `external` were raised.
    var raised = 0
    /// The invoking session's key (`nil`: the document).
    let parent: Int?
    /// The invoking session's state (an index) whose invocation this is.
    let owner: Int
    let invokeID: String
    /// The invocation it runs (`nil`: the document).
    let invoke: Invoke?
    let autoforward: Bool
    /// Invoke ids from the document down, `/`-separated (`""`: the document).
    let path: String
    /// The sessions it invoked, by key, in the order they started.
    var children: [Int] = []

    /// Queues `events`, raised for the chart (`error.communication`, an invocation's
    /// `error.execution`: SCXML's internal events), ahead of every event waiting and after those
    /// raised before them, as a store's mailbox does.
    mutating func raise(_ events: [Event]) {
      external.insert(contentsOf: events, at: raised)
      raised += events.count
    }

    /// The next event waiting.
    mutating func takeNext() -> Event {
      if raised > 0 { raised -= 1 }
      return external.removeFirst()
    }
  }

  private var sessions: [Int: Session] = [:]
  /// Session keys in the order they started (the document first): the order of turns.
  private var order: [Int] = [0]
  private var nextKey = 1
  /// The document's machine.
  var machine: Machine { sessions[0]!.machine }
  /// Milliseconds of virtual time so far.
  private(set) var now: Duration = .zero
  /// Delayed sends, each due at `due`; `target`: another chart's (a delayed message), else the
  /// session's own.
  private var pending: [(due: Duration, sequence: Int, session: Int, event: Event, id: String?, target: String?)] = []
  private var sequence = 0
  /// Effects (logs) in the order they ran; an invoked chart's led by its path in brackets.
  private(set) var effects: [String] = []

  /// The bound on events per input (see the type's summary).
  let maxEventsPerInput: Int
  /// Events handled since the current input began.
  private var handled = 0
  /// The current input, for the error.
  private var input = "(start)"

  /// What the driver asks of contexts.
  private let hooks: Hooks

  init(_ chart: DocumentChart, maxEventsPerInput: Int = Self.defaultMaxEventsPerInput, hooks: Hooks) {
    self.hooks = hooks
    var machine = Machine(chart, context: hooks.makeContext(chart, 0, [:]))
    machine.reportsTransitions = true
    // (Its steps list the states they exit, and where among their outputs: see `take`.)
    machine.tracksOwners = true
    sessions[0] = Session(machine: machine, parent: nil, owner: 0, invokeID: "", invoke: nil, autoforward: false, path: "")
    self.maxEventsPerInput = maxEventsPerInput
  }

  /// The document's active atomic states, sorted by id.
  var configuration: [String] { machine.configuration.sorted() }

  /// When the next delayed send falls due, if one is pending.
  var nextDue: Duration? { pending.map(\.due).min() }

  /// Whether the document's chart halted.
  var isHalted: Bool { machine.isHalted }

  /// The paths of the invoked charts running now, in the order they started.
  var invoked: [String] { order.dropFirst().compactMap { sessions[$0]?.path } }

  /// Starts the chart and runs its first macrostep; queued sends wait for ``drain()``.
  mutating func start() throws(ChartDriverError) {
    begin("(start)")
    let step: ChartStep<Event, String>
    do { step = try sessions[0]!.machine.start() } catch { throw .run(error) }
    try take(step, in: 0)
  }

  /// One external event (an input) for the document, and its macrostep.
  @discardableResult
  mutating func send(_ name: String) throws(ChartDriverError) -> ChartStep<Event, String> {
    begin(name)
    return try handle(.external(name), in: 0)
  }

  private mutating func begin(_ input: String) {
    (handled, self.input) = (0, input)
  }

  /// One event of the current input, taken by session `key`.
  @discardableResult
  private mutating func handle(_ event: Event, in key: Int) throws(ChartDriverError) -> ChartStep<Event, String> {
    handled += 1
    // The input's own event, then at most `maxEventsPerInput` that it causes.
    guard handled <= maxEventsPerInput + 1 else {
      throw .tooManyEvents(limit: maxEventsPerInput, input: input, states: machine.configuration)
    }
    // Before the macrostep, a copy for each invoked chart that asked for every event. (The
    // `<finalize>` of the invocation the event came from is the chart's: its machine runs it
    // as it takes the event, see `ChartMachine.finalize(_:)`.)
    for child in sessions[key]!.children where sessions[child]?.autoforward == true { sessions[child]!.external.append(event) }
    let step: ChartStep<Event, String>
    do { step = try sessions[key]!.machine.send(event) } catch { throw .run(error) }
    try take(step, in: key)
    return step
  }

  /// Handles the events waiting in every session's queue, one per session in turn, each with
  /// its macrostep, until none is left.
  mutating func drain() throws(ChartDriverError) {
    var progressed = true
    while progressed {
      progressed = false
      for key in order {
        guard let session = sessions[key], !session.external.isEmpty else { continue }
        if session.machine.isHalted {
          sessions[key]!.external.removeAll()
          sessions[key]!.raised = 0
          continue
        }
        let event = sessions[key]!.takeNext()
        try handle(event, in: key)
        progressed = true
      }
    }
  }

  /// Lets `duration` pass (an input): delayed sends fall due in order (due time, then the
  /// order they were sent), each handled with the queues it leaves behind.
  mutating func advance(by duration: Duration) throws(ChartDriverError) {
    begin("after \(duration)")
    let end = now + duration
    try drain()
    while let next = pending.indices.min(by: { (pending[$0].due, pending[$0].sequence) < (pending[$1].due, pending[$1].sequence) }),
      pending[next].due <= end
    {
      let fired = pending.remove(at: next)
      now = fired.due
      if let session = sessions[fired.session], !session.machine.isHalted {
        // A delayed send to another chart is delivered to it when due, as a message.
        if let target = fired.target {
          deliver(fired.event, to: target, from: fired.session)
        } else if let target = fired.event.deliveryTarget {
          deliver(fired.event.delivered, to: target, from: fired.session)
        } else {
          try handle(fired.event, in: fired.session)
        }
      }
      try drain()
    }
    now = end
  }

  /// A delayed send of session `key`, for it or (`target`) another chart: it replaces a pending
  /// send of the session with the same id.
  private mutating func wait(_ event: Event, after delay: Duration, id: String?, in key: Int, for target: String? = nil) {
    sequence += 1
    if let id { pending.removeAll { $0.session == key && $0.id == id } }
    pending.append((now + delay, sequence, key, event, id, target))
  }

  /// What session `key`'s macrostep asked for, then its invocations, then its end if it halted.
  /// A state's invocations are cancelled as it is exited, after its exit content and before
  /// the outputs after that (SCXML's `exitStates`): a message to one of them from there on
  /// finds no session, and raises `error.communication`. (Those of a chart that halted end
  /// after all its outputs, as a store's do.)
  private mutating func take(_ step: ChartStep<Event, String>, in key: Int) throws(ChartDriverError) {
    let path = sessions[key]!.path
    let exits = sessions[key]!.machine.isHalted ? [] : sessions[key]!.machine.lastExits
    var exited = 0
    for (position, output) in step.outputs.enumerated() {
      while exited < exits.count, exits[exited].output <= position {
        endInvocations(of: exits[exited].state, in: key)
        exited += 1
      }
      switch output {
      case .effect(let effect): effects.append(path.isEmpty ? effect : "[\(path)] \(effect)")
      case .send(let event, let delay, let id):
        if delay <= .zero {
          sessions[key]!.external.append(event)
        } else {
          wait(event, after: delay, id: id, in: key)
        }
      case .cancel(let id): pending.removeAll { $0.session == key && $0.id == id }
      case .message(let event, let target): deliver(event, to: target, from: key)
      case .delayedMessage(let message):
        // (Made by the document's reader, of the document's events.)
        guard let event = message.event(as: Event.self) else { preconditionFailure("invalid state: a message of another type: \(message)") }
        if message.delay > .zero {
          wait(event, after: message.delay, id: message.id?.name, in: key, for: message.target)
        } else {
          deliver(event, to: message.target, from: key)
        }
      @unknown default: break
      }
    }
    guard !sessions[key]!.machine.isHalted else {
      // A halted chart cancels what it invoked; an invoked one that halted is done.
      for child in sessions[key]!.children { end(child) }
      if let parent = sessions[key]!.parent {
        let id = sessions[key]!.invokeID
        let done = Event.platform("done.invoke.\(id)", invokeid: id, data: hooks.doneData(sessions[key]!.machine.context))
        end(key)
        sessions[parent]?.external.append(done)
      }
      return
    }
    try invocations(after: step, in: key)
  }

  /// Cancels the invocations of the states session `key`'s macrostep exited, and starts those
  /// of the states it entered (in document order, each state's in its order).
  private mutating func invocations(after step: ChartStep<Event, String>, in key: Int) throws(ChartDriverError) {
    // `entered` counts states from the chart's first (index 1).
    let entered = Set(step.entered.map { $0 + 1 })
    let machine = sessions[key]!.machine
    for child in sessions[key]!.children {
      guard let owner = sessions[child]?.owner else { continue }
      // Entered again (so exited first), or no longer active: exited.
      if entered.contains(owner) || !machine.isActive(at: owner) { end(child) }
    }
    let chart = machine.steppedChart
    var raised: [Event] = []
    for s in entered.sorted() where machine.isActive(at: s) {
      for (n, invoke) in chart.invokes(of: s).enumerated() {
        raised += try start(invoke, id: invoke.invocationID(inState: chart.stateLabel(s), at: n), state: s, parent: key)
      }
    }
    // (Ahead of the queue, as `error.communication` is: SCXML's internal queue, which the
    // invoker takes before any external event.)
    if !raised.isEmpty { sessions[key]?.raise(raised) }
  }

  /// Starts `invoke` as a session invoked by session `parent` from its state `state`; returns
  /// the events its start raised in the parent (see ``Hooks/raised``).
  private mutating func start(_ invoke: ChartInvoke<String, Event, Context, String>, id: String, state: Int, parent: Int) throws(ChartDriverError)
    -> [Event]
  {
    guard sessions.count < Self.maxSessions else { throw .tooManyInvocations(limit: Self.maxSessions, input: input) }
    let key = nextKey
    let invoking = hooks.invoking(sessions[parent]!.machine.context, invoke, id)
    let raised = hooks.raised(sessions[parent]!.machine.context)
    guard let started = invoking else { return raised }
    let chart = started.chart ?? invoke.chart
    var machine = Machine(chart, context: hooks.makeContext(chart, key, started.values))
    machine.reportsTransitions = true
    // (Its steps list the states they exit, and where among their outputs: see `take`.)
    machine.tracksOwners = true
    nextKey += 1
    let parentPath = sessions[parent]!.path
    sessions[key] = Session(
      machine: machine, parent: parent, owner: state, invokeID: id, invoke: invoke, autoforward: invoke.autoforward,
      path: parentPath.isEmpty ? id : parentPath + "/" + id)
    sessions[parent]!.children.append(key)
    order.append(key)
    let step: ChartStep<Event, String>
    do { step = try sessions[key]!.machine.start() } catch { throw .run(error) }
    try take(step, in: key)
    return raised
  }

  /// Delivers a message from session `key` to `target` (`#_parent` or `#_<invokeid>` of one it
  /// invoked); `error.communication` for it when there is no such session.
  private mutating func deliver(_ event: Event, to target: String, from key: Int) {
    if target == "#_parent", let parent = sessions[key]!.parent, sessions[parent] != nil {
      sessions[parent]!.external.append(event.sent(byInvocation: sessions[key]!.invokeID))
      return
    }
    let invokeID = target.dropFirst(2)
    if target.hasPrefix("#_"), let child = sessions[key]!.children.first(where: { sessions[$0]?.invokeID[...] == invokeID }) {
      sessions[child]!.external.append(event)
      return
    }
    sessions[key]!.raise([.platform("error.communication", invokeid: nil, data: nil)])
  }

  /// Cancels the sessions that session `key` invoked in its state `state`.
  private mutating func endInvocations(of state: Int, in key: Int) {
    for child in sessions[key]!.children where sessions[child]?.owner == state { end(child) }
  }

  /// Cancels session `key` and what it invoked: their queues and pending sends are dropped.
  private mutating func end(_ key: Int) {
    guard let session = sessions[key] else { return }
    for child in session.children { end(child) }
    sessions[key] = nil
    order.removeAll { $0 == key }
    pending.removeAll { $0.session == key }
    if let parent = session.parent { sessions[parent]?.children.removeAll { $0 == key } }
  }
}

/// Why the driver stopped.
enum ChartDriverError: Error, CustomStringConvertible {
  /// A macrostep did not settle.
  case run(ChartRunError)
  /// One input caused more than `limit` events: the chart (or a chart it invoked) keeps
  /// sending events.
  case tooManyEvents(limit: Int, input: String, states: [String])
  /// More than `limit` charts would run at once: invocations keep invoking.
  case tooManyInvocations(limit: Int, input: String)

  var description: String {
    switch self {
    case .run(let error): error.description
    case .tooManyEvents(let limit, let input, let states):
      "'\(input)' caused more than \(limit) events (the chart, or a chart it invoked, keeps sending events; the bound is \(limit) events per input); active: \(states.joined(separator: ", "))"
    case .tooManyInvocations(let limit, let input):
      "'\(input)' would run more than \(limit) charts at once (invoked charts keep invoking; the bound is \(limit))"
    }
  }
}

/// The driver of a document without a datamodel.
typealias DocumentDriver = ChartDriver<String, NoContext>

extension ChartDriver where Event == String, Context == NoContext {
  /// A driver of a document without a datamodel.
  init(_ chart: DocumentChart, maxEventsPerInput: Int = Self.defaultMaxEventsPerInput) {
    self.init(chart, maxEventsPerInput: maxEventsPerInput, hooks: Hooks(makeContext: { _, _, _ in NoContext() }))
  }
}

extension ChartDriver where Event == SCXMLEvent, Context == SCXMLSession {
  /// A driver of a document whose content a datamodel runs, each session on a datamodel
  /// `make` makes.
  init(_ chart: DocumentChart, maxEventsPerInput: Int = Self.defaultMaxEventsPerInput, datamodel make: @escaping @Sendable () -> any SCXMLScriptEngine) {
    let hooks = Hooks(
      makeContext: { chart, key, values in SCXMLSession(engine: make(), datamodel: make, sessionID: "session-\(key)", name: chart.name, values: values) },
      invoking: { parent, invoke, id in
        guard let script = invoke.script else { return ([:], nil) }
        return parent.invoking(script, id: id)
      },
      doneData: { $0.takeDoneData() }, raised: { $0.takeRaised() })
    self.init(chart, maxEventsPerInput: maxEventsPerInput, hooks: hooks)
  }
}
