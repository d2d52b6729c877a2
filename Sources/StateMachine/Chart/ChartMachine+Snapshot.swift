/// Where a chart is, as state ids: the active atomic states, what each history state remembers,
/// the context, and whether it halted. `Codable` when the ids and the context are, so a running
/// chart — its history included — can be saved and restored.
///
/// ```swift
/// let data = try JSONEncoder().encode(machine.snapshot)
/// let snapshot = try JSONDecoder().decode(ChartSnapshot<String, NoContext>.self, from: data)
/// var restored = try ChartMachine(chart, restoring: snapshot)
/// ```
public struct ChartSnapshot<ID: Hashable & Sendable, Context> {
  /// The active atomic states (their ancestors are active too).
  public var configuration: [ID]
  /// History state id → the states it remembers.
  public var history: [ID: [ID]]
  /// The context.
  public var context: Context
  /// Whether the chart had halted.
  public var isHalted: Bool

  /// A snapshot of these active atomic states, history values and context.
  public init(configuration: [ID], history: [ID: [ID]], context: Context, isHalted: Bool = false) {
    (self.configuration, self.history, self.context, self.isHalted) = (configuration, history, context, isHalted)
  }
}

extension ChartSnapshot: Codable where ID: Codable, Context: Codable {}
extension ChartSnapshot: Equatable where Context: Equatable {}
extension ChartSnapshot: Hashable where Context: Hashable {}
extension ChartSnapshot: Sendable where Context: Sendable {}

/// Why a snapshot does not fit a chart.
public struct ChartRestoreError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What does not fit the chart.
  public let message: String
  public var description: String { "cannot restore the chart: \(message)" }
}

extension ChartMachine {
  /// Where the machine is now.
  public var snapshot: ChartSnapshot<ID, Context> {
    ChartSnapshot(configuration: configuration, history: historyValues, context: context, isHalted: isHalted)
  }

  /// A started machine at `snapshot`.
  ///
  /// - Throws: ``ChartRestoreError`` when an id is not in the chart, a state of the
  ///   configuration is not atomic, two states of one compound are active, a parallel state
  ///   misses a region, or a history id is not a history state.
  public init(_ chart: Chart<ID, Event, Context, Effect>, restoring snapshot: ChartSnapshot<ID, Context>) throws(ChartRestoreError) {
    self.init(chart, context: snapshot.context)
    func index(_ id: ID) throws(ChartRestoreError) -> Int {
      guard let i = chart.index[id] else { throw ChartRestoreError(message: "'\(id)' is not a state of chart '\(chart.name)'") }
      return i
    }
    for id in snapshot.configuration {
      let s = try index(id)
      guard chart.isAtomic(s) else { throw ChartRestoreError(message: "'\(id)' is not an atomic state") }
      var a = s
      while a > 0 {
        active[a] = true
        a = chart.parents[a]
      }
    }
    for s in 1..<chart.count where active[s] {
      switch chart.kinds[s] {
      case .compound:
        let on = chart.children[s].filter { active[$0] }
        guard on.count == 1 else {
          throw ChartRestoreError(message: "'\(chart.label(s))' has \(on.count) active children; expected one")
        }
      case .parallel:
        if let missing = chart.children[s].first(where: { !active[$0] }) {
          throw ChartRestoreError(message: "region '\(chart.label(missing))' of '\(chart.label(s))' is not active")
        }
      default: break
      }
    }
    if !snapshot.configuration.isEmpty {
      let top = chart.children[0].filter { active[$0] }
      guard top.count == 1 else { throw ChartRestoreError(message: "\(top.count) top-level states are active; expected one") }
    }
    for (id, states) in snapshot.history {
      let h = try index(id)
      guard chart.isHistory(h) else { throw ChartRestoreError(message: "'\(id)' is not a history state") }
      var remembered: [Int] = []
      for state in states {
        let s = try index(state)
        guard chart.isDescendant(s, of: chart.parents[h]) else {
          throw ChartRestoreError(message: "history '\(id)' remembers '\(state)', which is not inside its parent")
        }
        remembered.append(s)
      }
      history[h] = remembered
    }
    isStarted = !snapshot.configuration.isEmpty
    isHalted = snapshot.isHalted
  }
}
