import Foundation

extension LogRecorder {
  /// Starts a recording of `machine`, a running chart: the header holds its state (start the
  /// machine first, so the log begins at its initial configuration) and context.
  ///
  /// ```swift
  /// var machine = ChartMachine(chart, context: NoContext())
  /// _ = try machine.start()
  /// let recorder = try LogRecorder(chart: chart, machine: machine, file: "session.jsonl")
  /// let step = try machine.send("play")
  /// try recorder.record("play", step: step, machine: machine)
  /// ```
  public convenience init<ID>(
    chart: Chart<ID, Event, Context, Effect>, machine: ChartMachine<ID, Event, Context, Effect>, file path: String? = nil,
    durability: LogFile.Durability = .everyEntry, clock: (any Clock<Duration>)? = nil
  ) throws(LogError) where State == ChartLogState<ID> {
    try self.init(
      machine: chart.name, fingerprint: chart.fingerprint, state: ChartLogState(machine), context: machine.context, file: path,
      durability: durability, clock: clock, io: .system)
  }

  /// Records one macrostep of a chart: `step` is what `machine.send(event)` returned, and
  /// `machine` is after it. A transitioned step is logged `transitioned`; an event the chart
  /// did not handle, or got after it halted, `ignored`.
  @discardableResult @inlinable
  public func record<ID>(
    _ event: Event, step: ChartStep<Event, Effect>, machine: ChartMachine<ID, Event, Context, Effect>
  ) throws(LogError) -> Int where State == ChartLogState<ID> {
    try record(
      event, logged: step.loggedOutcome, state: ChartLogState(machine),
      context: machine.context, effects: step.effects)
  }
}

extension LogRecorder {
  /// Starts a recording of a chart from `snapshot` (a chart ``Store``'s, or a machine's).
  public convenience init<ID>(
    chart: Chart<ID, Event, Context, Effect>, snapshot: ChartSnapshot<ID, Context>, file path: String? = nil,
    durability: LogFile.Durability = .everyEntry, clock: (any Clock<Duration>)? = nil
  ) throws(LogError) where State == ChartLogState<ID> {
    try self.init(
      machine: chart.name, fingerprint: chart.fingerprint,
      state: ChartLogState(configuration: snapshot.configuration, history: snapshot.history, isHalted: snapshot.isHalted),
      context: snapshot.context, file: path, durability: durability, clock: clock, io: .system)
  }

  /// Continues the log of `chart` at `path`, as ``init(resuming:table:durability:clock:)``
  /// does for a table's: the whole file is read and checked first (the header names the chart
  /// and its fingerprint, every line is a valid entry, the last state is one the chart can be
  /// in), and only a torn last line is cut. Continue the chart from ``lastChartSnapshot()``, or
  /// give the recorder to a chart store's `init(_:resuming:clock:mailbox:handler:failure:inspector:onError:)`.
  ///
  /// - Throws: ``LogError`` when the file cannot be read, or is not a log of `chart` (the error
  ///   names the line); the file is then left exactly as it was.
  public convenience init<ID>(
    resuming path: String, chart: Chart<ID, Event, Context, Effect>,
    durability: LogFile.Durability = .everyEntry, clock: (any Clock<Duration>)? = nil
  ) throws(LogError) where State == ChartLogState<ID> {
    var result = Log.read(contentsOf: path, for: chart)
    if let log = result.log, let last = log.entries.last, let error = chart.stateError(last.state, line: log.entries.count + 1) {
      result = Log.ReadResult(log: nil, error: error)
    }
    try self.init(resuming: path, read: result, machine: (chart.name, chart.fingerprint), durability: durability, clock: clock)
  }

  /// Where the recorded chart is after the last entry (or the header, when there is none):
  /// what ``ChartMachine/init(_:restoring:)`` and ``Store/init(_:restoring:clock:mailbox:handler:failure:inspector:)``
  /// continue from.
  public func lastChartSnapshot<ID>() -> ChartSnapshot<ID, Context> where State == ChartLogState<ID> {
    let (state, context) = lastSnapshot
    return ChartSnapshot(configuration: state.configuration, history: state.history, context: context, isHalted: state.isHalted)
  }
}

extension EventLog {
  /// Reads a chart's log; the header must name the chart and its fingerprint. Like
  /// ``read(_:for:)`` for tables: never throws, a bad line ends the read with a typed error.
  /// The header's state must be one the chart can be in (see ``ChartMachine/init(_:restoring:)``).
  @inlinable
  public static func read<ID, Ctx, Eff>(_ data: Data, for chart: Chart<ID, Event, Ctx, Eff>) -> ReadResult
  where State == ChartLogState<ID> {
    read(.memory(MemoryLines(data: data)), for: chart)
  }

  /// Reads `lines` as a log of `chart`, refusing a header state the chart cannot be in.
  @inlinable
  static func read<ID, Ctx, Eff>(_ lines: LogLines, for chart: Chart<ID, Event, Ctx, Eff>) -> ReadResult
  where State == ChartLogState<ID> {
    let result = read(lines, expecting: (chart.name, chart.fingerprint))
    if let header = result.log?.header, let error = chart.headerError(header.state) { return ReadResult(log: nil, error: error) }
    return result
  }
}

extension EventLog {
  /// Reads the chart's log file at `path`, as `read(_:for:)` reads one in memory.
  @inlinable
  public static func read<ID, Ctx, Eff>(contentsOf path: String, for chart: Chart<ID, Event, Ctx, Eff>) -> ReadResult
  where State == ChartLogState<ID> {
    do { return read(.file(try FileLines.open(path)), for: chart) } catch { return ReadResult(log: nil, error: error) }
  }
}

extension LogReader {
  /// Opens the log file of a chart at `path`, checks its header against `chart` (name and
  /// fingerprint), and decodes it; entries are then read as a stream.
  /// The header's state must be one the chart can be in (see ``ChartMachine/init(_:restoring:)``).
  public init<ID>(contentsOf path: String, for chart: Chart<ID, Event, Context, Effect>) throws(LogError)
  where State == ChartLogState<ID>, Effect: Sendable, Event: Sendable {
    try self.init(.file(FileLines.open(path)), expecting: (chart.name, chart.fingerprint))
    if let error = chart.headerError(header.state) { throw error }
  }
}

extension Chart where ID: Codable {
  /// Why a log header's state cannot be a state of this chart, as the header line's error.
  @usableFromInline
  func headerError(_ state: ChartLogState<ID>) -> LogError? { stateError(state, line: 1) }

  /// Why the state logged on `line` cannot be a state of this chart.
  func stateError(_ state: ChartLogState<ID>, line: Int) -> LogError? {
    do throws(ChartRestoreError) {
      _ = try restoredState(state.configuration, history: state.history, isHalted: state.isHalted)
      return nil
    } catch {
      return .invalidValue(line: line, field: "state", detail: error.message)
    }
  }
}

extension Chart where ID: Codable, Event: Codable, Context: Codable & Equatable, Effect: Codable & Equatable {
  /// Feeds the logged events through the chart from the logged state and compares each
  /// macrostep with the log: outcome, configuration (and history), context and effects. Never
  /// performs effects. Like a table's `replay(_:reportingAll:)`: the first divergence,
  /// or every one, continuing each time from what the log recorded.
  @inlinable
  public func replay(_ log: EventLog<ChartLogState<ID>, Event, Context, Effect>, reportingAll all: Bool = false) -> ReplayReport {
    var replayer = ChartReplayer(self, header: log.header, reportingAll: all)
    return replayer.replay(log.entries, childLines: log.childLines)
  }

  /// Replays the log a reader reads, entry by entry, in constant memory.
  @inlinable
  public func replay(
    _ reader: inout LogReader<ChartLogState<ID>, Event, Context, Effect>, reportingAll all: Bool = false
  ) throws(LogError) -> ReplayReport {
    var replayer = ChartReplayer(self, header: reader.header, reportingAll: all)
    return try replayer.replay(&reader)
  }

  /// Replays the chart's log file at `path` as a stream.
  @inlinable
  public func replay(logAt path: String, reportingAll all: Bool = false) throws(LogError) -> ReplayReport {
    var reader = try LogReader<ChartLogState<ID>, Event, Context, Effect>(contentsOf: path, for: self)
    return try replay(&reader, reportingAll: all)
  }
}

/// Steps a chart alongside a log and collects where they differ.
@usableFromInline
struct ChartReplayer<ID: Hashable & Sendable & Codable, Event: Sendable & Codable, Context: Codable & Equatable, Effect: Sendable & Codable & Equatable>: LogReplaying {
  @usableFromInline typealias LoggedState = ChartLogState<ID>
  @usableFromInline typealias Machine = ChartMachine<ID, Event, Context, Effect>
  @usableFromInline let chart: Chart<ID, Event, Context, Effect>
  @usableFromInline let all: Bool
  /// Where the log begins.
  @usableFromInline let first: (state: ChartLogState<ID>, context: Context)
  /// The machine at the log's last state; `nil` when that state does not fit the chart.
  @usableFromInline var machine: Machine?
  @usableFromInline var divergences: [Divergence] = []
  @usableFromInline var replayed = 0
  /// The version of the log's format: in one of version 1, an entry lists the chart's
  /// `.effect` outputs alone, and a step matches it when either those or all its effects do
  /// (a log resumed by a later version lists them all).
  @usableFromInline let formatVersion: Int

  @inlinable
  init(_ chart: Chart<ID, Event, Context, Effect>, header: LogHeader<ChartLogState<ID>, Context>, reportingAll all: Bool) {
    (self.chart, self.all, first, formatVersion) = (chart, all, (header.state, header.context), header.version)
    machine = Self.machine(chart, at: header.state, context: header.context)
  }

  /// A machine at `state`: restored, or new (it starts on its first event) when the log began
  /// before the chart started.
  @inlinable
  static func machine(_ chart: Chart<ID, Event, Context, Effect>, at state: ChartLogState<ID>, context: Context) -> Machine? {
    // (A copy of a context the log holds by reference, as a restored machine steps one: stepping
    // must not change the log.)
    if state.configuration.isEmpty { return Machine(chart, context: keptContext(context)) }
    let snapshot = ChartSnapshot(configuration: state.configuration, history: state.history, context: context, isHalted: state.isHalted)
    return try? Machine(chart, restoring: snapshot)
  }

  /// Whether `machine` is at the logged `state`: `ChartLogState(machine) == state`, without
  /// making the configuration.
  @inlinable
  static func isAt(_ state: ChartLogState<ID>, _ machine: Machine) -> Bool {
    guard machine.halted == state.isHalted, machine.chart.configuration(of: machine.active, is: state.configuration) else {
      return false
    }
    return machine.history.isEmpty && state.history.isEmpty ? true : machine.historyValues == state.history
  }

  @inlinable var isDone: Bool { !all && !divergences.isEmpty }

  /// Whether `logged`, an entry's effects, are those of `step` (`effects`, all of them): or,
  /// in a log of format version 1, its `.effect` outputs alone (see ``formatVersion``).
  @inlinable
  func matches(_ logged: [Effect], _ step: ChartStep<Event, Effect>, _ effects: [Effect]) -> Bool {
    logged == effects
      || (formatVersion < LogFormat.chartsListCommands && logged == step.outputs.effects(allOutputs: false))
  }

  @inlinable var report: ReplayReport { ReplayReport(replayed: replayed, divergences: divergences) }
  @inlinable var reportsAll: Bool { all }

  /// A log that begins where the chart begins (its initial configuration and context, as a
  /// store is made in them before it starts): its start's effects, a new machine's first
  /// macrostep's. A log that begins anywhere else: none.
  @inlinable
  func startEffects() -> [Effect] {
    var fresh = Machine(chart, context: keptContext(first.context))
    guard let step = try? fresh.start() else { return [] }
    let begins = first.state.configuration.isEmpty || (ChartLogState(fresh) == first.state && fresh.context == first.context)
    return begins ? step.effects : []
  }

  @inlinable @discardableResult
  mutating func check(_ entry: LogEntry<ChartLogState<ID>, Event, Context, Effect>) -> [Effect] {
    replayed += 1
    var effects: [Effect] = []
    var differences: [Divergence.Difference] = []
    // Taken out while it steps, so that its buffers are not shared with `machine` (stepping a
    // copy made every step copy them).
    if var current = machine.take() {
      do {
        let step = try current.send(entry.event)
        effects = step.effects
        // The logged state is compared in place; its differences are written out only when
        // something differs.
        let effectsMatch = matches(entry.effects, step, effects)
        if step.loggedOutcome != entry.outcome || !Self.isAt(entry.state, current) || current.context != entry.context
          || !effectsMatch
        {
          differences = entry.differences(
            outcome: step.loggedOutcome, state: ChartLogState(current),
            context: current.context, effects: effectsMatch ? entry.effects : effects)
        }
        machine = current
      } catch {
        differences.append(.init(field: "outcome", expected: "\(entry.outcome)", actual: "\(error)"))
      }
    } else {
      differences.append(.init(field: "state", expected: "a state of chart '\(chart.name)'", actual: "a state the chart does not have"))
    }
    if !differences.isEmpty {
      divergences.append(Divergence(sequence: entry.sequence, event: "\(entry.event)", differences: differences))
      // Continue from what the log recorded, so one divergence does not cascade.
      machine = Self.machine(chart, at: entry.state, context: entry.context)
    }
    return effects
  }
}

extension ChartStep {
  /// What a log keeps of the step: `transitioned`, or `ignored` for an event the chart did not
  /// handle or got after it halted.
  @inlinable
  package var loggedOutcome: LoggedOutcome { outcome == .transitioned ? .transitioned : .ignored }
}
