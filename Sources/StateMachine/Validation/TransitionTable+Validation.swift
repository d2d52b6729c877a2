extension TransitionTable {
  /// Every problem of a table, in a stable order: states first, then rows in declaration order.
  static func problems(initial: State?, layout: StateLayout<State, Effect>, rows: [Row]) -> [TableProblem] {
    let name = { (s: State.Discriminant) in String(describing: s) }
    var problems: [TableProblem] = layout.duplicates.map { .duplicateState(name($0)) }
    if let initial, !layout.known.contains(initial.discriminant) {
      problems.append(.unknownInitialState(name(initial.discriminant)))
    }
    for (r, row) in rows.enumerated() {
      if !row.isWildcard, row.sourceStates.isEmpty { problems.append(.noSourceState(row: r + 1)) }
      for source in row.sourceStates where !layout.known.contains(source) {
        problems.append(.unknownSourceState(row: r + 1, state: name(source)))
      }
      if let target = row.targetCase, !layout.known.contains(target) {
        problems.append(.unknownTargetState(row: r + 1, state: name(target)))
      }
    }
    problems += conflicts(rows: rows, layout: layout)
    return problems
  }

  /// Shadowed rows and nondeterminism, found per (state, event) among rows of the same priority.
  private static func conflicts(rows: [Row], layout: StateLayout<State, Effect>) -> [TableProblem] {
    typealias Key = PairKey<State.Discriminant, Event.Discriminant>
    var groups: [Key: [Int]] = [:]
    var order: [Key] = []
    for (r, row) in rows.enumerated() {
      let keys = row.isWildcard ? [Key(state: nil, event: row.event)] : uniqued(row.sourceStates).map { Key(state: $0, event: row.event) }
      for key in keys {
        if groups[key] == nil { order.append(key) }
        groups[key, default: []].append(r)
      }
    }
    var problems: [TableProblem] = []
    var reported = Set<[Int]>()
    for key in order {
      let members = groups[key]!
      let stateName = key.state.map { String(describing: $0) } ?? "*"
      let eventName = String(describing: key.event)
      let unguarded = members.filter { rows[$0].guardCondition == nil }
      // Unguarded rows that do different things: nondeterminism, reported once per set of rows.
      var distinct: [Int] = []
      for r in unguarded where !distinct.contains(where: { rows[$0].sameBehaviour(as: rows[r]) }) { distinct.append(r) }
      if distinct.count > 1, reported.insert(distinct).inserted {
        problems.append(.nondeterministic(rows: distinct.map { $0 + 1 }, state: stateName, event: eventName))
      }
      // A row after an unguarded row, or after a row with the same guard, never fires.
      for (position, r) in members.enumerated() {
        let earlier = members[..<position]
        let winner = earlier.first { e in
          rows[e].guardCondition == nil || rows[e].guardCondition?.name == rows[r].guardCondition?.name
        }
        guard let winner else { continue }
        if rows[r].guardCondition == nil, rows[winner].guardCondition == nil, !rows[r].sameBehaviour(as: rows[winner]) {
          continue  // already reported as nondeterminism
        }
        problems.append(.shadowed(row: r + 1, by: winner + 1, state: stateName, event: eventName))
      }
    }
    return problems
  }
}

extension Row {
  /// Whether two rows do the same thing when they fire, as far as a table can tell.
  func sameBehaviour(as other: Row) -> Bool {
    guard targetIdentity == other.targetIdentity, effectNames == other.effectNames else { return false }
    return (update == nil) == (other.update == nil)
  }

  /// The full target (payload included) for comparing rows.
  private var targetIdentity: String {
    if case .state(let state) = target { String(describing: state) } else { targetDescription }
  }

  /// How renderings print the row's target.
  var targetDescription: String {
    switch target {
    case .state(let state): String(describing: state.discriminant)
    case .make(let discriminant, _, _): String(describing: discriminant)
    case .stay: Rendering.stay
    case .ignore: Rendering.ignore
    }
  }
}

func uniqued<T: Hashable>(_ values: [T]) -> [T] {
  var seen = Set<T>()
  return values.filter { seen.insert($0).inserted }
}

/// A (state, event) key; `state` is `nil` for wildcard rows.
struct PairKey<S: Hashable, E: Hashable>: Hashable {
  let state: S?
  let event: E
}
