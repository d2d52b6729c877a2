import Foundation

/// Records every step of a machine or a store into an ``EventLog``, and optionally a
/// ``LogFile`` as it goes.
///
/// A recorder without a file keeps every entry in memory (read them with ``log``). A recorder
/// that writes to a file keeps only the last entry, so a long-running store records in constant
/// memory; its ``log`` is read back from the file.
///
/// When a step that already happened cannot be written (a store's step, or one given to
/// ``record(_:outcome:state:context:)``), the recorder stops: that call and every later one
/// throw, so the log never has a silent gap. ``send(_:to:)`` leaves the machine as it was on a
/// failed write, so it does not stop the recorder: the step can be sent again.
///
/// A store makes its recorder (`store.record(to:durability:onError:)`); a machine stepped by
/// hand records through one made for it:
///
/// ```swift
/// let recorder = try LogRecorder(table: table, state: machine.state, context: machine.context,
///                                file: "session.jsonl", clock: clock)
/// let outcome = try recorder.send(.submit, to: &machine)
/// ```
public final class LogRecorder<State: Discriminated & Codable, Event: Discriminated & Codable, Context: Codable & Sendable, Effect: Codable & Sendable>: Sendable {
  /// The log a recorder keeps.
  public typealias Log = EventLog<State, Event, Context, Effect>

  @usableFromInline
  struct Recording {
    /// The header, and every entry when there is no file (with a file: none).
    @usableFromInline var log: Log
    /// The last entry recorded, in memory or not.
    @usableFromInline var last: Log.Entry?
    /// Entries recorded so far.
    @usableFromInline var count: Int
    /// Why recording stopped: a step that already happened could not be written.
    @usableFromInline var stopped: LogError?
    /// Writes entry lines, remembering the JSON of values it has written before.
    @usableFromInline var writer = LogLineWriter<State, Event, Context, Effect>()
    /// The line being written, kept to reuse its storage.
    @usableFromInline var line: [UInt8] = []

    init(log: Log, keepsEntries: Bool) {
      (count, last) = (log.entries.count, log.entries.last)
      self.log = keepsEntries ? log : Log(header: log.header)
    }
  }

  @usableFromInline let recording: Locked<Recording>
  @usableFromInline let file: LogFile?
  /// The recorder's clock and when the recording started on it.
  @usableFromInline let now: (any StoreClock)?
  /// Whether the context is held by a reference that goes on changing (``KeptByCopy``): a log in
  /// memory then keeps a copy of it at each step. (Worked out once, not per entry.)
  @usableFromInline let copiesContexts = Context.self is any KeptByCopy.Type

  /// Starts a recording of `table` from `state` and `context`.
  ///
  /// - Parameters:
  ///   - table: The table whose steps are recorded (its name and fingerprint go in the header).
  ///   - state: The state the recording starts in.
  ///   - context: The context the recording starts with.
  ///   - path: When given, the log is also written there, line by line. The file is created
  ///     atomically (see ``LogFile``) and never replaces an existing one: to continue a log,
  ///     use ``init(resuming:table:durability:clock:)``.
  ///   - durability: The file's sync policy.
  ///   - clock: When given, each entry carries the seconds elapsed on it since now.
  /// - Throws: ``LogError/alreadyExists(path:)`` when a file exists at `file`, or
  ///   ``LogError/io(path:detail:)``.
  public convenience init(
    table: TransitionTable<State, Event, Context, Effect>, state: State, context: Context, file path: String? = nil,
    durability: LogFile.Durability = .everyEntry, clock: (any Clock<Duration>)? = nil
  ) throws(LogError) {
    try self.init(table: table, state: state, context: context, file: path, durability: durability, clock: clock, io: .system)
  }

  convenience init(
    table: TransitionTable<State, Event, Context, Effect>, state: State, context: Context, file path: String?,
    durability: LogFile.Durability, clock: (any Clock<Duration>)?, io: LogFileIO
  ) throws(LogError) {
    try self.init(
      machine: table.name, fingerprint: table.fingerprint, state: state, context: context, file: path, durability: durability,
      clock: clock, io: io)
  }

  /// A recording of the machine named `name` whose definition has `fingerprint`.
  init(
    machine name: String, fingerprint: String, state: State, context: Context, file path: String?,
    durability: LogFile.Durability, clock: (any Clock<Duration>)?, io: LogFileIO
  ) throws(LogError) {
    let header = Log.Header(machine: name, fingerprint: fingerprint, state: state, context: path == nil ? keptContext(context) : context)
    if let path {
      let line: Data
      do { line = try Log.line(header) } catch { throw .io(path: path, detail: "cannot encode the header: \(error)") }
      file = try LogFile.create(at: path, header: line, durability: durability, io: io)
    } else {
      file = nil
    }
    now = clock.map { storeClock($0) }
    recovery = nil
    machine = (name, fingerprint)
    recording = Locked(Recording(log: Log(header: header), keepsEntries: file == nil))
  }

  /// Continues the log at `path`: keeps every complete entry, cuts a torn last line (the
  /// writer died mid-write) and reports it in ``recovery``, then appends after the last entry.
  ///
  /// The whole file is read and checked before anything is changed: when it is not a log of
  /// `table` — not a log at all, another machine's, a line that is not a valid entry — this
  /// throws and the file is left exactly as it was. Only a torn tail after valid lines is cut.
  ///
  /// - Throws: ``LogError`` when the file cannot be read, or its complete part is not a log of
  ///   `table` (the error names the line).
  public convenience init(
    resuming path: String, table: TransitionTable<State, Event, Context, Effect>,
    durability: LogFile.Durability = .everyEntry, clock: (any Clock<Duration>)? = nil
  ) throws(LogError) {
    try self.init(
      resuming: path, read: Log.read(contentsOf: path, for: table), machine: (table.name, table.fingerprint),
      durability: durability, clock: clock)
  }

  /// Continues the log at `path` once `read` (the whole file, read for its machine) says it is
  /// one: see ``init(resuming:table:durability:clock:)``.
  init(
    resuming path: String, read result: Log.ReadResult, machine: (name: String, fingerprint: String),
    durability: LogFile.Durability, clock: (any Clock<Duration>)?
  ) throws(LogError) {
    guard let log = result.log else { throw result.error ?? .empty }
    switch result.error {
    case nil, .tornTail?: break  // a torn last line is what reopening cuts
    case let error?: throw error
    }
    let (file, recovery) = try LogFile.open(at: path, durability: durability)
    self.file = file
    self.recovery = recovery
    now = clock.map { storeClock($0) }
    self.machine = machine
    recording = Locked(Recording(log: log, keepsEntries: false))
  }

  /// The recorded machine's name and fingerprint (to read the file back).
  let machine: (name: String, fingerprint: String)

  /// What resuming found: lines kept and bytes of a torn tail cut off (`nil` for a new log).
  public let recovery: LogFile.Recovery?

  /// The state and context after the last entry (or the header's, when there is none), to
  /// continue a machine from.
  public var lastSnapshot: (state: State, context: Context) {
    recording.withLock { recording in
      recording.last.map { ($0.state, $0.context) } ?? (recording.log.header.state, recording.log.header.context)
    }
  }

  /// The number of entries recorded so far (a resumed log's included).
  public var count: Int { recording.withLock { $0.count } }

  /// Entries recorded and not yet written to the file: those a ``LogFile/Durability/batched(_:)``
  /// file holds for its next write (0 for every other policy, and without a file).
  public var unwrittenCount: Int { file?.pendingLines ?? 0 }

  /// Why the recorder stopped, if it did: a step that had already happened could not be
  /// written, so nothing after it is recorded (every later call throws this error too).
  public var stoppedBy: LogError? { recording.withLock { $0.stopped } }

  /// Everything recorded so far. A recorder without a file has it in memory; one with a file
  /// reads it back from the file (all its entries in memory at once: for a long log, read the
  /// file with a ``LogReader`` instead).
  public var log: Log {
    recording.withLock { recording in
      guard let file else { return recording.log }
      // A batch not written yet is written first (a failure shows in the next record).
      try? file.flush()
      // The file is this recorder's, written whole lines at a time under this lock.
      guard let lines = try? FileLines.open(file.path) else { return recording.log }
      return Log.read(.file(lines), expecting: machine).log ?? recording.log
    }
  }

  /// Records one step; returns its sequence number.
  @discardableResult @inlinable
  public func record(
    _ event: Event, outcome: StepOutcome<State, Effect>, state: State, context: Context
  ) throws(LogError) -> Int {
    try record(event, outcome: outcome, state: state, context: context, stopsOnFailure: true)
  }

  @discardableResult @inlinable
  func record(
    _ event: Event, outcome: StepOutcome<State, Effect>, state: State, context: Context, stopsOnFailure: Bool
  ) throws(LogError) -> Int {
    try record(
      event, logged: LoggedOutcome(outcome), state: state, context: context, effects: Array(outcome.effects),
      stopsOnFailure: stopsOnFailure)
  }

  /// Records one step given as what a log keeps of it. `stopsOnFailure`: the step already
  /// happened, so when it cannot be written the recorder stops instead of leaving a gap.
  /// `elapsed`: the entry's time when the caller knows it (a store's step), else the recorder's clock's.
  /// (Inlinable, as the callers are: it runs specialised for the log's types.)
  @discardableResult @inlinable
  func record(
    _ event: Event, logged: LoggedOutcome, state: State, context: Context, effects: [Effect], stopsOnFailure: Bool = true,
    elapsed: Double? = nil
  ) throws(LogError) -> Int {
    let time = elapsed ?? now.map { $0.elapsed.inSeconds }
    let result: Result<Int, LogError> = recording.withLock { recording in
      if let stopped = recording.stopped { return .failure(stopped) }
      var entry = Log.Entry(
        sequence: recording.count + 1, time: time, event: event, outcome: logged,
        state: state, context: context, effects: effects)
      if let file {
        // Written under the lock, so lines land in sequence order.
        recording.line.removeAll(keepingCapacity: true)
        var failure: LogError?
        do { try recording.writer.append(entry, to: &recording.line) } catch {
          failure = .io(path: file.path, detail: "cannot encode entry \(entry.sequence)")
        }
        // A batched file's entries not written yet go with this one when its write fails.
        var held = 0
        if failure == nil, let failed = file.append(bytes: recording.line) { (failure, held) = (failed.error, failed.lines - 1) }
        if let failure {
          // Entries of a lost batch already happened: the recording stops, whoever asked.
          if stopsOnFailure || held > 0 {
            recording.count -= held
            let lost = held > 0 ? "entries \(entry.sequence - held)–\(entry.sequence)" : "entry \(entry.sequence)"
            recording.stopped = .io(
              path: file.path, detail: "recording stopped after entry \(recording.count): \(lost) could not be written (\(failure))")
          }
          return .failure(failure)
        }
      } else {
        if copiesContexts { entry.context = keptContext(entry.context) }
        recording.log.entries.append(entry)
      }
      recording.count += 1
      recording.last = entry
      return .success(entry.sequence)
    }
    return try result.get()
  }

  /// Records a child's step between this log's entries (a system's log). A child whose types
  /// are not all `Codable` cannot be: the error says which, and the recording goes on.
  /// A child's end is a line of its own (see ``ChildEnd``).
  @usableFromInline
  func record(_ step: ChildStep) throws(LogError) {
    let fields: [UInt8]
    if let end = step.ended {
      fields = end.fields
    } else {
      guard let logged = step.logged else { return }
      switch logged() {
      case .fields(let encoded): fields = encoded
      case .unrecordable(let why): throw .unrecordable(machine: step.path, detail: "step \(step.sequence) cannot be recorded: \(why)")
      }
    }
    let line = ChildLogBody.line(path: step.path, fields: fields)
    let result: Result<Void, LogError> = recording.withLock { recording in
      if let stopped = recording.stopped { return .failure(stopped) }
      guard let file else {
        recording.log.childLines.append(
          ChildLogLine(
            path: step.path, sequence: step.sequence, afterEntry: recording.count,
            line: 2 + recording.count + recording.log.childLines.count, text: String(decoding: line, as: UTF8.self),
            ended: step.ended?.how.rawValue))
        return .success(())
      }
      if let failed = file.append(bytes: line + [0x0A]) {
        // The step happened: a log that cannot say so stops, as for an entry.
        recording.count -= failed.lines - 1
        recording.stopped = .io(
          path: file.path, detail: "recording stopped after entry \(recording.count): child \(step.path)'s \(step.ended == nil ? "step \(step.sequence)" : "end") could not be written (\(failed.error))")
        return .failure(failed.error)
      }
      return .success(())
    }
    try result.get()
  }

  /// Sends `event` to `machine` and records the step. When the step cannot be recorded (the
  /// file cannot be written), `machine` is left as it was and the error is thrown: the machine
  /// and its log never disagree.
  @discardableResult @inlinable
  public func send(_ event: Event, to machine: inout Machine<State, Event, Context, Effect>) throws(LogError) -> StepOutcome<State, Effect> {
    var stepped = machine
    let outcome = stepped.send(event)
    try record(event, outcome: outcome, state: stepped.state, context: stepped.context, stopsOnFailure: false)
    machine = stepped
    return outcome
  }

  /// Syncs and closes the file, if any.
  public func close() throws(LogError) { try file?.close() }
}

extension LogRecorder {
  /// An inspector for a ``Store`` that records every step: a table's store, or a chart's
  /// (configuration, history, context, effects). Pass `forward` to keep another inspector too.
  /// A step that cannot be written is reported to `onError`, and stops the recording (see
  /// ``stoppedBy``): every later step is reported to `onError` too, so the log never skips a
  /// step silently. A store's `record(to:durability:onError:)` attaches a recorder in one
  /// line; this inspector is for a recorder made before the store.
  package func storeInspector<Definition: StoreDefinition>(
    forwardingTo forward: (@Sendable (StoreReport<Event, StoreStep<Definition>>) -> Void)? = nil,
    onError: @escaping @Sendable (LogError) -> Void = { _ in }
  ) -> @Sendable (StoreReport<Event, StoreStep<Definition>>) -> Void
  where
    Definition._LogState == State, Definition.Event == Event, Definition.Context == Context, Definition.Context: Sendable,
    Definition.Configuration: Sendable, Effect == Command<Event, Definition.Effect.Work>
  {
    { [self] event in
      if case .step(let step) = event {
        do throws(LogError) { try record(step, elapsed: nil) } catch { onError(error) }
      }
      forward?(event)
    }
  }

  /// Records a store's step (stopping on a failed write); `elapsed`: its time, or `nil` for the
  /// recorder's clock.
  @inlinable
  func record<Definition: StoreDefinition>(_ step: StoreStep<Definition>, elapsed: Double?) throws(LogError)
  where Definition._LogState == State, Definition.Event == Event, Definition.Context == Context,
    Effect == Command<Event, Definition.Effect.Work> {
    let (outcome, state) = Definition._logged(step)
    try record(step.event, logged: outcome, state: state, context: step.context, effects: step.effects, elapsed: elapsed)
  }
}
