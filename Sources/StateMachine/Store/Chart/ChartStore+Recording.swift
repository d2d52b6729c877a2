import Foundation

extension ChartStore {
  /// A store that continues `chart` from `snapshot` (a store's or a machine's
  /// ``ChartStore/snapshot``, or a log's last state): the configuration, history and context
  /// are taken as they are, and no state is entered, so no entry content runs.
  ///
  /// A snapshot says where the chart is, not what was running: effects and timers that were
  /// running when it was taken do not restart. A snapshot of a halted chart gives a halted store.
  ///
  /// - Throws: ``ChartRestoreError`` when the snapshot is not a configuration the chart can be
  ///   in (see ``ChartMachine/init(_:restoring:)``), or has none (a chart not started: make
  ///   the store with ``init(_:context:clock:mailbox:handler:failure:inspector:)``).
  public convenience init(
    _ chart: Chart<ID, Event, Context, Effect>,
    restoring snapshot: ChartSnapshot<ID, Context>,
    clock: any Clock<Duration> = ContinuousClock(),
    mailbox: MailboxPolicy = .unbounded,
    handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil },
    inspector: Inspector? = nil
  ) throws(ChartRestoreError) {
    self.init(
      runtime: StoreRuntime(
        engine: try ChartEngine(chart, restoring: snapshot), clock: clock, mailbox: mailbox, handler: handler,
        failure: failure, inspector: inspector))
    if snapshot.isHalted { runtime.core.withLock { $0.halted = true } }
  }
}

extension ChartStore where ID: Codable, Event: Discriminated & Codable, Context: Codable, Work: Codable {
  /// The log recorder a chart store records to.
  public typealias Recorder = LogRecorder<ChartLogState<ID>, Event, Context, Effect>

  /// Records this store's session: a new log whose header is where the store is now, and one
  /// entry per step from now on (its time is the step's, on the store's clock).
  ///
  /// ```swift
  /// let store = try ChartStore(chart, context: Progress(), clock: clock, handler: handler)
  /// let recorder = try store.record(to: "session.jsonl")
  /// store.start()
  /// ```
  ///
  /// Call it before ``send(_:)`` and ``start()`` (or at any moment no event is being handled).
  /// A step that cannot be written stops the recording and goes to `onError` (see
  /// ``LogRecorder/stoppedBy``), as with ``LogRecorder/chartStoreInspector(forwardingTo:onError:)``.
  /// Close the recorder after ``finish()``.
  ///
  /// - Parameters:
  ///   - path: The new log file (created atomically, never replacing a file); `nil` keeps the
  ///     log in memory (read it with ``LogRecorder/log``).
  ///   - durability: The file's sync policy.
  ///   - onError: Told when a step could not be written.
  /// - Throws: ``LogError/alreadyExists(path:)`` or ``LogError/io(path:detail:)`` when the file
  ///   cannot be made, or when the store is handling an event, has finished, or already records.
  @discardableResult @inlinable
  public func record(
    to path: String? = nil, durability: LogFile.Durability = .everyEntry,
    onError: @escaping @Sendable (LogError) -> Void = { _ in }
  ) throws(LogError) -> Recorder {
    var made: Recorder?
    try runtime.attachRecorder(path: path ?? "(memory)") { engine throws(LogError) in
      let recorder = try Recorder(chart: engine.chart, snapshot: engine.snapshot, file: path, durability: durability)
      made = recorder
      return Self.steps(to: recorder, onError: onError)
    }
    return made!
  }

  /// A store that continues the log `recorder` resumed (``LogRecorder/init(resuming:chart:durability:clock:)``)
  /// from its last state, and records every step to it.
  ///
  /// ```swift
  /// let recorder = try LogRecorder(resuming: "session.jsonl", chart: chart)
  /// let store = try ChartStore(chart, resuming: recorder, clock: clock, handler: handler)
  /// ```
  ///
  /// - Throws: ``ChartRestoreError`` when the log's last state is not one `chart` can be in.
  public convenience init(
    _ chart: Chart<ID, Event, Context, Effect>,
    resuming recorder: Recorder,
    clock: any Clock<Duration> = ContinuousClock(),
    mailbox: MailboxPolicy = .unbounded,
    handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil },
    inspector: Inspector? = nil,
    onError: @escaping @Sendable (LogError) -> Void = { _ in }
  ) throws(ChartRestoreError) {
    try self.init(
      chart, restoring: recorder.lastChartSnapshot(), clock: clock, mailbox: mailbox, handler: handler, failure: failure,
      inspector: inspector)
    runtime.attachRecorderBeforeUse(Self.steps(to: recorder, onError: onError))
  }

  /// Records each step the store reports to `recorder`, with the step's time (made where the
  /// store's types are known, so the recording runs specialised).
  @inlinable
  static func steps(
    to recorder: Recorder, onError: @escaping @Sendable (LogError) -> Void
  ) -> @Sendable (ChartStoreStep<ID, Event, Context, Work>) -> Void {
    { step in
      do throws(LogError) { try recorder.record(step, elapsed: step.time.inSeconds) } catch { onError(error) }
    }
  }
}
