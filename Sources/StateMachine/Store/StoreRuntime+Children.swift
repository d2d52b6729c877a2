import Synchronization

/// Child machines (``Command/invoke(_:id:scope:)``): each is a running effect whose handle is
/// the child, so it is registered, scoped, cancelled and reported as every effect is.
extension StoreRuntime {
  /// How many rounds ``settle()`` takes at most while children keep stepping one another.
  static var settleRounds: Int { 10_000 }
  /// How many steps in a row a store takes of events its children fed it before it refuses to
  /// message or start them (``SendRejection/loop``).
  @usableFromInline static var cascadeLimit: Int { 10_000 }

  /// Starts `child`, the effect `token`: its store is made and started on this thread.
  /// (Specialised, but kept out of the drain loop that starts effects: inlined there, it made
  /// a plain store's send 15% slower.)
  @inlinable @inline(never)
  func launch(_ child: ChildMachine<Event>, id: EffectID, token: UInt64, command: Effect) {
    guard let make = child.launch else {
      childFailed(token, error: ChildNotRunnable(name: child.name), event: nil)
      return
    }
    guard !ChildIDHoldsSlash.holds(id) else {
      childFailed(token, error: ChildIDHoldsSlash(id), event: nil)
      return
    }
    let label = ChildLabel(machine: child.name, id: id, scope: command.scope)
    guard core.withLock({ $0.beginFeeding(limit: Self.cascadeLimit) }) else {
      childFailed(token, error: CascadeLimitReached(), event: nil)
      return
    }
    let running: RunningChild
    feeding.store(true, ordering: .relaxed)
    defer { feeding.store(false, ordering: .relaxed) }
    do {
      running = try make(ChildLaunch(clock: clock, parent: self, token: token, label: label))
    } catch let failure as ChildLaunchError<Event> {
      childFailed(token, error: failure.error, event: failure.event)
      return
    } catch {
      childFailed(token, error: error, event: nil)
      return
    }
    // Cancelled (or done) while it started: its end was reported; its store finishes.
    if !core.withLock({ $0.attach(child: running, to: token) }) { stopChild(running) }
  }

  /// `effect`, ended as `end` says, when it is a child (started, or an invoke whose store had
  /// not started yet): its end goes where its steps go (see ``ChildEnd``), once, when the
  /// effect is reported ended: to this store's recorder, or, in a child's store, up to the
  /// store that records, through ``childStepped(_:)``. A child its parent does not watch
  /// (``RunningChild/isWatched``: started before the recorder was attached) has no line of its
  /// start, so it has none of its end either: alone, it would read as a divergence.
  ///
  /// (Nothing is worked out unless something takes the end: a child started and stopped costs
  /// no more for it.)
  @inlinable
  func noteEnd(of effect: StoreCore<Engine>.Running, _ end: @autoclosure () -> ChildEnd) {
    if forwardsChildEnds || recording { note(end(), of: effect) }
  }

  /// ``noteEnd(of:_:)`` when something takes the end (out of line: the cancel it is called from
  /// stays as small as it was).
  @usableFromInline @inline(never)
  func note(_ end: ChildEnd, of effect: StoreCore<Engine>.Running) {
    // A started child when watched; an invoke whose store had not started (in the step that
    // invoked it); no other effect.
    let logged: Bool
    if let child = effect.child { logged = child.isWatched } else if case .invoke? = effect.command { logged = true } else { logged = false }
    guard logged, let id = effect.id else { return }
    childStepped(ChildStep(endOf: id.name, end))
  }

  /// Stops a child whose end is decided; ``finish()`` waits for its store.
  @inlinable @inline(never)
  func stopChild(_ child: RunningChild) {
    // (A child whose store does not finish at once waits among the stopping ones: it puts
    // itself there.)
    child.stop()
  }

  /// The child `token` is done: reported finished, and `event` queued as its last.
  func finishedChild(_ token: UInt64, event: Event?) {
    childEnded(token, queueing: event, as: ChildEnd(.finished)) { .effectFinished(id: $0.id, description: $0.description) }
  }

  /// The child `token` could not start: reported failed, and `event` queued.
  @usableFromInline
  func childFailed(_ token: UInt64, error: any Error, event: Event?) {
    let error = String(describing: error)
    childEnded(token, queueing: event, as: ChildEnd(.failed, error: error)) {
      .effectFailed(description: $0.description, error: error, event: event)
    }
  }

  /// The child `token` ended on its own, as `report` and `end` tell, while it still ran: it is
  /// forgotten, `event` queued as its last, and its store (if it started) finished.
  func childEnded(
    _ token: UInt64, queueing event: Event?, as end: ChildEnd, report: (StoreCore<Engine>.Running) -> StoreReport<Event, Engine.Step>
  ) {
    let side = core.side
    let ended = core.withLock { core -> (effect: StoreCore<Engine>.Running, enqueued: StoreCore<Engine>.Enqueued?)? in
      guard core.isActive(token) else { return nil }
      let effect = core.remove(token)
      // Its store is stopped below, outside the lock (and outside the drain, which `finish()`
      // waits for): counted until then, so that `finish()` waits for it too.
      if effect.child != nil { core.childEnding() }
      if event != nil { core.childEventArrived(feeding: feeding.load(ordering: .relaxed)) }
      return (effect, event.map { core.eventArrived($0, force: true, stepper: side) })
    }
    guard let ended else { return }
    inspector?(report(ended.effect))
    noteEnd(of: ended.effect, end)
    if case .child(let child) = ended.effect.handle {
      stopChild(child)
      for waiter in core.withLock({ $0.childEndStopped() }) { waiter.resume(returning: true) }
    }
    if case .drain(let first)? = ended.enqueued { drain(first) }
  }

  /// Waits until no child's store is finishing: those stopping (``Family/stopping``), and those
  /// that ended on their own on another thread and are still to be stopped there
  /// (``Family/ending``), which may then join the stopping ones.
  func childrenStopped() async {
    while true {
      for task in core.withLock({ $0.stoppingTasks }) { await task.value }
      let waited = await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
        if !core.withLock({ $0.waitsForEndingChildren(waiter) }) { waiter.resume(returning: false) }
      }
      guard waited else { return }
    }
  }

  /// The running children, by id.
  var runningChildren: [(id: String, child: RunningChild)] {
    core.withLock { $0.runningChildren }.sorted { $0.id < $1.id }
  }

  /// See ``StoreRuntimeBase/childPaths``.
  var descendantPaths: [String] {
    runningChildren.flatMap { id, child in [id] + child.descendants.map { "\(id)/\($0)" } }
  }

  /// See ``StoreRuntimeBase/childStepTotal``.
  var descendantSteps: Int { runningChildren.reduce(0) { $0 + $1.child.stepTotal } }

  /// See ``StoreRuntimeBase/childSnapshots()``: each running child's, by id.
  func snapshotChildren() throws(SystemSnapshotError) -> [ChildSnapshot] {
    let children = core.withLock { core in Array(core.family?.children.values ?? [:].values) }
    var snapshots: [ChildSnapshot] = []
    for child in children.sorted(by: { $0.run.effectID.name < $1.run.effectID.name }) {
      snapshots.append(try child.run.snapshot(owner: child.owner))
    }
    return snapshots
  }

  /// See ``StoreRuntimeBase/restoreChildren(_:resolve:)``: each child is registered as the
  /// running effect that started it (reported started), in the state of this store it belongs
  /// to, and its store made from its snapshot, with its own children. Children this store could
  /// not run as the snapshot says are refused before any starts (``checkRestoring(_:)``); when a
  /// child cannot be made, those restored before it are cancelled: a failed restore leaves
  /// nothing running, and every child reported started is reported ended.
  func restore(_ snapshots: [ChildSnapshot], resolve: @escaping ChildResolver) throws(SystemSnapshotError) {
    try checkRestoring(snapshots)
    var restored: [UInt64] = []
    do throws(SystemSnapshotError) {
      for snapshot in snapshots { restored.append(try restore(snapshot, resolve: resolve)) }
    } catch {
      for token in restored {
        if let effect = core.withLock({ $0.family?.children[token] == nil ? nil : $0.remove(token) }) { cancel(effect) }
      }
      throw error
    }
  }

  /// Refuses a snapshot's children that this store could not run as they say: an id named
  /// twice, or holding a `/` (a path's separator); an owner that is not a state of this store,
  /// or that nothing would end (see ``StoreEngine/refusal(ofChildOwnedBy:scope:)``).
  func checkRestoring(_ snapshots: [ChildSnapshot]) throws(SystemSnapshotError) {
    var ids = Set<String>()
    for snapshot in snapshots {
      let id = EffectID(snapshot.id)
      let refusal: String? =
        if !ids.insert(snapshot.id).inserted { "its parent's snapshot names it twice, and a store runs one child per id" }
        else if ChildIDHoldsSlash.holds(id) { ChildIDHoldsSlash(id).description }
        // (A store numbers its states from zero, in 32 bits: a child's state is kept so.)
        else if snapshot.owner < 0 || Int32(exactly: snapshot.owner) == nil { "its owner, \(snapshot.owner), is not a state of its parent" }
        else { core.withLock { $0.engine.refusal(ofChildOwnedBy: snapshot.owner, scope: snapshot.scope) } }
      if let refusal { throw SystemSnapshotError(path: snapshot.id, reason: refusal) }
    }
  }

  /// Restores one child (see ``restore(_:resolve:)``); returns its token.
  func restore(_ snapshot: ChildSnapshot, resolve: @escaping ChildResolver) throws(SystemSnapshotError) -> UInt64 {
    // (A chart's own invocation, which the resolver need not know, is made as the chart makes it.)
    let resolved = resolve(snapshot) as? ChildMachine<Event>
    guard let child = resolved ?? core.withLock({ $0.engine.invokedChild(snapshot.id, owner: snapshot.owner) }) else {
      throw SystemSnapshotError(
        path: snapshot.id, reason: "no ChildMachine<\(Event.self)> for the machine '\(snapshot.machine)' (the resolver gave none, or one of another type)")
    }
    guard let make = child.launch else { throw SystemSnapshotError(path: snapshot.id, reason: ChildNotRunnable(name: child.name).description) }
    let id = EffectID(snapshot.id)
    let command = Effect.invoke(child, id: id, scope: snapshot.scope)
    let token = core.withLock { $0.registerRestored(command, owner: snapshot.owner) }
    inspector?(.effectStarted(id: id, description: command.description))
    let label = ChildLabel(machine: child.name, id: id, scope: snapshot.scope)
    do {
      let running = try make(ChildLaunch(clock: clock, parent: self, token: token, label: label, restoring: (snapshot, resolve)))
      if !core.withLock({ $0.attach(child: running, to: token) }) { stopChild(running) }
    } catch {
      let removed = core.withLock { $0.remove(token) }
      inspector?(.effectFailed(description: command.description, error: "\(error)", event: nil))
      noteEnd(of: removed, ChildEnd(.failed, error: "\(error)"))
      throw (error as? SystemSnapshotError)?.below(snapshot.id) ?? SystemSnapshotError(path: snapshot.id, reason: "\(error)")
    }
    return token
  }

  /// Waits until this store and its children are idle: settling a child may queue events here
  /// (what it says to its parent), and the other way round, so it goes round until a round
  /// changes nothing (at most ``settleRounds``). Children being stopped have finished too.
  func settle() async {
    for _ in 0..<Self.settleRounds {
      await settleOwn()
      let children = runningChildren.map(\.child)
      await childrenStopped()
      if children.isEmpty { return }
      let before = (core.withLock { $0.steps }, children.reduce(0) { $0 + $1.stepTotal })
      for child in children { await child.settle() }
      let current = Self.currentTask
      let idle = core.withLock { $0.isIdle(besides: $0.runsTask(current) ? 1 : 0) }
      if idle, before == (core.withLock { $0.steps }, children.reduce(0) { $0 + $1.stepTotal }) { return }
    }
  }
}

/// A child not started because its start would go on a loop between machines (see
/// ``SendRejection/loop``).
@usableFromInline
struct CascadeLimitReached: Error, CustomStringConvertible {
  @usableFromInline init() {}
  @usableFromInline var description: String { SendRejection.loop.description }
}
