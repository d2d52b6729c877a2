/// Where a replay first (or each time) differed from the log.
public struct Divergence: Hashable, Sendable, CustomStringConvertible {
  /// The entry's sequence number (a child's step's, in its own store, when ``machine`` names one).
  public let sequence: Int
  /// The line of the log file the entry is on (the header is line 1).
  public let line: Int
  /// In a system's log, the path of the child machine whose step differed (`"uploads/a.jpg"`);
  /// `nil` for the log's own machine.
  public let machine: String?
  /// The event, as text.
  public let event: String
  /// What the log says, field by field, and what the table does now, for each field that differs.
  public let differences: [Difference]

  /// A divergence at entry `sequence`, for tools that compare logs their own way.
  @usableFromInline package init(sequence: Int, event: String, differences: [Difference]) {
    self.init(sequence: sequence, line: sequence + 1, machine: nil, event: event, differences: differences)
  }

  /// A divergence at line `line` of a log, of its own machine (`machine` `nil`) or of the child
  /// at that path.
  @usableFromInline package init(sequence: Int, line: Int, machine: String?, event: String, differences: [Difference]) {
    (self.sequence, self.line, self.machine, self.event, self.differences) = (sequence, line, machine, event, differences)
  }

  /// One field that differs.
  public struct Difference: Hashable, Sendable {
    /// The field that differs: `outcome`, `state`, `context` or `effects`.
    public let field: String
    /// What the log says.
    public let expected: String
    /// What the machine does now.
    public let actual: String

    /// What the log says `field` is (`expected`) and what was found (`actual`).
    @usableFromInline package init(field: String, expected: String, actual: String) {
      (self.field, self.expected, self.actual) = (field, expected, actual)
    }
  }

  public var description: String {
    ([(machine.map { "child \($0), step \(sequence)" } ?? "entry \(sequence)") + " (line \(line)), event \(event):"]
      + differences.map { "  \($0.field): expected \($0.expected), got \($0.actual)" }).joined(separator: "\n")
  }
}

/// What replaying a log found.
public struct ReplayReport: Hashable, Sendable, CustomStringConvertible {
  /// Entries replayed.
  public let replayed: Int
  /// The divergences: the first only, or all when asked.
  public let divergences: [Divergence]

  /// In a system's log, the children's steps replayed (0 for a single machine's log).
  public let childSteps: Int

  /// A report of `replayed` entries with these divergences.
  @usableFromInline package init(replayed: Int, divergences: [Divergence]) {
    self.init(replayed: replayed, childSteps: 0, divergences: divergences)
  }

  /// A report of a system's log: `replayed` entries of its own machine and `childSteps` of its
  /// children.
  @usableFromInline package init(replayed: Int, childSteps: Int, divergences: [Divergence]) {
    (self.replayed, self.childSteps, self.divergences) = (replayed, childSteps, divergences)
  }

  /// Whether the table did exactly what the log recorded.
  public var isIdentical: Bool { divergences.isEmpty }

  public var description: String {
    let what = "replayed \(replayed) entries" + (childSteps > 0 ? " and \(childSteps) child steps" : "")
    return isIdentical
      ? "\(what): identical"
      : "\(what): \(divergences.count) divergence\(divergences.count == 1 ? "" : "s")\n"
        + divergences.map(\.description).joined(separator: "\n")
  }
}

extension TransitionTable
where State: Codable & Equatable, Event: Codable, Context: Codable & Equatable, Effect: Codable & Equatable {
  /// Feeds the logged events through the pure step from the logged initial state and compares
  /// each step with the log: outcome, state, context and effects. Never performs effects:
  /// their results are events in the log.
  ///
  /// - Parameters:
  ///   - log: The log to replay.
  ///   - all: `false` (the default) stops at the first divergence; `true` reports every one,
  ///     continuing each time from what the log recorded.
  @inlinable
  public func replay(_ log: EventLog<State, Event, Context, Effect>, reportingAll all: Bool = false) -> ReplayReport {
    var replayer = Replayer(self, header: log.header, reportingAll: all)
    return replayer.replay(log.entries, childLines: log.childLines)
  }

  /// Replays the log `reader` reads, entry by entry, in constant memory: the way to replay a
  /// log file of any length.
  ///
  /// ```swift
  /// var reader = try LogReader(contentsOf: "session.jsonl", for: table)
  /// let report = try table.replay(&reader)
  /// ```
  ///
  /// Every line is read even after the first divergence, so a log that cannot be read to its
  /// end is reported as such (the error names the line) whatever the replay found before it.
  ///
  /// - Throws: ``LogError`` for the first line that cannot be read.
  @inlinable
  public func replay(
    _ reader: inout LogReader<State, Event, Context, Effect>, reportingAll all: Bool = false
  ) throws(LogError) -> ReplayReport {
    var replayer = Replayer(self, header: reader.header, reportingAll: all)
    return try replayer.replay(&reader)
  }

  /// Replays the log file at `path` as a stream (see `replay(_:reportingAll:)` with a ``LogReader``).
  ///
  /// - Throws: ``LogError``: the file cannot be read (missing, a directory, a FIFO, a device,
  ///   no permission), its header is not this table's, or a line is bad (the error names it).
  @inlinable
  public func replay(logAt path: String, reportingAll all: Bool = false) throws(LogError) -> ReplayReport {
    var reader = try LogReader<State, Event, Context, Effect>(contentsOf: path, for: self)
    return try replay(&reader, reportingAll: all)
  }
}

/// Steps a machine alongside a log, entry by entry, and collects where they differ: a table's
/// ``Replayer`` or a chart's `ChartReplayer`. The replay loops are written once, here.
@usableFromInline
protocol LogReplaying {
  associatedtype LoggedState: Codable
  associatedtype Event: Codable
  associatedtype Context: Codable
  associatedtype Effect: Codable
  /// Whether the replay has stopped (at the first divergence, unless all are reported).
  var isDone: Bool { get }
  /// Whether every divergence is reported (else the first).
  var reportsAll: Bool { get }
  /// The divergences found so far.
  var divergences: [Divergence] { get }
  var report: ReplayReport { get }
  /// The version of the log's format (see ``LogHeader/version``).
  var formatVersion: Int { get }
  /// The effects the machine's start emits from where the log begins (a table's entry effects
  /// of its first state; a chart's first macrostep's, when the log began before it started):
  /// the children a system's root started before its first entry.
  func startEffects() -> [Effect]
  /// Checks one entry; returns the effects the replayed step emitted (the children a system's
  /// root started are among them).
  @discardableResult
  mutating func check(_ entry: LogEntry<LoggedState, Event, Context, Effect>) -> [Effect]
}

extension LogReplaying {
  /// Checks `entries` in order until the replay is done, with a system's `childLines` (its
  /// children's steps) each after the entries it followed.
  @inlinable
  mutating func replay(_ entries: [LogEntry<LoggedState, Event, Context, Effect>], childLines: [ChildLogLine]) -> ReplayReport {
    guard !childLines.isEmpty else {
      // By index: each entry is lent to `check` where it lies, not copied out first.
      for i in entries.indices where !isDone { check(entries[i]) }
      return report
    }
    var system = startSystem()
    var next = childLines.startIndex
    for entry in entries {
      let end = childLines[next...].firstIndex { $0.afterEntry >= entry.sequence } ?? childLines.endIndex
      system.check(childLines[next..<end])
      next = end
      step(entry, in: &system)
    }
    system.check(childLines[next...])
    return system.report(root: report)
  }

  /// Checks what `reader` reads, reading every line even after the replay is done (so a log
  /// that cannot be read to its end is reported as such). A system's log replays whole.
  @inlinable
  mutating func replay(_ reader: inout LogReader<LoggedState, Event, Context, Effect>) throws(LogError) -> ReplayReport {
    var system = startSystem()
    while let entry = try reader.next() {
      system.check(reader.takeChildLines())
      step(entry, in: &system)
    }
    system.check(reader.takeChildLines())
    return system.report(root: report)
  }

  /// The system's replay, with the children the root's start started (when its effects can
  /// start children at all).
  @inlinable
  func startSystem() -> SystemReplay {
    var system = SystemReplay(reportsAll: reportsAll, effects: Effect.self, formatVersion: formatVersion)
    if system.effectsInvoke { system.started(invocations(in: startEffects()), below: nil) }
    return system
  }

  /// Checks one entry of the root, and starts the children its step started.
  @inlinable
  mutating func step(_ entry: LogEntry<LoggedState, Event, Context, Effect>, in system: inout SystemReplay) {
    guard !isDone, !system.isDone else { return }
    let before = divergences.count
    let effects = check(entry)
    if divergences.count != before { system.rootChecked(entry.sequence, divergences: divergences[before...]) }
    if system.effectsInvoke, !effects.isEmpty { system.started(invocations(in: effects), below: nil) }
  }

  /// The children `effects` start.
  @inlinable
  func invocations(in effects: [Effect]) -> [ChildInvocation] {
    effects.compactMap { ($0 as? any ChildInvoking)?.invocation }
  }
}

/// Steps a table alongside a log, entry by entry, and collects where they differ.
@usableFromInline
struct Replayer<State: Discriminated & Codable & Equatable, Event: Discriminated & Codable, Context: Codable & Equatable, Effect: Codable & Equatable & Sendable>: LogReplaying {
  @usableFromInline typealias LoggedState = State
  @usableFromInline let table: TransitionTable<State, Event, Context, Effect>
  @usableFromInline var state: State
  @usableFromInline var context: Context
  @usableFromInline let all: Bool
  @usableFromInline var divergences: [Divergence] = []
  @usableFromInline var replayed = 0
  /// The version of the log's format: a table's entries read alike in every version; its
  /// system's chart children's lines do not (see ``SystemReplay``).
  @usableFromInline let formatVersion: Int

  @inlinable
  init(_ table: TransitionTable<State, Event, Context, Effect>, header: LogHeader<State, Context>, reportingAll all: Bool) {
    (self.table, state, context, self.all, formatVersion) = (table, header.state, header.context, all, header.version)
    first = state
  }

  /// The state the log begins in.
  @usableFromInline let first: State

  @inlinable
  func startEffects() -> [Effect] { table.entryEffects(of: first.discriminant) }

  /// Whether the replay has stopped (at the first divergence, unless all are reported).
  @inlinable var isDone: Bool { !all && !divergences.isEmpty }

  @inlinable var report: ReplayReport { ReplayReport(replayed: replayed, divergences: divergences) }
  @inlinable var reportsAll: Bool { all }

  @inlinable @discardableResult
  mutating func check(_ entry: LogEntry<State, Event, Context, Effect>) -> [Effect] {
    let step = table.step(state, context, entry.event)
    replayed += 1
    let effects = Array(step.outcome.effects)
    let differences = entry.differences(
      outcome: LoggedOutcome(step.outcome), state: step.state, context: step.context, effects: effects)
    if !differences.isEmpty {
      divergences.append(Divergence(sequence: entry.sequence, event: "\(entry.event)", differences: differences))
    }
    // Continue from what the log recorded, so one divergence does not cascade.
    state = entry.state
    context = entry.context
    return effects
  }
}

extension LogEntry where State: Equatable, Context: Equatable, Effect: Equatable {
  /// Where a replayed step differs from this entry, field by field (outcome, state, context,
  /// effects): what tables and charts report as a divergence.
  @inlinable
  func differences(outcome: LoggedOutcome, state: State, context: Context, effects: [Effect]) -> [Divergence.Difference] {
    var differences: [Divergence.Difference] = []
    if outcome != self.outcome {
      differences.append(.init(field: "outcome", expected: "\(self.outcome)", actual: "\(outcome)"))
    }
    if state != self.state { differences.append(.init(field: "state", expected: "\(self.state)", actual: "\(state)")) }
    if context != self.context {
      differences.append(.init(field: "context", expected: "\(self.context)", actual: "\(context)"))
    }
    if effects != self.effects {
      differences.append(.init(field: "effects", expected: "\(self.effects)", actual: "\(effects)"))
    }
    return differences
  }
}
