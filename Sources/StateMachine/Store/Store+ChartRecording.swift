extension Store where Definition: _ChartStoreDefinition, Definition.ID: Codable, Event: Discriminated & Codable, Context: Codable, Work: Codable {
  /// Records this store's session: a new log whose header is where the store is now, and one
  /// entry per step from now on (its time is the step's, on the store's clock).
  ///
  /// ```swift
  /// let store = try Store(chart, context: Progress(), clock: clock, handler: handler)
  /// let recorder = try store.record(to: "session.jsonl")
  /// store.start()
  /// ```
  ///
  /// A store with child machines records its system: each child's step (and its children's)
  /// is a line of this log too, led by the child's path (``ChildLogLine``), between the
  /// store's own entries; the children started after this call are recorded. A child whose
  /// types are not all `Codable` is told to `onError` (``LogError/unrecordable(machine:detail:)``).
  ///
  /// Call it before `send(_:)` and ``start()`` (or at any moment no event is being handled).
  /// A step that cannot be written stops the recording and goes to `onError` (see
  /// ``LogRecorder/stoppedBy``), as with `LogRecorder.storeInspector(forwardingTo:onError:)`.
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
  ) throws(LogError) -> LogRecorder<ChartLogState<ID>, Event, Context, Effect> {
    var made: LogRecorder<ChartLogState<ID>, Event, Context, Effect>?
    try runtime.with(ChartEngine<Definition>.self) { runtime throws(LogError) in
      try runtime.attachRecorder(path: path ?? "(memory)") { engine throws(LogError) in
        let recorder = try LogRecorder(chart: engine.chart, snapshot: engine.snapshot, file: path, durability: durability)
        made = recorder
        return .init(Self.recording(to: recorder, onError: onError), children: Self.recordingChildren(to: recorder, onError: onError))
      }
    }
    return made!
  }

  /// A store that continues the log `recorder` resumed (``LogRecorder/init(resuming:chart:durability:clock:)``)
  /// from its last state, and records every step to it.
  ///
  /// ```swift
  /// let recorder = try LogRecorder(resuming: "session.jsonl", chart: chart)
  /// let store = try Store(chart, resuming: recorder, clock: clock, handler: handler)
  /// ```
  ///
  /// - Throws: ``ChartRestoreError`` when the log's last state is not one `chart` can be in.
  public convenience init(
    _ chart: Definition, resuming recorder: LogRecorder<ChartLogState<ID>, Event, Context, Effect>,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil,
    onError: @escaping @Sendable (LogError) -> Void = { _ in }
  ) throws(ChartRestoreError) {
    try self.init(
      chart, restoring: recorder.lastChartSnapshot(), clock: clock, mailbox: mailbox, handler: handler, failure: failure,
      inspector: inspector)
    runtime.with(ChartEngine<Definition>.self) { $0.attachRecorderBeforeUse(.init(Self.recording(to: recorder, onError: onError), children: Self.recordingChildren(to: recorder, onError: onError))) }
  }
}
