/// A system's snapshot and its restore: the root store's own snapshot, and its running
/// children's, as a tree (``SystemSnapshot``). Written once here; each kind of root (a chart,
/// a table) says only how its own snapshot is taken and its store made from one.
extension Store {
  /// The system's snapshot, given the root store's own.
  @usableFromInline
  func systemSnapshot<Root>(root: Root) throws(SystemSnapshotError) -> SystemSnapshot<Root> {
    SystemSnapshot(root: root, children: try runtime.childSnapshots())
  }

  /// A store on the engine `engine` makes from `system`'s root (its error is the root's) that has
  /// started (asking for nothing: it enters no state) and whose children are made again by
  /// `resolve`. `options`: the store's clock, mailbox, handler, failure and inspector.
  @usableFromInline
  convenience init<Engine: StoreEngine, Root, RootError: Error>(
    _ system: SystemSnapshot<Root>, resolve: @escaping ChildResolver,
    options: (clock: any Clock<Duration>, mailbox: MailboxPolicy, handler: Handler, failure: Failure, inspector: Inspector?),
    engine: (Root) throws(RootError) -> Engine
  ) throws(SystemSnapshotError)
  where Engine.Event == Event, Engine.Work == Work, Engine.Context == Context, Engine.Observed == Definition.Configuration, Engine.Step == StoreStep<Definition> {
    let made: Engine
    do { made = try engine(system.root) } catch { throw SystemSnapshotError(path: "", reason: "\(error)") }
    self.init(
      engine: made, clock: options.clock, mailbox: options.mailbox, handler: options.handler, failure: options.failure,
      inspector: options.inspector)
    runtime.with(Engine.self) { $0.start(committingStart: false) }
    try runtime.restoreChildren(system.children, resolve: resolve)
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
    try self.init(system, resolve: children, options: (clock, mailbox, handler, failure, inspector)) { root throws(ChartRestoreError) in
      try ChartEngine<Definition>(chart._chart, restoring: root)
    }
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
    try self.init(system, resolve: children, options: (clock, mailbox, handler, failure, inspector)) { root throws(TableValidationError) in
      TableEngine<Definition>(machine: try Machine(table._table, restoring: root))
    }
  }
}
