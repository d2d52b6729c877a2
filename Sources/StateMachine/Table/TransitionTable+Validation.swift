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
    // Each row's behaviour as a hashable key, computed once: comparisons stay linear.
    var behaviours: [Row.Behaviour?] = Array(repeating: nil, count: rows.count)
    func behaviour(_ r: Int) -> Row.Behaviour {
      if let known = behaviours[r] { return known }
      let computed = rows[r].behaviour
      behaviours[r] = computed
      return computed
    }
    for key in order {
      let members = groups[key]!
      let stateName = key.state.map { String(describing: $0) } ?? "*"
      let eventName = String(describing: key.event)
      // Unguarded rows that do different things: nondeterminism, reported once per set of rows.
      var distinct: [Int] = []
      var seenBehaviours = Set<Row.Behaviour>()
      for r in members where rows[r].guardCondition == nil && seenBehaviours.insert(behaviour(r)).inserted {
        distinct.append(r)
      }
      if distinct.count > 1, reported.insert(distinct).inserted {
        problems.append(.nondeterministic(rows: distinct.map { $0 + 1 }, state: stateName, event: eventName))
      }
      // A row after an unguarded row, or after a row with the same guard, never fires: its
      // winner is the earlier of the first unguarded row and the first row with its guard.
      var firstUnguarded: Int?
      var firstWithGuard: [String: Int] = [:]
      for r in members {
        let guardName = rows[r].guardCondition?.name
        let sameGuard = guardName.flatMap { firstWithGuard[$0] }
        let winner = [firstUnguarded, sameGuard].compactMap { $0 }.min()
        if let guardName {
          if firstWithGuard[guardName] == nil { firstWithGuard[guardName] = r }
        } else if firstUnguarded == nil {
          firstUnguarded = r
        }
        guard let winner else { continue }
        if guardName == nil, rows[winner].guardCondition == nil, behaviour(r) != behaviour(winner) {
          continue  // already reported as nondeterminism
        }
        problems.append(.shadowed(row: r + 1, by: winner + 1, state: stateName, event: eventName))
      }
    }
    return problems
  }
}

extension Row {
  /// What a row does when it fires, as far as a table can tell: two rows with equal
  /// behaviours do the same thing.
  struct Behaviour: Hashable {
    let target: String
    let effects: [String]
    let updates: Bool
  }

  var behaviour: Behaviour { Behaviour(target: targetIdentity, effects: effectNames, updates: update != nil) }

  /// The full target (payload included) for comparing rows; a state is told apart from the
  /// stay and ignore markers even when it is named like them.
  private var targetIdentity: String {
    switch target {
    case .state(let state): "state " + String(describing: state)
    case .make: "state " + targetDescription
    case .stay, .ignore: targetDescription
    }
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
