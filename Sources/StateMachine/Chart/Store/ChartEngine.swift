/// A ``ChartMachine`` in a ``ChartStore``: each output is tied to the state it belongs to, so
/// state-scoped effects live exactly as long as that state (or any of its descendants) is
/// active.
@usableFromInline
struct ChartEngine<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Work: Sendable>: StoreEngine {
  @usableFromInline typealias Effect = Command<Event, Work>
  @usableFromInline var machine: ChartMachine<ID, Event, Context, Effect>
  /// The first macrostep's outputs (with their owners and exits), performed when the store starts.
  @usableFromInline var startStep: Tracked?

  /// A step with the owners of its outputs and the states it exited, as the machine kept them
  /// (its buffers, read right after the step: the next step reuses them).
  @usableFromInline
  struct Tracked: Sendable {
    @usableFromInline let step: ChartStep<Event, Effect>
    @usableFromInline let owners: [Int]
    @usableFromInline let exits: [ChartExit]

    @inlinable
    init(_ step: ChartStep<Event, Effect>, of machine: ChartMachine<ID, Event, Context, Effect>) {
      (self.step, owners, exits) = (step, machine.lastOwners, machine.lastExits)
    }
  }

  /// Takes what a macrostep changes and readers see — configuration, history, context,
  /// halting — not the stepping machine's caches (its compiled steps and buffers, which only the
  /// drainer's copy uses): copying those on every step cost a reference count each. The start
  /// step stays this copy's: only the core's is consumed when the store starts.
  @inlinable
  mutating func adopt(_ stepped: UnsafePointer<ChartEngine>) {
    // Field by field through the pointer: passing `stepped.pointee.machine` whole would copy
    // every one of its references for the call.
    machine.active = stepped.pointee.machine.active
    machine.storedContext = stepped.pointee.machine.storedContext
    // A chart without history (or one that wrote none) leaves both empty: nothing to count.
    if !(machine.history.isEmpty && stepped.pointee.machine.history.isEmpty) { machine.history = stepped.pointee.machine.history }
    machine.halted = stepped.pointee.machine.halted
    machine.started = stepped.pointee.machine.started
    machine.node = -1
  }

  @usableFromInline
  struct Outcome {
    /// `nil` when the macrostep did not settle.
    @usableFromInline let step: ChartStep<Event, Effect>?
    @usableFromInline let error: ChartRunError?
    @usableFromInline let from: StateBits
    @usableFromInline let changed: Bool

    @inlinable
    init(step: ChartStep<Event, Effect>?, error: ChartRunError?, from: StateBits, changed: Bool) {
      (self.step, self.error, self.from, self.changed) = (step, error, from, changed)
    }
  }

  /// Enters the chart's initial configuration (its content runs; its effects wait for `start`).
  @usableFromInline
  init(_ chart: Chart<ID, Event, Context, Effect>, context: Context) throws(ChartRunError) {
    machine = ChartMachine(chart, context: context)
    machine.tracksOwners = true
    startStep = Tracked(try machine.start(), of: machine)
  }

  /// A chart restored from `snapshot`: nothing is entered, so there is nothing to start.
  init(_ chart: Chart<ID, Event, Context, Effect>, restoring snapshot: ChartSnapshot<ID, Context>) throws(ChartRestoreError) {
    guard !snapshot.configuration.isEmpty else {
      throw ChartRestoreError(
        message: "the snapshot has no configuration (a chart not started); a store starts such a chart with init(_:context:)")
    }
    machine = try ChartMachine(chart, restoring: snapshot)
    machine.tracksOwners = true
    startStep = nil
  }

  @usableFromInline var observed: [ID] { machine.configuration }

  @usableFromInline var publishedWord: UInt64? { nil }

  @inlinable
  mutating func apply(_ event: Event) -> Outcome {
    let before = machine.active
    do {
      let step = try machine.send(event)
      return Outcome(step: step, error: nil, from: before, changed: before != machine.active)
    } catch {
      return Outcome(step: nil, error: error, from: before, changed: before != machine.active)
    }
  }

  @inlinable
  static func changesObserved(_ outcome: Outcome) -> Bool { outcome.changed }

  /// A chart's step is always committed on its own (a macrostep may halt the chart, and its
  /// effects are owned by the states it entered).
  @inlinable
  static func isQuiet(_ outcome: Outcome) -> Bool { false }

  @usableFromInline
  static func commitStart(to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork) {
    guard let step = core.engine.startStep else { return }
    core.engine.startStep = nil
    commit(step.step, owners: step.owners, exits: step.exits, to: &core, &work)
  }

  /// The owners and exits are read from the machine that took the step (its buffers stay
  /// as the step left them until its next step), and only when the step has something to do.
  @inlinable
  static func commit(
    _ outcome: Outcome, stepped: UnsafePointer<Self>, to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork
  ) {
    guard let step = outcome.step else { return }
    if step.outputs.isEmpty, !stepped.pointee.machine.exitedAny || core.running.isEmpty, !core.engine.machine.isHalted { return }
    commit(step, owners: stepped.pointee.machine.lastOwners, exits: stepped.pointee.machine.lastExits, to: &core, &work)
  }

  /// States left end their state-scoped effects; then the outputs start in order, except a
  /// state-scoped one whose state was left later in the same macrostep. A send without delay
  /// joins the mailbox at once (SCXML's external queue). When the chart halts, everything still
  /// running is cancelled and only the last macrostep's work starts (its events are dropped).
  @inlinable
  static func commit(
    _ step: ChartStep<Event, Effect>, owners: [Int], exits: [ChartExit], to core: inout StoreCore<Self>,
    _ work: inout StoreCore<Self>.StepWork
  ) {
    if step.outputs.isEmpty, exits.isEmpty || core.running.isEmpty, !core.engine.machine.isHalted { return }
    let halted = core.engine.machine.isHalted
    if halted {
      core.halt(into: &work)
    } else {
      for exit in exits { core.left(exit.state, into: &work) }
    }
    for (position, output) in step.outputs.enumerated() {
      let owner = owners[position]
      switch output {
      case .effect(let command):
        // After a halt only work starts (its events are dropped as late); timers never could fire.
        if halted, !command.isPerform { continue }
        if case .state = command.scope, exits.contains(where: { $0.state == owner && $0.output > position }) { continue }
        core.register(command, owner: owner, into: &work)
      case .send(let event, let delay, let id):
        guard !halted else { continue }
        if delay <= .zero {
          core.mailbox.append(event)
        } else {
          core.register(.send(event, after: delay, id: id.map { EffectID($0) }, scope: .global), owner: owner, into: &work)
        }
      case .cancel(let id):
        core.register(.cancel(EffectID(id)), owner: owner, into: &work)
      }
    }
  }

  @usableFromInline
  func report(_ outcome: Outcome, event: Event, sequence: Int, time: Duration) -> ChartStoreStep<ID, Event, Context, Work> {
    ChartStoreStep(
      sequence: sequence, event: event, from: machine.configuration(of: outcome.from), to: machine.configuration,
      outcome: outcome.step?.outcome ?? .transitioned, outputs: outcome.step?.outputs ?? [], history: machine.historyValues,
      isHalted: machine.isHalted, context: machine.context,
      time: time, error: outcome.error)
  }
}

extension Command {
  /// Whether it hands work to the handler.
  @inlinable
  var isPerform: Bool { if case .perform = self { true } else { false } }

  /// The scope of a command that runs (a cancel has none: global).
  @inlinable
  var scope: EffectScope {
    switch self {
    case .perform(_, _, let scope), .send(_, _, _, let scope), .every(_, _, _, let scope): scope
    case .cancel: .global
    }
  }
}
