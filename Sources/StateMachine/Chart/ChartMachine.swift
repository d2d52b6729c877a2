/// A running ``Chart``: its configuration (the active states), history, context and internal
/// queue, stepped by the W3C SCXML algorithm (Appendix D of the recommendation).
///
/// A value type with mutating methods named after what happens; it performs nothing itself.
/// ``start()`` and `send(_:)` each run one whole macrostep — the external event's
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
  @usableFromInline package typealias Output = ChartOutput<Event, Effect>

  /// The chart this machine runs.
  public let chart: Chart<ID, Event, Context, Effect>
  /// The context the guards read and the actions update.
  public internal(set) var context: Context {
    get { storedContext }
    set {
      storedContext = newValue
      contextWritten = true
    }
  }
  @usableFromInline var storedContext: Context
  @usableFromInline var active: StateBits
  /// How the chart names an event (kept by the chart: a machine is a few words smaller).
  @inlinable var eventName: @Sendable (Event) -> String { chart.tables.eventName }
  /// The chart's event numbering, when it has one.
  @inlinable var eventOrdinal: (@Sendable (Event) -> Int?)? { chart.tables.eventOrdinal }
  /// The set arithmetic of the configurations met so far (see ``CompiledSteps``), behind one
  /// reference shared with the chart's other machines until this one learns more.
  @usableFromInline var compiledStorage: CompiledStorage
  /// The compiled steps, copied before a write when they are shared. Hot paths read
  /// `compiledStorage.steps` directly: a `_read` that is not inlined allocates a frame for a
  /// value this large.
  @inlinable
  var compiled: CompiledSteps {
    _read { yield compiledStorage.steps }
    _modify {
      if !isKnownUniquelyReferenced(&compiledStorage) { compiledStorage = CompiledStorage(compiledStorage.steps) }
      yield &compiledStorage.steps
    }
  }
  /// The size of `compiled` (``CompiledSteps/size``) when it was last handed to the chart.
  @usableFromInline var published = 0
  /// The transitions the last selection enabled (kept to reuse its storage).
  @usableFromInline var selected: [Int] = []
  /// The outputs of the last step, kept to be reused by the next one once its caller lets go.
  @usableFromInline var outputBuffer: [Output] = []
  /// When the machine tracks owners: per output of the last step, the state (an index of the
  /// chart) it belongs to. A state's entry content and its initial content belong to it, a
  /// transition's content to its source when it has no target, else to the nearest state
  /// holding its targets; exit content to the parent of the state left.
  @usableFromInline var lastOwners: [Int] = []
  /// When the machine tracks owners: the states the last macrostep exited, in order (see
  /// ``lastExits``).
  @usableFromInline var exitBuffer: [ChartExit] = []
  /// The compiled move of the last step when it was a quick one (its exits are the move's, and
  /// are listed only when asked for), or -1.
  @usableFromInline var quickExits: Int32 = -1
  /// When the machine tracks owners: the states the last step exited, in order.
  @inlinable
  package var lastExits: [ChartExit] { quickExits >= 0 ? exits(ofMove: quickExits) : exitBuffer }
  /// The node of the current configuration in `compiled`, or -1 when not known.
  @usableFromInline var node: Int32 = -1
  /// Whether steps go through the compiled steps (on by default); off, the SCXML algorithm runs
  /// alone: the reference the compiled steps are checked against (by the tests, and by
  /// `fsm bench --workload identity`). Not part of the stable API.
  @_spi(Reference)
  public var usesCompiledSteps: Bool {
    get { compiles }
    set {
      compiles = newValue
      node = -1
    }
  }
  /// History pseudo-state index → the states it remembers.
  @usableFromInline var history: [Int: [Int]] = [:]
  @usableFromInline var internalQueue: [QueuedEvent] = []
  @usableFromInline var queueHead = 0
  /// When on, each ``ChartStep`` lists the transitions taken and the states entered (for
  /// coverage tools; it costs a little on every step). Off by default.
  package var reportsTransitions: Bool {
    get { reporting }
    set {
      reporting = newValue
      // Reporting replaces coverage: a step's trace is then made for it alone.
      if newValue { coverage = nil }
    }
  }
  /// The coverage a checker gathers over all macrosteps (see ``ChartMachine+Checking``), or
  /// `nil`.
  @usableFromInline var coverage: Trace? {
    didSet { quickNotes = tracksOwners || coverage != nil }
  }
  /// Whether each step lists its transitions (``reportsTransitions``).
  @usableFromInline var reporting = false
  /// When on, each step keeps which state each output belongs to and which states were exited
  /// (``lastOwners``, ``lastExits``: for a store's state-scoped effects). Off by default.
  @usableFromInline package var tracksOwners = false {
    didSet { quickNotes = tracksOwners || coverage != nil }
  }
  /// Whether a quick step has anything to note (owners and exits, or coverage): one flag for
  /// the quick lane to test, kept by the two it stands for.
  @usableFromInline var quickNotes = false

  /// The chart reached a final child of its root: it takes no more events.
  public internal(set) var isHalted: Bool {
    get { halted }
    set { halted = newValue }
  }
  @usableFromInline var halted = false
  /// ``start()`` has run.
  @usableFromInline package internal(set) var isStarted: Bool {
    get { started }
    set { started = newValue }
  }
  @usableFromInline var started = false
  /// Whether steps go through `compiled`; off, the algorithm runs alone (the reference the
  /// compiled steps are tested against). (Declared beside the other flags: a machine is a
  /// word smaller than with it between two references.)
  @usableFromInline var compiles = true
  /// Whether content that only makes outputs (effects, sends, cancels) is skipped: for
  /// checkers, which read the configuration and context alone (see ``_discardOutputs()``).
  @usableFromInline var discardsOutputs = false
  /// Whether content wrote the context since the machine was last put back (``place(active:history:context:halted:node:)``):
  /// a checker that finds it unwritten knows the context is the one it put back.
  @usableFromInline var contextWritten = false

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
  ///
  /// (Inlinable: made specialised for your types where you make it.)
  @inlinable
  public init(_ chart: Chart<ID, Event, Context, Effect>, context: Context) {
    self.chart = chart
    storedContext = context
    active = StateBits(count: chart.count)
    compiledStorage = chart.tables.learnt.withLock { $0 }
    published = compiledStorage.steps.size
    // Every external event is copied to the invocations that forward (see `forwardingRun`):
    // none takes a compiled lane that would pass them by, and every machine knows which
    // states a macrostep exited (a replay's as a store's).
    if chart.tables.hasForwards { (compiles, tracksOwners) = (false, true) }
  }

  /// The active atomic states (the configuration SCXML traces list), in document order.
  @inlinable
  public var configuration: [ID] { configuration(of: active) }

  /// The atomic states of `bits`, in document order.
  @inlinable
  func configuration(of bits: StateBits) -> [ID] { chart.configuration(of: bits) }

  /// Every active state (compound and parallel ones included), in document order.
  @inlinable
  public var activeStates: [ID] { chart.activeStates(of: active) }

  /// Whether `state` is active.
  public func isActive(_ state: ID) -> Bool { chart.isActive(state, in: active) }

  /// What each history state remembers, by id: state ids, so it survives encoding.
  @inlinable
  package var historyValues: [ID: [ID]] { chart.historyValues(of: history) }

  /// Handles one external event and the whole macrostep it causes.
  ///
  /// - Throws: ``ChartRunError/didNotSettle(chart:microsteps:states:)`` when the macrostep
  ///   does not end within ``maxMicrosteps`` (the machine keeps the configuration it reached).
  @inlinable
  public mutating func send(_ event: Event) throws(ChartRunError) -> ChartStep<Event, Effect> {
    try send(event, ordinal: ordinal(of: event))
  }

  /// `send(_:)` for an event whose ordinal (below 64, or -1) is known.
  @inlinable
  mutating func send(_ event: Event, ordinal: Int) throws(ChartRunError) -> ChartStep<Event, Effect> {
    // The fast lane, specialised in the caller's module: a compiled move with nothing to run.
    if node >= 0, ordinal >= 0, !reporting {
      if let step = quickStep(ordinal: ordinal) { return step }
      // The direct lane, for a move with content or a guard that one region takes.
      if let step = try directStep(event, ordinal: ordinal) { return step }
    }
    return try run(event, ordinal: ordinal)
  }

  /// Runs one external event's macrostep.
  @inlinable @inline(never)
  mutating func run(_ event: Event, ordinal: Int) throws(ChartRunError) -> ChartStep<Event, Effect> {
    if _slowPath(chart.tables.hasForwards) { return try forwardingRun(event, ordinal: ordinal) }
    guard let queued = try selectExternal(event, ordinal: ordinal) else {
      return ChartStep(outcome: halted ? .halted : .unhandled, outputs: [], microsteps: 0)
    }
    var run = makeRun()
    take(event: queued, &run)
    try settle(&run)
    return step(of: &run)
  }

  /// ``run(_:ordinal:)`` without the step: whether the macrostep took transitions. For
  /// checkers, which read the machine after it and nothing of the step.
  @inlinable
  mutating func advance(_ event: Event, ordinal: Int) throws(ChartRunError) -> Bool {
    guard let queued = try selectExternal(event, ordinal: ordinal) else { return false }
    var run = makeRun(lean: isLean)
    take(event: queued, &run)
    try settle(&run)
    if !isLean { keepBuffers(of: &run) }
    return true
  }

  /// The start of an external event's macrostep: the machine started when it was not, and the
  /// transitions `event` enables selected into ``selected``. The event as queued when it
  /// enables any; `nil` when the machine has halted or nothing matched (nothing changed).
  @inlinable
  mutating func selectExternal(_ event: Event, ordinal: Int) throws(ChartRunError) -> QueuedEvent? {
    if !started { _ = try start() }
    // A step that takes no transition leaves no owners or exits behind it.
    if tracksOwners { noteExits(ofMove: -1) }
    guard !halted else { return nil }
    if _slowPath(chart.tables.hasFinalizers) { finalize(event) }
    let queued = QueuedEvent(name: eventName(of: event, ordinal: ordinal), value: event, ordinal: ordinal)
    select(for: queued)
    return selected.isEmpty ? nil : queued
  }

  /// Eventless transitions, then internal events, until neither is left (or the chart halts).
  @inlinable
  mutating func settle(_ run: inout Run) throws(ChartRunError) {
    while !isHalted {
      guard internalQueue.count - queueHead <= Self.maxInternalEvents else {
        throw overflow()
      }
      if queueHead == internalQueue.count, isSettled { break }
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
    internalQueue.clear()
    queueHead = 0
  }

  /// The compiled configuration has no eventless transition to take (known without running
  /// the selection).
  @inlinable
  var isSettled: Bool {
    guard node >= 0 else { return false }
    let s = compiledStorage.steps.eventless[Int(node)]
    return s >= 0 && compiledStorage.steps.sole[Int(s)] == CompiledSteps.noCandidate
  }

  /// Selects the transitions enabled for `event` into ``selected``: compiled when the machine
  /// compiles its steps.
  @inlinable
  mutating func select(for event: QueuedEvent) {
    if compiles { selectCompiled(for: event) } else { selected = selectTransitions(for: event) }
  }

  /// Takes the ``selected`` transitions together: compiled when the machine compiles its steps.
  @inlinable
  mutating func take(event: QueuedEvent, _ run: inout Run) {
    // Moved out and back rather than copied: a copy of the array was retained and released on
    // every microstep (the microstep reads its argument, never `selected`).
    var enabled: [Int] = []
    swap(&enabled, &selected)
    if compiles { microstepCompiled(enabled, event: event, &run) } else { microstep(enabled, event: event, &run) }
    swap(&enabled, &selected)
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
    if let name = compiledStorage.steps.eventNames[ordinal] { return name }
    return learnName(of: event, ordinal: ordinal)
  }

  /// Names the event with `ordinal` for the first time, and hands the name to the chart's
  /// other machines (a restarted machine would otherwise name it again, and copy its tables to
  /// write it).
  @usableFromInline
  mutating func learnName(of event: Event, ordinal: Int) -> String {
    let name = eventName(event)
    compiled.eventNames[ordinal] = name
    if compiles { publish(force: true) }
    return name
  }

  /// A stopped macrostep's queue is dropped (with its capacity), so the next event starts clean.
  @usableFromInline
  mutating func clearInternalQueue() {
    internalQueue = []
    queueHead = 0
  }
}

extension ChartMachine where Event: Discriminated {
  /// Handles one external event and the whole macrostep it causes, as the unconstrained
  /// `send(_:)` does: for your own ``Discriminated`` events, the event's number is read from its
  /// discriminant here, specialised, rather than through the chart's stored function.
  ///
  /// - Throws: ``ChartRunError`` when the macrostep does not settle.
  @inlinable
  public mutating func send(_ event: Event) throws(ChartRunError) -> ChartStep<Event, Effect> {
    guard eventOrdinal != nil else { return try send(event, ordinal: ordinal(of: event)) }
    let number = discriminantOrdinal(of: event) ?? -1
    return try send(event, ordinal: number >= 0 && number < 64 ? number : -1)
  }
}

extension ChartMachine: Sendable where Context: Sendable {}
extension ChartMachine.QueuedEvent: Sendable {}
