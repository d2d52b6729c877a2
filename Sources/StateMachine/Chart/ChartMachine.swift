/// A running ``Chart``: its configuration (the active states), history, context and internal
/// queue, stepped by the W3C SCXML algorithm (Appendix D of the recommendation).
///
/// A value type with mutating methods named after what happens; it performs nothing itself.
/// ``start()`` and ``send(_:)`` each run one whole macrostep — the external event's
/// transitions, then every eventless transition and internal event until none is left — and
/// return what the caller must do: the effects, in order, and the sends and cancels for the
/// external queue (a send without delay is due after this macrostep, before the next event).
///
/// ```swift
/// var machine = ChartMachine(chart)
/// _ = try machine.start()
/// let step = try machine.send("play")
/// print(machine.configuration)   // the active atomic states, in document order
/// ```
public struct ChartMachine<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable> {
  /// What a macrostep asks the caller to do.
  public typealias Output = ChartOutput<Event, Effect>

  /// The chart this machine runs.
  public let chart: Chart<ID, Event, Context, Effect>
  /// The context the guards read and the actions update.
  public internal(set) var context: Context {
    get { storedContext }
    set { storedContext = newValue }
  }
  @usableFromInline var storedContext: Context
  @usableFromInline var active: StateBits
  /// Macrosteps already run, replayed for the same configuration and event; `nil` for charts
  /// with guards on the context (their selection cannot be planned).
  @usableFromInline var plans: PlanBook<Event, Context, Effect>?
  /// The id of the current configuration in `plans`, when known.
  @usableFromInline var configurationID: Int?
  @usableFromInline let eventName: @Sendable (Event) -> String
  @usableFromInline let eventOrdinal: (@Sendable (Event) -> Int?)?
  /// A history state was targeted or entered in this macrostep: it cannot be planned.
  @usableFromInline var historyTouched = false
  /// The set arithmetic of the configurations met so far (see ``CompiledSteps``); `nil` runs
  /// the algorithm alone (the reference the compiled steps are tested against).
  @usableFromInline var compiled: CompiledSteps? = CompiledSteps()
  /// Event names by ordinal, as ``eventName(of:)`` made them.
  @usableFromInline var names: [String?] = []
  /// The transitions the last selection enabled (kept to reuse its storage).
  @usableFromInline var selected: [Int] = []
  /// The outputs of the last step, kept to be reused by the next one once its caller lets go.
  @usableFromInline var outputBuffer: [Output] = []
  /// The node of the current configuration in `compiled`, or -1 when not known.
  @usableFromInline var node: Int32 = -1
  /// Whether steps go through ``CompiledSteps`` (on by default); off, the algorithm runs alone.
  var usesCompiledSteps: Bool {
    get { compiled != nil }
    set {
      compiled = newValue ? (compiled ?? CompiledSteps()) : nil
      node = -1
    }
  }
  /// The most plans kept (a chart with many configurations does not grow memory without bound).
  @usableFromInline static var maxPlans: Int { 4096 }
  /// History pseudo-state index → the states it remembers.
  @usableFromInline var history: [Int: [Int]] = [:]
  @usableFromInline var internalQueue: [QueuedEvent] = []
  @usableFromInline var queueHead = 0
  /// When on, each ``ChartStep`` lists the transitions taken and the states entered (for
  /// coverage tools; it costs a little on every step). Off by default.
  public var reportsTransitions: Bool {
    get { reporting }
    set { reporting = newValue }
  }
  @usableFromInline var reporting = false
  /// When on, each ``ChartStep`` says which state each output belongs to and which states
  /// were exited (for a store's state-scoped effects). Off by default.
  @usableFromInline var tracksOwners = false

  /// The chart reached a final child of its root: it takes no more events.
  public internal(set) var isHalted: Bool {
    get { halted }
    set { halted = newValue }
  }
  @usableFromInline var halted = false
  /// ``start()`` has run.
  public internal(set) var isStarted: Bool {
    get { started }
    set { started = newValue }
  }
  @usableFromInline var started = false

  /// The most microsteps one macrostep may take before it is stopped with
  /// ``ChartRunError/didNotSettle(chart:microsteps:states:)``: a chart whose eventless
  /// transitions or raised events loop forever never hangs the caller.
  public static var maxMicrosteps: Int { 10_000 }

  /// The most events the internal queue may hold at once (raised events, done events, error
  /// events) before the macrostep is stopped with
  /// ``ChartRunError/queueOverflow(chart:events:states:)``: a chart that raises many events
  /// per microstep fails before it fills memory, not after.
  public static var maxInternalEvents: Int { 10_000 }

  /// An event on the internal queue: its name for matching, and the user's value when it has one.
  @usableFromInline
  struct QueuedEvent {
    @usableFromInline let name: String
    @usableFromInline let value: Event?
    /// The event's ordinal (below 64), or -1: how compiled selections are found (-2: no event).
    @usableFromInline let ordinal: Int

    @inlinable
    init(name: String, value: Event?, ordinal: Int = -1) { (self.name, self.value, self.ordinal) = (name, value, ordinal) }

    /// No event: what eventless transitions are selected for, and what initial content sees.
    @inlinable static var eventless: QueuedEvent { QueuedEvent(name: "", value: nil, ordinal: -2) }

    /// Whether this stands for no event.
    @inlinable var isEventless: Bool { ordinal == -2 }
  }

  /// A machine at the chart's start; call ``start()`` to enter its initial states.
  public init(_ chart: Chart<ID, Event, Context, Effect>, context: Context) {
    self.chart = chart
    storedContext = context
    active = StateBits(count: chart.count)
    let plannable = chart.guards.allSatisfy { g in
      switch g?.condition {
      case nil, .inState?, .notInState?: true
      case .predicate?: false
      }
    }
    plans = plannable ? PlanBook() : nil
    eventName = chart.eventName
    eventOrdinal = chart.eventOrdinal
  }

  /// The active atomic states (the configuration SCXML traces list), in document order.
  public var configuration: [ID] { configuration(of: active) }

  /// The atomic states of `bits`, in document order.
  func configuration(of bits: StateBits) -> [ID] {
    (1..<chart.count).compactMap { bits[$0] && chart.isAtomic($0) ? chart.ids[$0] : nil }
  }

  /// Every active state (compound and parallel ones included), in document order.
  public var activeStates: [ID] { (1..<chart.count).compactMap { active[$0] ? chart.ids[$0] : nil } }

  /// Whether `state` is active.
  public func isActive(_ state: ID) -> Bool { chart.index[state].map { active[$0] } ?? false }

  /// What each history state remembers, by id: state ids, so it survives encoding.
  public var historyValues: [ID: [ID]] {
    var values: [ID: [ID]] = [:]
    for (h, states) in history { if let id = chart.ids[h] { values[id] = states.compactMap { chart.ids[$0] } } }
    return values
  }

  /// Enters the chart's initial states and runs the first macrostep.
  public mutating func start() throws(ChartRunError) -> ChartStep<Event, Effect> {
    guard !isStarted else { return ChartStep(outcome: .unhandled, outputs: [], microsteps: 0) }
    isStarted = true
    var run = makeRun(recording: false)
    node = -1
    execute(chart.tables.transitionBlocks[chart.defaultTransition[0]], value: nil, owner: 0, &run)
    enterStates([chart.defaultTransition[0]], &run)
    try settle(&run)
    return step(of: run)
  }

  /// Handles one external event and the whole macrostep it causes.
  ///
  /// - Throws: ``ChartRunError/didNotSettle(chart:microsteps:states:)`` when the macrostep
  ///   does not end within ``maxMicrosteps`` (the machine keeps the configuration it reached).
  @inlinable
  public mutating func send(_ event: Event) throws(ChartRunError) -> ChartStep<Event, Effect> {
    // The fast path, specialised in the caller's module: a macrostep already planned for this
    // configuration and event is replayed.
    if started, !halted, !reporting, let id = configurationID, plans != nil, let plan = plannedStep(from: id, event) {
      let quick = plans!.quick[plan]
      if quick.isSmallPlainMove, !tracksOwners {
        // Nothing to run but the move itself: no content, no history, one word of states.
        active.small = quick.end
        configurationID = Int(quick.endID)
        node = -1
        if quick.halts { halted = true }
        return ChartStep(outcome: .transitioned, outputs: [], microsteps: Int(quick.microsteps))
      }
      return replay(plans!.plans[plan], event: event)
    }
    return try run(event)
  }

  /// The plan recorded for `event` from configuration `id`: by the event's ordinal when it has
  /// one, else by its name.
  @inlinable
  func plannedStep(from id: Int, _ event: Event) -> Int? {
    if let ordinalOf = eventOrdinal, let ordinal = ordinalOf(event) { return plans!.plan(from: id, ordinal: ordinal) }
    return plans!.plan(from: id, event: eventName(event))
  }

  /// Runs the algorithm for one external event (and plans the macrostep when it can).
  @inlinable @inline(never)
  mutating func run(_ event: Event) throws(ChartRunError) -> ChartStep<Event, Effect> {
    if !started { _ = try start() }
    guard !halted else { return ChartStep(outcome: .halted, outputs: [], microsteps: 0) }
    let ordinal = ordinal(of: event)
    let name = eventName(of: event, ordinal: ordinal)
    if plans != nil, configurationID == nil { configurationID = plans!.id(of: active) }
    if let id = configurationID, let plan = plans?.plan(from: id, event: name) { return replay(plans!.plans[plan], event: event) }
    let from = configurationID
    configurationID = nil
    historyTouched = false
    let queued = QueuedEvent(name: name, value: event, ordinal: ordinal)
    select(for: queued)
    guard !selected.isEmpty || from != nil else { return ChartStep(outcome: .unhandled, outputs: [], microsteps: 0) }
    var run = makeRun(recording: from != nil)
    let transitioned = !selected.isEmpty
    if transitioned {
      run.external = true
      take(event: queued, &run)
      run.external = false
      try settle(&run)
    }
    if let from, !historyTouched, plans!.plans.count < Self.maxPlans {
      var plan = run.plan!.value
      plan.end = active
      plan.endID = plans!.id(of: active)
      plan.halted = isHalted
      plan.microsteps = run.microsteps
      plan.transitioned = transitioned
      plan.taken = run.trace!.taken
      plan.entered = run.trace!.entered
      plan.exits = run.trace!.exits
      plans!.add(plan, from: from, event: name, ordinal: ordinal >= 0 ? ordinal : nil)
      configurationID = plan.endID
    }
    guard transitioned else {
      outputBuffer = run.outputs
      return ChartStep(outcome: .unhandled, outputs: [], microsteps: 0)
    }
    return step(of: run)
  }

  /// Runs a recorded macrostep again: its content in order (updates see this event), its
  /// history writes, and its end configuration.
  @inlinable
  mutating func replay(_ plan: ChartPlan<Event, Context, Effect>, event: Event) -> ChartStep<Event, Effect> {
    guard plan.transitioned else { return ChartStep(outcome: .unhandled, outputs: [], microsteps: 0) }
    var outputs: [Output] = []
    swap(&outputs, &outputBuffer)
    outputs.removeAll(keepingCapacity: true)
    var owners: [Int] = []
    if !plan.actions.isEmpty {
    for (position, (action, source)) in plan.actions.enumerated() {
      var output: Output?
      switch action {
      case .effect(let effect): output = .effect(effect)
      case .send(let sent, let delay, let id): output = .send(sent, after: delay, id: id)
      case .cancel(let id): output = .cancel(id)
      case .make(_, let make):
        let made = switch source {
        case .external: make(storedContext, event)
        case .recorded(let value): make(storedContext, value)
        }
        output = made.map { .effect($0) }
      case .update(_, let update):
        switch source {
        case .external: update(&storedContext, event)
        case .recorded(let value): update(&storedContext, value)
        }
      case .raise, .error: break  // their transitions are part of the plan
      }
      if let output {
        outputs.append(output)
        if tracksOwners { owners.append(plan.owners[position]) }
      }
    }
    }
    if !plan.historyWrites.isEmpty { for (h, states) in plan.historyWrites { history[h] = states } }
    active = plan.end
    node = -1
    configurationID = plan.endID
    if plan.halted { halted = true }
    outputBuffer = outputs
    guard reporting || tracksOwners else { return ChartStep(outcome: .transitioned, outputs: outputs, microsteps: plan.microsteps) }
    return ChartStep(
      outcome: .transitioned, outputs: outputs, microsteps: plan.microsteps,
      trace: ChartTrace(
        transitions: reporting ? plan.taken : [], entered: reporting ? plan.entered : [], owners: owners,
        exits: tracksOwners ? plan.exits : []))
  }

  /// Eventless transitions, then internal events, until neither is left (or the chart halts).
  @inlinable
  mutating func settle(_ run: inout Run) throws(ChartRunError) {
    while !isHalted {
      guard internalQueue.count - queueHead <= Self.maxInternalEvents else {
        throw overflow()
      }
      select(for: .eventless)
      var event = QueuedEvent.eventless
      if selected.isEmpty {
        guard queueHead < internalQueue.count else { break }
        event = internalQueue[queueHead]
        queueHead += 1
        select(for: event)
      }
      if !selected.isEmpty {
        guard run.microsteps < Self.maxMicrosteps else { throw didNotSettle(run.microsteps) }
        take(event: event, &run)
      }
    }
    if !internalQueue.isEmpty { internalQueue.removeAll(keepingCapacity: true) }
    queueHead = 0
  }

  /// Selects the transitions enabled for `event` into ``selected``: compiled when the machine
  /// compiles its steps.
  @inlinable
  mutating func select(for event: QueuedEvent) {
    if compiled != nil { selectCompiled(for: event) } else { selected = selectTransitions(for: event) }
  }

  /// Takes the ``selected`` transitions together: compiled when the machine compiles its steps.
  @inlinable
  mutating func take(event: QueuedEvent, _ run: inout Run) {
    let enabled = selected
    if compiled != nil { microstepCompiled(enabled, event: event, &run) } else { microstep(enabled, event: event, &run) }
  }

  /// The internal queue overflowed: it is dropped, and the error says how full it was.
  @usableFromInline
  mutating func overflow() -> ChartRunError {
    let waiting = internalQueue.count - queueHead
    clearInternalQueue()
    return .queueOverflow(chart: chart.name, events: waiting, states: configuration.map { "\($0)" })
  }

  /// The macrostep took too many microsteps: the queue is dropped.
  @usableFromInline
  mutating func didNotSettle(_ microsteps: Int) -> ChartRunError {
    clearInternalQueue()
    return .didNotSettle(chart: chart.name, microsteps: microsteps, states: configuration.map { "\($0)" })
  }

  /// The name of `event`: kept per ordinal, so an event with one is named once.
  @inlinable
  mutating func eventName(of event: Event) -> String {
    eventName(of: event, ordinal: ordinal(of: event))
  }

  /// The ordinal of `event` when it has one below 64, else -1.
  @inlinable
  func ordinal(of event: Event) -> Int {
    guard let ordinal = eventOrdinal?(event), ordinal >= 0, ordinal < 64 else { return -1 }
    return ordinal
  }

  /// The name of `event`, whose ordinal (below 64, or -1) is known.
  @inlinable
  mutating func eventName(of event: Event, ordinal: Int) -> String {
    guard ordinal >= 0 else { return eventName(event) }
    if ordinal < names.count, let name = names[ordinal] { return name }
    if names.count <= ordinal { names += repeatElement(nil, count: ordinal + 1 - names.count) }
    let name = eventName(event)
    names[ordinal] = name
    return name
  }

  /// A stopped macrostep's queue is dropped (with its capacity), so the next event starts clean.
  @usableFromInline
  mutating func clearInternalQueue() {
    internalQueue = []
    queueHead = 0
  }
}

extension ChartMachine: Sendable where Context: Sendable {}
extension ChartMachine.QueuedEvent: Sendable {}
