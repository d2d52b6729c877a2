/// A chart in a ``Store``: where it is (configuration, history, context, halting), which
/// readers see behind the store's lock, without a machine. The drainer steps a machine it
/// leases from the chart's ``ChartStepperPool`` for as long as it drains, loaded from here;
/// each step is adopted back. Each output is tied to the state it belongs to, so state-scoped
/// effects live exactly as long as that state (or any of its descendants) is active.
@usableFromInline
struct ChartEngine<Definition: _ChartStoreDefinition>: StoreEngine where Definition.Context: Sendable {
  @usableFromInline typealias ID = Definition.ID
  @usableFromInline typealias Event = Definition.Event
  @usableFromInline typealias Context = Definition.Context
  @usableFromInline typealias Work = Definition.Effect.Work
  @usableFromInline typealias Effect = Command<Event, Work>
  @usableFromInline typealias Machine = ChartMachine<ID, Event, Context, Effect>
  @usableFromInline typealias Pool = ChartStepperPool<ID, Event, Context, Effect>

  /// The chart's pool, which holds the chart.
  @usableFromInline let pool: Pool
  /// The active states (history bits aside).
  @usableFromInline var active: StateBits
  @usableFromInline var context: Context
  /// What history states remember and the start step waiting for ``Store/start()``, when
  /// there is either: most stores have neither, and keep one word for both.
  @usableFromInline var rare: Rare?
  @usableFromInline var halted: Bool

  /// The drainer's leased machine, or `nil` while nobody drains (but for the one store of the
  /// chart that keeps its machine between drains, see ``release(_:)``).
  @usableFromInline
  struct Stepper {
    @usableFromInline var machine: UnsafeMutablePointer<Machine>?
    /// Whether the stepper lives as long as its store (see ``StoreEngine/keepLeases(_:)``).
    @usableFromInline var keeps = false

    @inlinable
    init() {}
  }

  /// History values and a pending start step: immutable, replaced when either changes (history
  /// changes when a state with history is left for another child, and the start once).
  @usableFromInline
  final class Rare: Sendable {
    @usableFromInline let history: [Int: [Int]]
    @usableFromInline let start: Tracked?

    @usableFromInline
    init(history: [Int: [Int]], start: Tracked?) { (self.history, self.start) = (history, start) }
  }

  /// A step with the owners of its outputs and the states it exited, as the machine kept them.
  @usableFromInline
  struct Tracked: Sendable {
    @usableFromInline let step: ChartStep<Event, Effect>
    @usableFromInline let owners: [Int]
    @usableFromInline let exits: [ChartExit]

    @inlinable
    init(_ step: ChartStep<Event, Effect>, of machine: Machine) {
      (self.step, owners, exits) = (step, machine.lastOwners, machine.lastExits)
    }
  }

  /// A macrostep's outcome (see ``ChartStepOutcome``).
  @usableFromInline typealias Outcome = ChartStepOutcome<Event, Effect>

  /// Enters the chart's initial configuration (its content runs; its effects wait for `start`).
  @usableFromInline
  init(_ chart: Chart<ID, Event, Context, Effect>, context: Context) throws(ChartRunError) {
    guard chart.tables.invokeRefusal == nil else { throw .declaresInvokes(chart: chart.name) }
    let pool = chart.stepperPool()
    self.pool = pool
    let machine = pool.take(context: context)
    defer { pool.put(machine) }
    machine.pointee.reset(context: context)
    let step = try machine.pointee.start()
    (active, self.context, halted) = (machine.pointee.active, machine.pointee.storedContext, machine.pointee.halted)
    let history = machine.pointee.history
    // Nothing to start and no history: nothing rare to keep.
    let pending = !step.outputs.isEmpty || halted
    rare = pending || !history.isEmpty ? Rare(history: history, start: pending ? Tracked(step, of: machine.pointee) : nil) : nil
  }

  /// A chart restored from `snapshot`: nothing is entered, so there is nothing to start.
  @usableFromInline
  init(_ chart: Chart<ID, Event, Context, Effect>, restoring snapshot: ChartSnapshot<ID, Context>) throws(ChartRestoreError) {
    guard chart.tables.invokeRefusal == nil else {
      throw ChartRestoreError(message: ChartRunError.declaresInvokes(chart: chart.name).description)
    }
    guard !snapshot.configuration.isEmpty else {
      throw ChartRestoreError(
        message: "the snapshot has no configuration (a chart not started); a store starts such a chart with init(_:context:)")
    }
    let restored = try chart.restoredState(snapshot.configuration, history: snapshot.history, isHalted: snapshot.isHalted)
    guard let restored else { preconditionFailure("invalid state: a snapshot with a configuration restored to none") }
    pool = chart.stepperPool()
    (active, context, halted) = (restored.active, keptContext(snapshot.context), snapshot.isHalted)
    rare = restored.history.isEmpty ? nil : Rare(history: restored.history, start: nil)
  }

  /// The chart.
  @inlinable var chart: Chart<ID, Event, Context, Effect> { pool.chart }
  /// What history states remember, by index.
  @inlinable var history: [Int: [Int]] { rare?.history ?? [:] }
  /// The active atomic states, in document order.
  @inlinable var configuration: [ID] { pool.chart.configuration(of: active) }
  /// Every active state, in document order.
  @usableFromInline var activeStates: [ID] { pool.chart.activeStates(of: active) }
  /// Whether `state` is active.
  @usableFromInline func isActive(_ state: ID) -> Bool { pool.chart.isActive(state, in: active) }
  /// Where the chart is.
  @usableFromInline var snapshot: ChartSnapshot<ID, Context> {
    ChartSnapshot(configuration: configuration, history: chart.historyValues(of: history), context: keptContext(context), isHalted: halted)
  }

  @usableFromInline var observed: [ID] { configuration }

  @usableFromInline var publishedWord: UInt64? { nil }

  @inlinable var stepper: Stepper { Stepper() }

  /// Halted with no start step waiting: restored halted (a chart that halts in its first
  /// macrostep halts when its store starts).
  @inlinable var haltedBeforeStart: Bool { halted && rare?.start == nil }

  /// Leases a machine from the chart's pool and puts it where this engine is; its compiled
  /// node is kept when it is there already (the common case: the store that stepped it last
  /// leased it again).
  @inlinable
  func lease(_ stepper: UnsafeMutablePointer<Stepper>) {
    // The keeper's machine is where its last drain left it, which is where this engine is.
    let machine = stepper.pointee.machine ?? pool.take(context: context)
    let node = machine.pointee.node
    var there = node >= 0 && machine.pointee.active == active
    if let rare {
      there = there && machine.pointee.history == rare.history
      machine.pointee.place(active: active, history: rare.history, context: context, halted: halted, node: there ? node : -1)
    } else {
      // No history (most charts): no dictionary to compare or to hand over.
      there = there && machine.pointee.history.isEmpty
      machine.pointee.place(active: active, history: nil, context: context, halted: halted, node: there ? node : -1)
    }
    stepper.pointee.machine = machine
  }

  /// Hands the leased machine back to the pool; but the chart's keeper, the first store whose
  /// stepper lives as long as it does to release one, keeps it between drains (see
  /// ``ChartStepperPool/mayKeep(_:)``): a store sent one event at a time leases nothing.
  @inlinable
  func release(_ stepper: UnsafeMutablePointer<Stepper>) {
    guard let machine = stepper.pointee.machine else { return }
    if stepper.pointee.keeps, pool.mayKeep(UInt(bitPattern: stepper)) { return }
    stepper.pointee.machine = nil
    pool.put(machine)
  }

  @inlinable
  static func keepLeases(_ stepper: UnsafeMutablePointer<Stepper>) { stepper.pointee.keeps = true }

  @inlinable
  static var retiresSteppers: Bool { true }

  /// Hands back the machine the store kept, and its place as the chart's keeper.
  @usableFromInline
  func retire(_ stepper: UnsafeMutablePointer<Stepper>) {
    if stepper.pointee.keeps { pool.forget(keeper: UInt(bitPattern: stepper)) }
    guard let machine = stepper.pointee.machine else { return }
    stepper.pointee.machine = nil
    pool.put(machine)
  }

  @inlinable
  static func observed(_ stepper: UnsafePointer<Stepper>) -> [ID] { stepper.pointee.machine.unsafelyUnwrapped.pointee.configuration }

  /// Takes what a macrostep changes: configuration, history, context, halting.
  @inlinable
  mutating func adopt(_ stepped: UnsafePointer<Stepper>) {
    let machine = UnsafePointer(stepped.pointee.machine.unsafelyUnwrapped)
    active = machine.pointee.active
    context = machine.pointee.storedContext
    halted = machine.pointee.halted
    // A chart without history (or one that wrote none) leaves both empty: nothing to compare.
    if !(rare == nil && machine.pointee.history.isEmpty) { adoptHistory(machine.pointee.history) }
  }

  @usableFromInline
  mutating func adoptHistory(_ history: [Int: [Int]]) {
    guard history != (rare?.history ?? [:]) else { return }
    let start = rare?.start
    rare = history.isEmpty && start == nil ? nil : Rare(history: history, start: start)
  }

  @inlinable
  static func apply(_ event: Event, on stepper: UnsafeMutablePointer<Stepper>) -> Outcome {
    let machine = stepper.pointee.machine.unsafelyUnwrapped
    let before = machine.pointee.active
    do {
      let step = try machine.pointee.send(event)
      return Outcome(
        step: step, error: nil, from: before, changed: before != machine.pointee.active, messaging: deliversAlone(step.outputs))
    } catch {
      return Outcome(step: nil, error: error, from: before, changed: before != machine.pointee.active)
    }
  }

  @inlinable
  static func changesObserved(_ outcome: Outcome) -> Bool { outcome.changed }

  @inlinable
  static func failure(of outcome: Outcome) -> (any Error)? { outcome.error }

  /// A chart's step is always committed on its own (a macrostep may halt the chart, and its
  /// effects are owned by the states it entered).
  @inlinable
  static func isQuiet(_ outcome: Outcome) -> Bool { false }

  @inlinable
  var unhandledStepsChangeNothing: Bool { pool.chart.tables.scripting == nil }

  @inlinable
  mutating func detachContext() {
    if pool.chart.tables.copiesContexts { context = keptContext(context) }
  }

  @inlinable
  var communicationError: Event? { pool.chart.tables.communicationError }

  @inlinable
  static var mayRaiseCommunicationErrors: Bool { true }

  /// The child the invocation `id` of the state at `owner` starts, made as its entry content
  /// makes it (with the chart's context now).
  @usableFromInline
  func invokedChild(_ id: String, owner: Int) -> ChildMachine<Event>? {
    let tables = chart.tables
    guard owner > 0, owner < tables.entryBlocks.count else { return nil }
    let block = tables.entryBlocks[owner]
    for i in Int(block.start)..<Int(block.end) {
      guard case .make(let name, let make) = tables.content[i], name == Effect.invocationName(id) else { continue }
      if case .invoke(let child, let childID, _)? = make(context, nil), childID.name == id { return child }
    }
    return nil
  }

  /// A chart's state-scoped effects belong to an active state (its root, 0, while it runs).
  @usableFromInline
  func refusal(ofChildOwnedBy owner: Int, scope: EffectScope) -> String? {
    if halted { return "its parent has halted (it reached a final state of its root), and a halted chart runs no children" }
    guard scope == .state, owner != 0 else { return nil }
    guard owner > 0, owner < chart.count else { return "it belongs to state \(owner), and the chart's states are 0 to \(chart.count - 1)" }
    guard active[owner] else { return "it belongs to state \(owner) (\(chart.label(owner))), which is not active: nothing would end it" }
    return nil
  }

  /// As the chart's ``StoreDefinition/_response(of:)`` answers the step's outcome (a
  /// macrostep that did not settle reports its transitions taken).
  @inlinable
  static func response(of outcome: Outcome) -> MachineResponse { (outcome.step?.outcome ?? .transitioned).response }

  @inlinable
  static func report(
    _ outcome: Outcome, of stepper: UnsafePointer<Stepper>, event: Event, sequence: Int, time: Duration
  ) -> StoreStep<Definition> {
    let machine = UnsafePointer(stepper.pointee.machine.unsafelyUnwrapped)
    return StoreStep(
      sequence: sequence, event: event, from: machine.pointee.configuration(of: outcome.from), to: machine.pointee.configuration,
      // A context held by a reference (a session) is reported as it is after this step: a copy,
      // which later steps do not change.
      context: machine.pointee.chart.tables.copiesContexts ? keptContext(machine.pointee.context) : machine.pointee.context, time: time,
      detail: _ChartStepDetail(
        outcome: outcome.step?.outcome ?? .transitioned, outputs: outcome.step?.outputs ?? [], history: machine.pointee.historyValues,
        isHalted: machine.pointee.isHalted, error: outcome.error))
  }
}

extension ChartMachine {
  /// The machine at the chart's start with `context`, not started (its buffers and compiled
  /// steps kept): for a store that leased it to enter its chart.
  @usableFromInline
  mutating func reset(context: Context) {
    active = StateBits(count: chart.count)
    history = [:]
    storedContext = context
    (halted, started, node) = (false, false, -1)
  }
}
