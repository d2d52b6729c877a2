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
  /// Where the machine is now. (A context held by a reference that changes as the machine
  /// steps, an SCXML session, is copied: the snapshot stays as it was taken.)
  public var snapshot: ChartSnapshot<ID, Context> {
    ChartSnapshot(configuration: configuration, history: historyValues, context: keptContext(context), isHalted: isHalted)
  }

  /// A started machine at `snapshot`.
  ///
  /// The whole snapshot is checked against the chart before anything is restored; it must be a
  /// configuration the chart can be in (SCXML's legal configurations):
  /// - every id is a state of the chart, and the configuration lists atomic states, each once;
  /// - their ancestors make exactly one active child of each active compound state (and of the
  ///   chart), and every region of each active parallel state;
  /// - a history state remembers at least one state and no history state: a shallow one the
  ///   active children of its parent (one of a compound, every region of a parallel), a deep
  ///   one atomic descendants of its parent that form such a configuration below it;
  /// - a snapshot without a configuration (a chart not started) remembers no history and has
  ///   not halted.
  ///
  /// - Throws: ``ChartRestoreError`` naming the first id that breaks a rule, and the rule.
  public init(_ chart: Chart<ID, Event, Context, Effect>, restoring snapshot: ChartSnapshot<ID, Context>) throws(ChartRestoreError) {
    // (A copy of a context held by a reference: stepping does not change the snapshot.)
    self.init(chart, context: keptContext(snapshot.context))
    let restored = try chart.restoredState(snapshot.configuration, history: snapshot.history, isHalted: snapshot.isHalted)
    guard let restored else { return }
    (active, history) = restored
    isStarted = true
    isHalted = snapshot.isHalted
  }
}

extension Chart {
  /// The active states and history a snapshot stands for, after checking it is legal (see
  /// ``ChartMachine/init(_:restoring:)``); `nil` for a chart not started.
  func restoredState(
    _ configuration: [ID], history values: [ID: [ID]], isHalted: Bool
  ) throws(ChartRestoreError) -> (active: StateBits, history: [Int: [Int]])? {
    if configuration.isEmpty {
      guard values.isEmpty, !isHalted else {
        throw ChartRestoreError(message: "a snapshot without a configuration (not started) cannot have history or be halted")
      }
      return nil
    }
    let active = try legalConfiguration(configuration, under: 0, what: "the configuration")
    var history: [Int: [Int]] = [:]
    for (id, states) in values.sorted(by: { "\($0.key)" < "\($1.key)" }) {
      let h = try index(of: id)
      guard isHistory(h) else { throw ChartRestoreError(message: "'\(id)' is not a history state") }
      guard !states.isEmpty else { throw ChartRestoreError(message: "history '\(id)' remembers nothing; expected at least one state") }
      let parent = parents[h]
      var remembered: [Int] = []
      for state in states {
        let s = try index(of: state)
        guard !isHistory(s) else {
          throw ChartRestoreError(message: "history '\(id)' remembers the history state '\(state)'; expected states only")
        }
        guard isDescendant(s, of: parent) else {
          throw ChartRestoreError(message: "history '\(id)' remembers '\(state)', which is not inside its parent")
        }
        guard !remembered.contains(s) else { throw ChartRestoreError(message: "history '\(id)' remembers '\(state)' twice") }
        remembered.append(s)
      }
      if kinds[h] == .deepHistory {
        _ = try legalConfiguration(states, under: parent, what: "history '\(id)'")
      } else {
        let children = children[parent]
        if let stranger = remembered.first(where: { parents[$0] != parent }) {
          throw ChartRestoreError(message: "shallow history '\(id)' remembers '\(label(stranger))', which is not a child of '\(label(parent))'")
        }
        let expected = kinds[parent] == .parallel ? children.count : 1
        guard remembered.count == expected else {
          throw ChartRestoreError(
            message: "shallow history '\(id)' remembers \(remembered.count) children of '\(label(parent))'; expected \(expected == 1 ? "one" : "every region")")
        }
      }
      history[h] = remembered
    }
    return (active, history)
  }

  func index(of id: ID) throws(ChartRestoreError) -> Int {
    guard let i = index[id] else { throw ChartRestoreError(message: "'\(id)' is not a state of chart '\(name)'") }
    return i
  }

  /// The states `atoms` and their ancestors up to `root` make active, checked to be a legal
  /// configuration below `root`: exactly one child of each active compound (`root` included,
  /// when it is compound), every region of each active parallel.
  func legalConfiguration(_ atoms: [ID], under root: Int, what: String) throws(ChartRestoreError) -> StateBits {
    var bits = StateBits(count: count)
    var seen = Set<Int>()
    for id in atoms {
      let s = try index(of: id)
      guard isAtomic(s) else { throw ChartRestoreError(message: "\(what): '\(id)' is not an atomic state") }
      guard seen.insert(s).inserted else { throw ChartRestoreError(message: "\(what): '\(id)' is listed twice") }
      var a = s
      while a != root, a > 0 {
        bits[a] = true
        a = parents[a]
      }
    }
    // Every active compound (and the root) has one active child, every active parallel all.
    for s in [root] + Array((root + 1)..<ends[root]) where s == root || bits[s] {
      let on = children[s].filter { bits[$0] }
      switch kinds[s] {
      case .compound:
        guard on.count == 1 else {
          throw ChartRestoreError(
            message: "\(what): \(on.count) children of '\(label(s))' are active (\(on.map { "'\(label($0))'" }.joined(separator: ", "))); expected exactly one")
        }
      case .parallel:
        if let missing = children[s].first(where: { !bits[$0] }) {
          throw ChartRestoreError(message: "\(what): region '\(label(missing))' of '\(label(s))' is not active")
        }
      default: break
      }
    }
    if root > 0 { bits[root] = false }
    return bits
  }
}
