/// Flattens a tree of ``ChartState``s into a ``Chart``'s arrays (document order) and lists
/// every structural problem.
struct ChartBuilder<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable> {
  typealias State = ChartState<ID, Event, Context, Effect>
  typealias Action = ChartAction<Event, Context, Effect>
  typealias Kind = Chart<ID, Event, Context, Effect>.Kind

  var ids: [ID?] = []
  var kinds: [Kind] = []
  var parents: [Int] = []
  var ends: [Int] = []
  var children: [[Int]] = []
  var histories: [[Int]] = []
  var onEntry: [[Action]] = []
  var onExit: [[Action]] = []
  var invokes: [[ChartInvoke<ID, Event, Context, Effect>]] = []
  var defaultTransition: [Int] = []
  var stateTransitions: [[Int]] = []
  var index: [ID: Int] = [:]
  var lines: [Int?] = []

  var sources: [Int] = []
  var descriptors: [[String]] = []
  var guards: [ChartGuard<ID, Event, Context>?] = []
  var targetIDs: [[ID]] = []
  var resolvedTargets: [[Int]] = []
  var isInternal: [Bool] = []
  var actions: [[Action]] = []
  var transitionLines: [Int?] = []
  /// Per default transition: whether its targets must be descendants of its source.
  var problems: [ChartProblem] = []

  mutating func build(root: [State], initial: [ID]?, initialActions: [Action]) {
    append(id: nil, parent: -1, kind: .compound, onEntry: [], onExit: [], line: nil)
    for child in root { add(child, parent: 0) }
    ends[0] = ids.count
    let first = root.first { if case .history = $0.kind { false } else { true } }
    let targets = initial ?? first.map { [$0.id] } ?? []
    if targets.isEmpty { problems.append(.init(state: nil, line: nil, message: "a chart needs at least one state")) }
    defaultTransition[0] = addTransition(
      source: 0, events: [], guardCondition: nil, targets: targets, isInternal: false, actions: initialActions, line: nil)
  }

  mutating func append(id: ID?, parent: Int, kind: Kind, onEntry entry: [Action], onExit exit: [Action], line: Int?) {
    ids.append(id)
    parents.append(parent)
    ends.append(ids.count)
    children.append([])
    histories.append([])
    onEntry.append(entry)
    onExit.append(exit)
    invokes.append([])
    defaultTransition.append(-1)
    stateTransitions.append([])
    lines.append(line)
    kinds.append(kind)
  }

  /// Adds `state` and its subtree; returns its index.
  @discardableResult
  mutating func add(_ state: State, parent: Int) -> Int {
    let i = ids.count
    let kind: Kind
    switch state.kind {
    case .compound where !state.children.contains(where: { if case .history = $0.kind { false } else { true } }): kind = .compound
    case .atomic: kind = state.children.contains { if case .history = $0.kind { false } else { true } } ? .compound : .atomic
    case .compound: kind = .compound
    case .parallel: kind = .parallel
    case .final: kind = .final
    case .history(let deep, _): kind = deep ? .deepHistory : .shallowHistory
    }
    append(id: state.id, parent: parent, kind: kind, onEntry: state.onEntry, onExit: state.onExit, line: state.line)
    invokes[i] = state.invokes
    if index[state.id] != nil {
      problems.append(.init(state: "\(state.id)", line: state.line, message: "declared more than once"))
    } else {
      index[state.id] = i
    }
    if case .history = state.kind { histories[parent].append(i) } else { children[parent].append(i) }
    for child in state.children { add(child, parent: i) }
    ends[i] = ids.count
    for transition in state.transitions {
      stateTransitions[i].append(addTransition(
        source: i, events: transition.events, guardCondition: transition.guardCondition, targets: transition.targets,
        isInternal: transition.isInternal, actions: transition.actions, line: transition.line ?? state.line))
    }
    if kind == .compound {
      var explicit: [ID]?
      if case .compound(let given) = state.kind { explicit = given }
      let firstChild = state.children.first { if case .history = $0.kind { false } else { true } }
      let targets = explicit ?? firstChild.map { [$0.id] } ?? []
      if targets.isEmpty {
        problems.append(.init(state: "\(state.id)", line: state.line, message: "a compound state needs a child state"))
      }
      defaultTransition[i] = addTransition(
        source: i, events: [], guardCondition: nil, targets: targets, isInternal: false, actions: state.initialActions,
        line: state.line)
    }
    switch state.kind {
    case .history(_, let targets):
      defaultTransition[i] = addTransition(
        source: i, events: [], guardCondition: nil, targets: targets, isInternal: false, actions: state.initialActions,
        line: state.line)
    default: break
    }
    return i
  }

  mutating func addTransition(
    source: Int, events: [String], guardCondition: ChartGuard<ID, Event, Context>?, targets: [ID], isInternal: Bool,
    actions: [Action], line: Int?
  ) -> Int {
    sources.append(source)
    descriptors.append(events.map { $0.hasSuffix(".*") ? String($0.dropLast(2)) : $0 })
    guards.append(guardCondition)
    targetIDs.append(targets)
    self.isInternal.append(isInternal)
    self.actions.append(actions)
    transitionLines.append(line)
    return sources.count - 1
  }

  /// Resolves targets and lists every problem of the structure.
  mutating func check() -> [ChartProblem] {
    let (ids, ends) = (self.ids, self.ends)
    let name = { (s: Int) in ids[s].map { "\($0)" } }
    let isDescendant = { (a: Int, b: Int) in a > b && a < ends[b] }
    resolvedTargets = []
    for (t, targets) in targetIDs.enumerated() {
      var resolved: [Int] = []
      for id in targets {
        if let target = index[id] {
          resolved.append(target)
        } else {
          problems.append(.init(state: name(sources[t]), line: transitionLines[t], message: "unknown target '\(id)'"))
        }
      }
      resolvedTargets.append(resolved)
    }
    for s in kinds.indices {
      let d = defaultTransition[s]
      switch kinds[s] {
      case .final:
        if !children[s].isEmpty || !histories[s].isEmpty {
          problems.append(.init(state: name(s), line: lines[s], message: "a final state cannot have children"))
        }
        if !stateTransitions[s].isEmpty {
          problems.append(.init(state: name(s), line: lines[s], message: "a final state cannot have transitions"))
        }
      case .shallowHistory, .deepHistory:
        let parent = parents[s]
        if parent <= 0 || !(kinds[parent] == .compound || kinds[parent] == .parallel) {
          problems.append(.init(state: name(s), line: lines[s], message: "a history state must be the child of a compound or parallel state"))
        }
        if !stateTransitions[s].isEmpty {
          problems.append(.init(state: name(s), line: lines[s], message: "a history state cannot have transitions of its own"))
        }
        if parent > 0 {
          for target in resolvedTargets[d] where !isDescendant(target, parent) {
            problems.append(.init(state: name(s), line: lines[s], message: "its default '\(name(target) ?? "")' is not inside '\(name(parent) ?? "")'"))
          }
        }
        if resolvedTargets[d].isEmpty, targetIDs[d].isEmpty {
          problems.append(.init(state: name(s), line: lines[s], message: "a history state needs a default target"))
        }
      case .compound:
        for target in resolvedTargets[d] where !isDescendant(target, s) {
          problems.append(.init(
            state: name(s), line: lines[s],
            message: "its initial '\(name(target) ?? "")' is not one of its descendants"))
        }
      case .atomic, .parallel: break
      }
    }
    checkHistoryDefaults()
    checkInvokeIDs()
    return problems
  }

  /// Two invocations with one id whose states can be active at once (one state, a state and
  /// its descendant, or states in two regions of a parallel state) would be two children
  /// under one name: `#_<id>` and `done.invoke.<id>` could not tell them apart. An id left out
  /// is made as it runs (`<state>.<n>`), and is checked as that.
  mutating func checkInvokeIDs() {
    let (ids, ends, parents, kinds) = (self.ids, self.ends, self.parents, self.kinds)
    let isDescendant = { (a: Int, b: Int) in a > b && a < ends[b] }
    let together = { (a: Int, b: Int) -> Bool in
      if a == b || isDescendant(a, b) || isDescendant(b, a) { return true }
      var common = parents[a]
      while common > 0, !isDescendant(b, common) { common = parents[common] }
      return kinds[common] == .parallel
    }
    // Each invocation is checked against the one of its id declared last, in document order: two
    // that can run at once, if any, include two that follow each other there (one holds the next
    // of the id, or their nearest common state is the parallel one, and it is that of some two
    // in a row), so the check is linear in the invocations, not quadratic.
    var last: [String: (state: Int, line: Int?)] = [:]
    for s in invokes.indices {
      for (n, invoke) in invokes[s].enumerated() {
        let label = ids[s].map { "\($0)" } ?? "(chart)"
        let id = invoke.invocationID(inState: label, at: n)
        if let other = last[id], together(other.state, s) {
          let otherLabel = ids[other.state].map { "\($0)" } ?? "(chart)"
          let by = other.state == s ? "this state" : "state '\(otherLabel)'"
          problems.append(.init(
            state: label, line: invoke.line ?? lines[s],
            message: "invokes '\(id)', as \(by) does\(other.line.map { " (line \($0))" } ?? ""), and both can run at once: "
              + "an invocation's id names one child"))
        }
        last[id] = (s, invoke.line)
      }
    }
  }

  /// A history state's default may target another history state, but the chain must end: a
  /// default that leads back to a history state already on the chain would be entered forever.
  mutating func checkHistoryDefaults() {
    // 0: not visited, 1: on the current chain, 2: known to end.
    var mark = [UInt8](repeating: 0, count: kinds.count)
    let kinds = self.kinds
    let isHistory = { (s: Int) in kinds[s] == .shallowHistory || kinds[s] == .deepHistory }
    for start in kinds.indices where isHistory(start) && mark[start] == 0 {
      // An explicit stack, so a long chain cannot exhaust the call stack.
      var chain: [Int] = [start]
      var next: [[Int]] = [resolvedTargets[defaultTransition[start]].filter(isHistory)]
      mark[start] = 1
      while let top = chain.last {
        guard let target = next[next.count - 1].popLast() else {
          mark[top] = 2
          chain.removeLast()
          next.removeLast()
          continue
        }
        switch mark[target] {
        case 1:
          let loop = chain[chain.firstIndex(of: target)!...].map { ids[$0].map { "'\($0)'" } ?? "" } + ["'\(ids[target].map { "\($0)" } ?? "")'"]
          problems.append(.init(
            state: ids[target].map { "\($0)" }, line: lines[target],
            message: "its default leads back to itself (\(loop.joined(separator: " -> "))); a history default must end in a state that is not a history state"))
        case 0:
          mark[target] = 1
          chain.append(target)
          next.append(resolvedTargets[defaultTransition[target]].filter(isHistory))
        default: break
        }
      }
    }
  }
}
