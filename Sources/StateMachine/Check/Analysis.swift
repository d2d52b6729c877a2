/// What static analysis found in a table: reachability, dead ends, final states, unhandled pairs.
///
/// Guards are not evaluated: a guarded row counts as a possible way from its source to its target.
public struct Analysis<StateCase: Hashable & Sendable, EventCase: Hashable & Sendable>: Sendable {
  /// A (state, event) pair.
  public struct Pair: Hashable, Sendable {
    /// The state with no row for the event.
    public let state: StateCase
    /// The event no row of the state handles.
    public let event: EventCase
  }

  /// The initial state's case.
  public let initial: StateCase
  /// States reachable from the initial state, in breadth-first order.
  public let reachable: [StateCase]
  /// States of the table that no sequence of events reaches.
  public let unreachable: [StateCase]
  /// States declared final.
  public let finalStates: [StateCase]
  /// Non-final states with no row to any other state: once there, the machine is stuck.
  public let deadEnds: [StateCase]
  /// (state, event) pairs of reachable, non-final states that no row handles (not even an
  /// ignore row), in state then event order. Computed on access: it has up to
  /// states × events pairs; ``unhandledCount`` and `unhandledEvents(in:limit:)` cost less.
  public var unhandled: [Pair] {
    gaps.flatMap { gap in eventCases.filter { !gap.handled.contains($0) }.map { Pair(state: gap.state, event: $0) } }
  }
  /// How many pairs ``unhandled`` holds.
  public let unhandledCount: Int

  /// The events no row handles in `state` (empty when `state` is unreachable or final), at
  /// most `limit` of them, in event order.
  package func unhandledEvents(in state: StateCase, limit: Int = .max) -> [EventCase] {
    guard let gap = gaps.first(where: { $0.state == state }) else { return [] }
    return Array(eventCases.lazy.filter { !gap.handled.contains($0) }.prefix(limit))
  }

  /// Per reachable non-final state with a gap, the events it handles: O(rows) space, where the
  /// pairs themselves could be states × events.
  let gaps: [(state: StateCase, handled: Set<EventCase>, missing: Int)]
  let eventCases: [EventCase]
  /// Whether the state and event cases are enumerable (`CaseIterable`), so ``unhandled`` and
  /// ``unreachable`` are complete; otherwise they cover the cases the table names.
  public let isComplete: Bool
}

extension TransitionTable {
  /// Analyses the table: reachable and unreachable states, dead ends, final states and
  /// unhandled (state, event) pairs.
  public func analyze() -> Analysis<State.Discriminant, Event.Discriminant> {
    let layout = storage.layout
    let n = layout.cases.count
    var successors = [[Int]](repeating: [], count: n)
    var handled = [Set<Event.Discriminant>](repeating: [], count: n)
    for s in 0..<n {
      for c in storage.start[s]..<storage.start[s + 1] {
        handled[s].insert(storage.event[c])
        let row = rows[Int(storage.rowOf[c])]
        if let target = row.targetCase, let t = layout.index[target], !successors[s].contains(t) {
          successors[s].append(t)
        }
      }
    }
    let start = layout.index[initial.discriminant] ?? 0
    var seen = [Bool](repeating: false, count: n)
    var order = [start]
    seen[start] = true
    var head = 0
    while head < order.count {
      for t in successors[order[head]] where !seen[t] {
        seen[t] = true
        order.append(t)
      }
      head += 1
    }
    let cases = layout.cases
    let deadEnds = (0..<n).filter { s in !layout.isFinal[s] && !successors[s].contains { $0 != s } }
    var gaps: [(state: State.Discriminant, handled: Set<Event.Discriminant>, missing: Int)] = []
    for s in order where !layout.isFinal[s] {
      let missing = storage.eventCases.count - handled[s].count
      if missing > 0 { gaps.append((cases[s], handled[s], missing)) }
    }
    return Analysis(
      initial: cases[start],
      reachable: order.map { cases[$0] },
      unreachable: (0..<n).filter { !seen[$0] }.map { cases[$0] },
      finalStates: (0..<n).filter { layout.isFinal[$0] }.map { cases[$0] },
      deadEnds: deadEnds.map { cases[$0] },
      unhandledCount: gaps.reduce(0) { $0 + $1.missing },
      gaps: gaps,
      eventCases: storage.eventCases,
      isComplete: storage.layout.isEnumerable && storage.eventsAreEnumerable
    )
  }
}

extension TransitionTable {
  /// The event cases some row handles in `state` (its own rows and wildcards, ignore rows
  /// included), in row order, each once.
  @usableFromInline package func handledEvents(in state: State.Discriminant) -> [Event.Discriminant] {
    guard let s = storage.layout.index[state] else { return [] }
    var seen = Set<Event.Discriminant>()
    return (storage.start[s]..<storage.start[s + 1]).compactMap { c in
      seen.insert(storage.event[c]).inserted ? storage.event[c] : nil
    }
  }
}
