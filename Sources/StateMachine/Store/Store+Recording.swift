extension Store where Definition: _TableStoreDefinition, Definition.Configuration: Codable, Event: Codable, Context: Codable, Work: Codable {
  /// The log recorder a store records to.
  public typealias Recorder = LogRecorder<State, Event, Context, Effect>

  /// Records this store's session: a new log whose header is the store's state and context
  /// now, and one entry per step from now on (its time is the step's, on the store's clock).
  ///
  /// ```swift
  /// let store = Store(table, context: context, clock: clock, handler: handler)
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
  /// ``LogRecorder/stoppedBy``). Close the recorder after ``finish()``.
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
    try runtime.with(TableEngine<Definition>.self) { runtime throws(LogError) in
      try runtime.attachRecorder(path: path ?? "(memory)") { engine throws(LogError) in
        let machine = engine.machine
        let recorder = try Recorder(table: machine.table, state: machine.state, context: machine.context, file: path, durability: durability)
        made = recorder
        return .init(Self.recording(to: recorder, onError: onError), children: Self.recordingChildren(to: recorder, onError: onError))
      }
    }
    return made!
  }

  /// A store that continues the log `recorder` resumed (``LogRecorder/init(resuming:table:durability:clock:)``)
  /// from its last state and context, and records every step to it. The state is taken as it
  /// is, as ``init(_:restoring:clock:mailbox:handler:failure:inspector:)`` takes a snapshot: the
  /// store has started, and its state's entry effects do not run again.
  ///
  /// ```swift
  /// let recorder = try LogRecorder(resuming: "session.jsonl", table: table)
  /// let store = try Store(table, resuming: recorder, clock: clock, handler: handler)
  /// ```
  ///
  /// - Throws: ``TableValidationError`` when the table has no such state.
  public convenience init(
    _ table: Definition, resuming recorder: Recorder,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil,
    onError: @escaping @Sendable (LogError) -> Void = { _ in }
  ) throws(TableValidationError) {
    let (state, context) = recorder.lastSnapshot
    try self.init(
      table, restoring: TableSnapshot(state: state, context: context), clock: clock, mailbox: mailbox, handler: handler,
      failure: failure, inspector: inspector)
    runtime.with(TableEngine<Definition>.self) { $0.attachRecorderBeforeUse(.init(Self.recording(to: recorder, onError: onError), children: Self.recordingChildren(to: recorder, onError: onError))) }
  }
}

extension Store where Event: Discriminated & Codable, Context: Codable, Work: Codable {
  /// Records each step the store reports to `recorder`, with the step's time (made where the
  /// store's types are known, so the recording runs specialised): a table's or a chart's.
  @inlinable
  static func recording<LoggedState>(
    to recorder: LogRecorder<LoggedState, Event, Context, Effect>, onError: @escaping @Sendable (LogError) -> Void
  ) -> @Sendable (StoreStep<Definition>) -> Void where Definition._LogState == LoggedState {
    { step in
      do throws(LogError) { try recorder.record(step, elapsed: step.time.inSeconds) } catch { onError(error) }
    }
  }

  /// Records the store's children's steps in `recorder`'s log, between the store's own entries.
  @inlinable
  static func recordingChildren<LoggedState>(
    to recorder: LogRecorder<LoggedState, Event, Context, Effect>, onError: @escaping @Sendable (LogError) -> Void
  ) -> @Sendable (ChildStep) -> Void {
    { step in
      do throws(LogError) { try recorder.record(step) } catch { onError(error) }
    }
  }
}
