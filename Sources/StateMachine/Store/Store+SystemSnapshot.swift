/// A system's snapshot and its restore: the root store's own snapshot, and its running
/// children's, as a tree (``SystemSnapshot``). Written once for every kind of root (a chart, a
/// table).
extension Store where Definition.Instance.Snapshot: Sendable {
  /// The system's snapshot: this store's `snapshot` and each running child's (and its
  /// children's), by id. Take it while the system is settled (after ``settle()``).
  ///
  /// - Throws: ``SystemSnapshotError`` naming a child whose snapshot is not `Encodable` (its
  ///   state, configuration or context type).
  public func systemSnapshot() throws(SystemSnapshotError) -> SystemSnapshot<Definition.Instance.Snapshot> {
    SystemSnapshot(root: snapshot, children: try runtime.childSnapshots())
  }

  /// A store that continues `definition` and its children from `system`: the root as
  /// ``init(_:restoring:clock:mailbox:handler:failure:inspector:)`` does, then each child
  /// where it was, made by the ``ChildMachine`` that `children` gives for its snapshot (its
  /// machine's name and its id; its children's too), running again in its scope, in the state
  /// it belonged to. A chart's own invocation (its `<invoke>`, see ``ChartInvoke``) is made as
  /// the chart makes it when `children` gives none for it.
  ///
  /// The store has started (``start()`` does nothing): nothing is entered, so nothing is asked
  /// for. Effects and timers that ran when the snapshot was taken do not restart, in the root or
  /// in any child: a child waiting for a timer waits for an event instead (a message, or its
  /// cancellation).
  ///
  /// - Throws: ``SystemSnapshotError`` naming the machine: the root's snapshot is not one of
  ///   `definition`; `children` has no `ChildMachine` of this store's events for a child; a
  ///   child's snapshot is not one of its machine; or its parent could not run it as the
  ///   snapshot says (an id named twice, or holding a `/`; a state-scoped child of a state that
  ///   is not active; any child of a chart that has halted), refused before any child starts.
  ///   A restore that fails leaves nothing running: the children restored before the error are
  ///   cancelled (reported started, then cancelled, to `inspector`).
  public convenience init(
    _ definition: Definition, restoring system: SystemSnapshot<Definition.Instance.Snapshot>, children: @escaping ChildResolver,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil
  ) throws(SystemSnapshotError) {
    let options = _StoreOptions<Definition>(clock: clock, mailbox: mailbox, handler: handler, failure: failure, inspector: inspector)
    let made: AnyObject
    do {
      made = try Definition._restoreStore(definition, restoring: system.root, options: options, _StoreOf<Definition>.self)
    } catch {
      throw SystemSnapshotError(path: "", reason: "\(error)")
    }
    self.init(made: made)
    try runtime.restoreChildren(system.children, resolve: children)
  }
}
