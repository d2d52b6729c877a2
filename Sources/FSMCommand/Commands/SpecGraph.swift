import StateMachine

/// What a spec file's rows allow. A spec has names, not code: a guard may hold or not, so a
/// state and an event may lead to several places — each guarded row (its guard held), and the
/// first unguarded one (every guard before it failed). `fsm explore`, `demo` and `replay`
/// work on specs through it.
struct SpecGraph {
  let spec: SpecDocument

  /// One way an event can go: the row (an index in the spec's transitions) and where it leads.
  struct Move: Hashable {
    let row: Int
    let to: String
    /// The row's guard, assumed to hold.
    let assuming: String?
  }

  /// The initial state (or the state that stands in for it).
  var initial: String { spec.table.initial }

  /// The events the spec names, in order of first appearance.
  var alphabet: [String] {
    var seen = Set<String>()
    return spec.transitions.map(\.event).filter { seen.insert($0).inserted }
  }

  /// The moves `event` may make in `state`, in table order.
  func moves(_ state: String, _ event: String) -> [Move] {
    var moves: [Move] = []
    for (row, t) in spec.transitions.enumerated() where t.event == event && (t.from.isEmpty || t.from.contains(state)) {
      let to = t.to == "(stay)" || t.to == "(ignore)" ? state : t.to
      moves.append(Move(row: row, to: to, assuming: t.guardName))
      if t.guardName == nil { break }  // rows below an unguarded one never run
    }
    return moves
  }

  /// A row as the spec writes it, for messages.
  func describe(_ row: Int) -> String {
    let t = spec.transitions[row]
    let from = t.from.isEmpty ? "*" : t.from.joined(separator: ", ")
    return "line \(t.line): \(from) on \(t.event)" + (t.guardName.map { " [\($0)]" } ?? "") + " -> \(t.to)"
  }

  /// Breadth-first over the states (a spec has no context), up to `depth` events deep.
  func explore(depth: Int) -> (lines: [String], failed: Bool) {
    var paths = [initial: [String]()]
    var frontier = [initial]
    var rowsHit = Set<Int>()
    var deadEnds: [String] = []
    let finals = Set(spec.states.filter(\.isFinal).map(\.name))
    var level = 0
    while !frontier.isEmpty, level < depth {
      var next: [String] = []
      for state in frontier {
        var any = false
        for event in alphabet {
          for move in moves(state, event) {
            any = true
            rowsHit.insert(move.row)
            guard paths[move.to] == nil else { continue }
            paths[move.to] = paths[state]! + [event + (move.assuming.map { " [\($0)]" } ?? "")]
            next.append(move.to)
          }
        }
        if !any, !finals.contains(state) { deadEnds.append(state) }
      }
      frontier = next
      level += 1
    }
    let names = spec.states.map(\.name)
    var lines = [
      "alphabet: " + alphabet.joined(separator: ", "),
      "guards are names in a spec: each guarded row is taken as holding or not, both explored",
      "coverage: rows \(rowsHit.count)/\(spec.transitions.count), states \(paths.count)/\(max(names.count, paths.count))",
    ]
    // The sections and words of a table's or a chart's report (see ExploreCommand.report).
    for row in spec.transitions.indices where !rowsHit.contains(row) { lines.append("  never taken: \(describe(row))") }
    let unreached = names.filter { paths[$0] == nil }
    if !unreached.isEmpty { lines.append("  states never entered: " + unreached.joined(separator: ", ")) }
    lines.append("states reached, with a shortest path:")
    for state in names + paths.keys.filter({ !names.contains($0) }).sorted() {
      guard let path = paths[state] else { continue }
      lines.append("  \(state): " + (path.isEmpty ? "(start)" : path.joined(separator: ", ")))
    }
    for state in deadEnds { lines.append("violation: dead end: \(state) is not final and no event leads out of it") }
    return (lines, !deadEnds.isEmpty)
  }
}
