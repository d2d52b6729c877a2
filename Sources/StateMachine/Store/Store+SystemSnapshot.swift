/// A system's snapshot and its restore: the root store's own snapshot, and its running
/// children's, as a tree (``SystemSnapshot``).
extension Store where Definition: _ChartStoreDefinition {
  /// The system's snapshot: this store's ``snapshot`` and each running child's (and its
  /// children's), by id. Take it while the system is settled (after ``settle()``).
  ///
  /// - Throws: ``SystemSnapshotError`` naming a child whose snapshot is not `Encodable` (its
  ///   state, configuration or context type).
  public func systemSnapshot() throws(SystemSnapshotError) -> SystemSnapshot<ChartSnapshot<ID, Context>> {
    SystemSnapshot(root: snapshot, children: try runtime.childSnapshots())
  }

  /// A store that continues `chart` and its children from `system`: the root as
  /// ``init(_:restoring:clock:mailbox:handler:failure:inspector:)`` does, then each child
  /// where it was, made by the ``ChildMachine`` that `children` gives for its snapshot (its
  /// machine's name and its id; its children's too), running again in its scope, in the state
  /// it belonged to.
  ///
  /// The store has started (``start()`` does nothing): nothing is entered, so nothing is asked
  /// for. Effects and timers that ran when the snapshot was taken do not restart, in the root or
  /// in any child: a child waiting for a timer waits for an event instead (a message, or its
  /// cancellation).
  ///
  /// - Throws: ``SystemSnapshotError`` naming the machine: the root's snapshot is not a
  ///   configuration of `chart`; `children` has no `ChildMachine` of this store's events for a
  ///   child's machine; or a child's snapshot is not one of its machine.
  public convenience init(
    _ chart: Definition, restoring system: SystemSnapshot<ChartSnapshot<ID, Context>>, children: @escaping ChildResolver,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil
  ) throws(SystemSnapshotError) {
    do {
      try self.init(chart, restoring: system.root, clock: clock, mailbox: mailbox, handler: handler, failure: failure, inspector: inspector)
    } catch {
      throw SystemSnapshotError(path: "", reason: "\(error)")
    }
    runtime.with(ChartEngine<Definition>.self) { $0.start(committingStart: false) }
    try runtime.restoreChildren(system.children, resolve: children)
  }
}

extension Store where Definition: _TableStoreDefinition {
  /// The system's snapshot: this store's ``snapshot`` and each running child's (and its
  /// children's), by id. Take it while the system is settled (after ``settle()``).
  ///
  /// - Throws: ``SystemSnapshotError`` naming a child whose snapshot is not `Encodable`.
  public func systemSnapshot() throws(SystemSnapshotError) -> SystemSnapshot<TableSnapshot<State, Context>> {
    SystemSnapshot(root: snapshot, children: try runtime.childSnapshots())
  }

  /// A store that continues `table` and its children from `system` (see the chart's
  /// `init(_:restoring:children:clock:mailbox:handler:failure:inspector:)`): the root in its
  /// state and context, started without asking for its state's entry effects (``start()`` does
  /// nothing), and each child where it was.
  ///
  /// - Throws: ``SystemSnapshotError`` naming the machine, as a chart's restore does.
  public convenience init(
    _ table: Definition, restoring system: SystemSnapshot<TableSnapshot<State, Context>>, children: @escaping ChildResolver,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil
  ) throws(SystemSnapshotError) {
    do {
      try self.init(restoring: table, system.root, clock: clock, mailbox: mailbox, handler: handler, failure: failure, inspector: inspector)
    } catch {
      throw SystemSnapshotError(path: "", reason: "\(error)")
    }
    runtime.with(TableEngine<Definition>.self) { $0.start(committingStart: false) }
    try runtime.restoreChildren(system.children, resolve: children)
  }
}
