/// Where a store's machine is, to save, and a store that continues from it: written once for
/// every kind of machine (a table's ``TableSnapshot``, a chart's ``ChartSnapshot``).
extension Store {
  /// A store that continues `definition` from `snapshot` (a store's or a machine's `snapshot`,
  /// or a log's last state and context): where the machine was is taken as it is, and no state
  /// is entered, so no entry effect or content runs again.
  ///
  /// A snapshot says where the machine is, not what was running: effects and timers that were
  /// running when it was taken do not restart. The store has started (``start()`` does
  /// nothing); a snapshot of a halted chart gives a halted store.
  ///
  /// ```swift
  /// let saved = store.snapshot                       // TableSnapshot: Codable when the state and context are
  /// let again = try Store(table, restoring: saved, clock: clock, handler: handler)
  /// ```
  ///
  /// The other parameters are ``init(_:context:clock:mailbox:handler:failure:inspector:)``'s.
  ///
  /// - Throws: What restoring the machine throws: ``TableValidationError`` when the state is not
  ///   one of the table's; ``ChartRestoreError`` when the snapshot is not a configuration the
  ///   chart can be in (see ``ChartMachine/init(_:restoring:)``), or has none (a chart not
  ///   started).
  @inlinable
  public convenience init(
    _ definition: Definition, restoring snapshot: Definition.Instance.Snapshot,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil
  ) throws(Definition.Instance.RestoreFailure) {
    let options = _StoreOptions<Definition>(clock: clock, mailbox: mailbox, handler: handler, failure: failure, inspector: inspector)
    self.init(made: try Definition._restoreStore(definition, restoring: snapshot, options: options, _StoreOf<Definition>.self))
  }

  /// Where the machine is, read at once, to save and restore: a table's state and context
  /// (``TableSnapshot``); a chart's configuration, history and context (``ChartSnapshot``).
  /// `Codable` when the machine's types are.
  @inlinable
  public var snapshot: Definition.Instance.Snapshot { Definition._snapshot(of: runtime, _StoreOf<Definition>.self) }
}
