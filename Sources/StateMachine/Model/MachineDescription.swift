import Foundation

/// A table with its types erased, for tools that handle many machines at once (the `fsm`
/// command, documentation generators, editors).
///
/// ```swift
/// let description = MachineDescription(CDPlayer.table, summary: "Boost.SML's CD player")
/// print(description.render(.mermaid))
/// ```
public struct MachineDescription: Sendable {
  /// A rendering of a table.
  ///
  /// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
  /// case is then a warning, not a build error).
  public enum Format: String, Sendable, CaseIterable {
    /// ``TransitionTable/markdown()``.
    case table
    /// ``TransitionTable/mermaid()``.
    case mermaid
    /// ``TransitionTable/dot()``.
    case dot
  }

  /// The machine's name.
  public let name: String
  /// One line saying what the machine is.
  public let summary: String
  /// The machine, to draw.
  let drawing: any Drawable
  /// The machines it invokes, drawn with it (see ``invoking(_:in:)``).
  var invoked: [Invocation] = []
  private let findings: @Sendable () -> [Finding]
  private let overview: @Sendable () -> [String]
  private let replayer: (@Sendable (LogSource, Bool) -> ReplayOutcome)?
  /// Reads a log as the session a page shows (`fsm view`), checked against the machine.
  private var sessionReader: (@Sendable (String) -> SessionRead)?
  private let scxmlExport: (@Sendable () throws(ExportError) -> String)?

  /// The chart as SCXML (``Chart/scxml()``), which ``Chart/init(scxml:file:bindings:)`` reads
  /// back with the chart's ``Chart/scxmlBindings``; `nil` for a flat table.
  ///
  /// - Throws: ``ExportError`` when the chart has a name SCXML cannot carry.
  public func scxml() throws(ExportError) -> String? { try scxmlExport?() }

  /// Where a log to replay is.
  enum LogSource {
    case data(Data)
    case file(String)
  }

  /// What ``replay(_:reportingAll:)`` found.
  package enum ReplayOutcome: Sendable {
    /// The log was read (entirely) and replayed.
    case replayed(ReplayReport)
    /// The log could not be read; `entries` valid entries came before the error.
    case unreadable(LogError, entries: Int)
  }

  /// Describes `table`.
  public init<State, Event, Context, Effect>(
    _ table: TransitionTable<State, Event, Context, Effect>, summary: String
  ) {
    self.init(table, summary: summary, replayer: nil)
  }

  /// Describes `table`, whose logs can be replayed.
  public init<State, Event, Context, Effect>(
    _ table: TransitionTable<State, Event, Context, Effect>, summary: String
  ) where State: Codable & Equatable, Event: Codable, Context: Codable & Equatable & Sendable, Effect: Codable & Equatable {
    let replayer = Self.replayer { source throws(LogError) in
      switch source {
      case .data(let data): try LogReader(data, for: table)
      case .file(let path): try LogReader(contentsOf: path, for: table)
      }
    } replay: { reader, all throws(LogError) in try table.replay(&reader, reportingAll: all) }
    self.init(table, summary: summary, replayer: replayer)
    sessionReader = { path in
      .of(
        EventLog.read(contentsOf: path, for: table), states: table.sessionStates, replay: { table.replay($0) }, show: { "\($0)" },
        names: { ["\($0.discriminant)"] })
    }
  }

  private init<State, Event, Context, Effect>(
    _ table: TransitionTable<State, Event, Context, Effect>, summary: String,
    replayer: (@Sendable (LogSource, Bool) -> ReplayOutcome)?
  ) {
    name = table.name
    self.summary = summary
    drawing = table
    findings = { table.check() }
    overview = { table.overview() }
    self.replayer = replayer
    scxmlExport = nil
  }

  /// Describes `chart`, a statechart: rendered as its Markdown spec, nested Mermaid and DOT
  /// clusters, checked with ``Chart/check()``, and its logs (``ChartLogState``) replayed.
  public init<ID, Event, Context, Effect>(chart: Chart<ID, Event, Context, Effect>, summary: String)
  where ID: Codable, Event: Codable, Context: Codable & Equatable & Sendable, Effect: Codable & Equatable {
    name = chart.name
    self.summary = summary
    drawing = chart
    findings = { chart.check() }
    overview = { chart.overviewLines() }
    scxmlExport = { () throws(ExportError) in try chart.scxml() }
    replayer = Self.replayer { source throws(LogError) -> LogReader<ChartLogState<ID>, Event, Context, Effect> in
      switch source {
      case .data(let data): try LogReader(.memory(MemoryLines(data: data)), expecting: (chart.name, chart.fingerprint))
      case .file(let path): try LogReader(contentsOf: path, for: chart)
      }
    } replay: { reader, all throws(LogError) in try chart.replay(&reader, reportingAll: all) }
    sessionReader = { path in Self.session(of: chart, logAt: path) }
  }

  /// Whether logs of this machine can be replayed (its types are `Codable` and `Equatable`).
  package var canReplay: Bool { replayer != nil }

  /// The session the log at `path` recorded, as `fsm view` shows it; `nil` when the machine
  /// cannot read logs (its types are not `Codable` and `Equatable`).
  package func session(logAt path: String) -> SessionRead? { sessionReader?(path) }

  /// The session a chart's log at `path` recorded.
  package static func session<ID, Event, Context, Effect>(of chart: Chart<ID, Event, Context, Effect>, logAt path: String) -> SessionRead
  where ID: Codable, Event: Codable, Context: Codable & Equatable & Sendable, Effect: Codable & Equatable {
    .of(
      EventLog.read(contentsOf: path, for: chart), states: chart.sessionStates, replay: { chart.replay($0) },
      show: { ChildStep.shown($0.configuration) }, names: { $0.configuration.map { "\($0)" } })
  }

  /// Reads a log of this machine and replays it; `nil` when the machine cannot replay logs.
  package func replay(_ data: Data, reportingAll all: Bool = false) -> ReplayOutcome? {
    replayer?(.data(data), all)
  }

  /// Replays the log file at `path` as a stream, in constant memory; `nil` when the machine
  /// cannot replay logs. A path that is not a readable regular file is `.unreadable` with
  /// its reason (missing, a directory, a FIFO, a device, no permission).
  package func replay(logAt path: String, reportingAll all: Bool = false) -> ReplayOutcome? {
    replayer?(.file(path), all)
  }

  /// The machine in `format`, with the machines it invokes (see ``invoking(_:in:)``).
  public func render(_ format: Format) -> String {
    switch format {
    case .table: markdownWithChildren()
    case .mermaid: (["stateDiagram-v2"] + mermaidLines(prefix: "")).joined(separator: "\n") + "\n"
    case .dot: invoked.isEmpty ? drawing.dot() : dotWithChildren()
    }
  }

  /// The findings of ``TransitionTable/check()``.
  package func check() -> [Finding] { findings() }

  /// A few lines about the table: size, reachable and final states, unhandled pairs.
  package func overviewLines() -> [String] { overview() }
}

extension TransitionTable {
  /// A few lines about the table, as `fsm check` prints them above its findings.
  func overview() -> [String] {
    let analysis = analyze()
    let names = { (cases: [State.Discriminant]) in cases.isEmpty ? "(none)" : cases.map { "\($0)" }.joined(separator: ", ") }
    let unhandledNote = policy == .ignore ? " (ignored by policy)" : ""
    return [
      "\(name): \(stateCases.count) states, \(eventCases.count) events, \(rows.count) rows, unhandled events: \(policy.rawValue)",
      problems.contains(.noInitialState) ? "initial: (none marked; \(analysis.initial) stands in)" : "initial: \(analysis.initial)",
      "reachable: \(names(analysis.reachable))",
      "final: \(names(analysis.finalStates))",
      "unhandled (state, event) pairs: \(analysis.unhandledCount)\(unhandledNote)"
        + (analysis.isComplete ? "" : " among the events the table names"),
    ]
  }
}

/// A machine drawn in every ``MachineDescription/Format``: a table and a chart alike. The
/// bodies, with every id led by a prefix, draw it inside another machine's diagram (a child it
/// invokes).
protocol Drawable: Sendable {
  func markdown() -> String
  func mermaid() -> String
  func dot() -> String
  func mermaidBody(prefix: String) -> [String]
  func mermaidID(of state: String, prefix: String) -> String?
  func dotBody(prefix: String) -> [String]
  func dotID(of state: String, prefix: String) -> String?
  /// The id of the point the machine's start is drawn from, if it has one.
  func dotStartID(prefix: String) -> String?
}

extension TransitionTable: Drawable {}
extension Chart: Drawable {}

extension MachineDescription {
  /// Replays a log of any kind: `open` reads its header, `replay` steps the machine along it.
  static func replayer<State, Event, Context, Effect>(
    open: @escaping @Sendable (LogSource) throws(LogError) -> LogReader<State, Event, Context, Effect>,
    replay: @escaping @Sendable (inout LogReader<State, Event, Context, Effect>, Bool) throws(LogError) -> ReplayReport
  ) -> @Sendable (LogSource, Bool) -> ReplayOutcome
  where State: SendableMetatype, Event: SendableMetatype, Context: SendableMetatype, Effect: SendableMetatype {
    { source, all in
      do throws(LogError) {
        var reader = try open(source)
        do throws(LogError) {
          return .replayed(try replay(&reader, all))
        } catch {
          return .unreadable(error, entries: reader.entriesRead)
        }
      } catch {
        return .unreadable(error, entries: 0)
      }
    }
  }
}
