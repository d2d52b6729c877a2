/// A chart store's commit of a step, under the store's lock: the effects of the states it left
/// end, and its outputs start in order (see ``commit(_:owners:exits:skippingMessage:to:_:)``).
extension ChartEngine {
  @inlinable
  static func commitStart(to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork) {
    guard let rare = core.engine.rare, let step = rare.start else { return }
    core.engine.rare = rare.history.isEmpty ? nil : Rare(history: rare.history, start: nil)
    commit(step.step, owners: step.owners, exits: step.exits, to: &core, &work)
  }

  /// The owners and exits are read from the machine that took the step (its buffers stay
  /// as the step left them until its next step), and only when the step has something to do.
  @inlinable
  static func commit(
    _ outcome: Outcome, stepped: UnsafePointer<Stepper>, to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork
  ) {
    let machine = UnsafePointer(stepped.pointee.machine.unsafelyUnwrapped)
    let skippingMessage = isMessaging(outcome)
    // A step with nothing to commit here (no outputs, or only the message the store commits
    // apart) that left no state, or left states when nothing runs, returns before its step is
    // taken out of the outcome and its owners and exits are read: read, they were three retains
    // and releases (and a copy of the machine's fields) on every step that messages a child.
    // Whether the step exited a state is asked only when something runs (the common case,
    // nothing running, reads nothing more).
    if outcome.step?.outputs.isEmpty ?? true || skippingMessage, !core.engine.halted, core.nothingRuns || !exited(machine) { return }
    commitInFull(outcome, machine: machine, skippingMessage: skippingMessage, to: &core, &work)
  }

  /// The rest of ``commit(_:stepped:to:_:)``, apart so that the optimiser does not take the
  /// step out of the outcome (a retain) before the checks that return without it.
  @inlinable @inline(never)
  static func commitInFull(
    _ outcome: Outcome, machine: UnsafePointer<Machine>, skippingMessage: Bool, to core: inout StoreCore<Self>,
    _ work: inout StoreCore<Self>.StepWork
  ) {
    guard let step = outcome.step else { return }
    commit(
      step, owners: machine.pointee.lastOwners, exits: machine.pointee.lastExits, skippingMessage: skippingMessage, to: &core,
      &work)
  }

  /// Whether the machine's last step exited a state: a quick step's move is looked at (a
  /// targetless one exits none), not taken to exit one. (Read field by field: see
  /// `ChartMachine.exitsAny(move:of:)`.)
  @inlinable
  static func exited(_ machine: UnsafePointer<Machine>) -> Bool {
    let quick = machine.pointee.quickExits
    guard quick >= 0 else { return !machine.pointee.exitBuffer.isEmpty }
    // (Read without a reference count, safe because the machine keeps its storage alive and the
    // store's drainer alone changes it: passed as it was, it was retained and released on every
    // quick step of a chart store where something runs.)
    return Unmanaged.passUnretained(machine.pointee.compiledStorage)._withUnsafeGuaranteedRef { Machine.exitsAny(move: quick, of: $0) }
  }

  /// States left end their state-scoped effects; then the outputs start in order, except a
  /// state-scoped one whose state was left later in the same macrostep. A send without delay
  /// joins the mailbox at once (SCXML's external queue). When the chart halts, everything still
  /// running is cancelled and only the last macrostep's work and messages start (its events
  /// are dropped).
  /// `skippingMessage`: the step's one output is a message the store commits apart
  /// (``isMessaging(_:)``).
  @inlinable
  static func commit(
    _ step: ChartStep<Event, Effect>, owners: [Int], exits: [ChartExit], skippingMessage: Bool = false, to core: inout StoreCore<Self>,
    _ work: inout StoreCore<Self>.StepWork
  ) {
    if step.outputs.isEmpty || skippingMessage, exits.isEmpty || core.nothingRuns, !core.engine.halted { return }
    let halted = core.engine.halted
    if halted {
      core.halt(into: &work)
    } else {
      for exit in exits { core.left(exit.state, into: &work) }
    }
    // Whether a message may have been sent after its child was cancelled (see `sentAfterItsChild`).
    let mayFindNoChild = !halted && !exits.isEmpty && !work.cancelled.isEmpty
    guard !skippingMessage else {
      if mayFindNoChild, sentAfterItsChild(step.outputs[0], at: 0, exits: exits, cancelled: work.cancelled) {
        work.messageAfterItsChild = true
      }
      return
    }
    // Invocations the step's later messages would otherwise find started, started after them.
    var invocations: [(Effect, owner: Int)] = []
    for (position, output) in step.outputs.enumerated() {
      let owner = owners[position]
      if mayFindNoChild, sentAfterItsChild(output, at: position, exits: exits, cancelled: work.cancelled) {
        work.starts.append(StoreCore<Self>.Start(messageAfterItsChild: output.command()))
        continue
      }
      switch output {
      case .effect(let command):
        // After a halt only work starts (its events are dropped as late); timers never could fire.
        if halted, !command.isPerform { continue }
        if case .state = command.scope, exits.contains(where: { $0.state == owner && $0.output > position }) { continue }
        // (Once one waits, the later ones wait too: invocations start in document order.)
        if case .invoke = command, !invocations.isEmpty || messages(after: position, in: step.outputs) {
          invocations.append((command, owner))
          continue
        }
        core.register(command, owner: owner, into: &work)
      case .send(let event, let delay, _):
        guard !halted else { continue }
        if delay <= .zero { core.mailbox.append(event) } else { core.register(output.command(), owner: owner, into: &work) }
      case .cancel:
        core.register(output.command(), owner: owner, into: &work)
      case .message:
        // (Sent by the last macrostep too: a chart's last word to another machine, an invoked
        // chart's to its parent, is delivered.)
        core.register(output.command(), owner: owner, into: &work)
      case .delayedMessage:
        // (A timer until it is due, as a table's delayed message, cancelled by its id. A
        // forwarded event goes to its child only while the child runs: asked as it is delivered,
        // where the runner knows its children, a store's and a synchronous system's alike.)
        guard !halted else { continue }
        core.register(output.command(), owner: owner, into: &work)
      }
    }
    for (command, owner) in invocations { core.register(command, owner: owner, into: &work) }
  }
}
