/// A system's snapshot and its restore: the root store's own snapshot, and its running
/// children's, as a tree (``SystemSnapshot``). Written once here; each kind of root (a chart,
/// a table) says only how its own snapshot is taken and its store made from one.
extension Store {
  /// The system's snapshot, given the root store's own.
  @usableFromInline
  func systemSnapshot<Root>(root: Root) throws(SystemSnapshotError) -> SystemSnapshot<Root> {
    SystemSnapshot(root: root, children: try runtime.childSnapshots())
  }

  /// A store on `engine` (made from a system's root snapshot) that has started (asking for
  /// nothing: it enters no state) and whose `children` are made again.
  @usableFromInline
  convenience init<Engine: StoreEngine>(
    restored engine: Engine, children: [ChildSnapshot], resolve: @escaping ChildResolver,
    clock: any Clock<Duration>, mailbox: MailboxPolicy, handler: @escaping Handler, failure: @escaping Failure, inspector: Inspector?
  ) throws(SystemSnapshotError)
  where Engine.Event == Event, Engine.Work == Work, Engine.Context == Context, Engine.Observed == Definition.Configuration, Engine.Step == StoreStep<Definition> {
    self.init(engine: engine, clock: clock, mailbox: mailbox, handler: handler, failure: failure, inspector: inspector)
    runtime.with(Engine.self) { $0.start(committingStart: false) }
    try runtime.restoreChildren(children, resolve: resolve)
  }

  /// `make`'s error, as the root's.
  @usableFromInline
  static func rootRestored<Made>(_ make: () throws -> Made) throws(SystemSnapshotError) -> Made {
    do { return try make() } catch { throw SystemSnapshotError(path: "", reason: "\(error)") }
  }
}

extension Store where Definition: _ChartStoreDefinition {
  /// The system's snapshot: this store's `snapshot` and each running child's (and its
  /// children's), by id. Take it while the system is settled (after ``settle()``).
  ///
  /// - Throws: ``SystemSnapshotError`` naming a child whose snapshot is not `Encodable` (its
  ///   state, configuration or context type).
  public func systemSnapshot() throws(SystemSnapshotError) -> SystemSnapshot<ChartSnapshot<ID, Context>> {
    try systemSnapshot(root: snapshot)
  }

  /// A store that continues `chart` and its children from `system`: the root as
  /// ``init(_:restoring:clock:mailbox:handler:failure:inspector:)-(_,ChartSnapshot<ID,Context>,_,_,_,_,_)`` does, then each child
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
  ///   child; or a child's snapshot is not one of its machine.
  public convenience init(
    _ chart: Definition, restoring system: SystemSnapshot<ChartSnapshot<ID, Context>>, children: @escaping ChildResolver,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil
  ) throws(SystemSnapshotError) {
    try self.init(
      restored: try Self.rootRestored { () throws(ChartRestoreError) in try ChartEngine<Definition>(chart._chart, restoring: system.root) },
      children: system.children, resolve: children, clock: clock, mailbox: mailbox, handler: handler, failure: failure, inspector: inspector)
  }
}

extension Store where Definition: _TableStoreDefinition {
  /// The system's snapshot: this store's `snapshot` and each running child's (see the chart's).
  public func systemSnapshot() throws(SystemSnapshotError) -> SystemSnapshot<TableSnapshot<State, Context>> {
    try systemSnapshot(root: snapshot)
  }

  /// A store that continues `table` and its children from `system`, its state's entry effects
  /// not asked for again (see the chart's `init(_:restoring:children:clock:…)`).
  public convenience init(
    _ table: Definition, restoring system: SystemSnapshot<TableSnapshot<State, Context>>, children: @escaping ChildResolver,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil
  ) throws(SystemSnapshotError) {
    let machine = try Self.rootRestored { () throws(TableValidationError) in try Machine(table._table, restoring: system.root) }
    try self.init(
      restored: TableEngine(machine: machine), children: system.children, resolve: children, clock: clock, mailbox: mailbox,
      handler: handler, failure: failure, inspector: inspector)
  }
}
