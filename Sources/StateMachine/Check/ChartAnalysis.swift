extension Chart {
  /// What static analysis finds in a chart (structural problems are refused when it is built):
  /// unreachable states, transitions an earlier one of the same state always takes first, and
  /// eventless transitions that loop without a guard (best effort: a cycle of unguarded
  /// eventless transitions between the leaves they enter; guarded loops are not judged). The
  /// same is found in every chart it invokes (``ChartInvoke``), each finding led by its
  /// invocation, with each `done.invoke.<id>` a transition waits for from a chart that never
  /// halts (it has no final state at its top level).
  public func check() -> [Finding] {
    var findings: [Finding] = []
    let reachable = reachableStates()
    for s in 1..<count where !reachable[s] && !isHistory(s) {
      findings.append(Finding(kind: .unreachable, message: "state '\(label(s))' is not reachable from the start", rows: []))
    }
    for s in 0..<count {
      for (later, earlier) in shadowedTransitions(of: s) {
        findings.append(Finding(
          kind: .problem,
          message: "in '\(label(s))', the transition '\(transitionLabel(later))' never fires: '\(transitionLabel(earlier))' before it always matches first",
          rows: []))
      }
    }
    for (t, parallel) in parallelResets() {
      let source = sources[t]
      let fix =
        isCompound(source) && targets[t].allSatisfy({ isDescendant($0, of: source) })
        ? "make it internal (.within, or type=\"internal\") to keep the other regions"
        : "every region of '\(label(parallel))' restarts"
      findings.append(Finding(
        kind: .problem,
        message: "in '\(label(source))', the external transition '\(transitionLabel(t))' starts and ends inside the parallel state '\(label(parallel))' but exits and re-enters it: \(fix)",
        rows: []))
    }
    // (A datamodel's content is not bound by name: its names are the reader's, one for all of
    // its blocks, and the content itself is what the document holds.)
    for (kind, name, places) in tables.scripting == nil ? sharedCodeNames() : [] {
      findings.append(Finding(
        kind: .problem,
        message: "the \(kind) name '\(name)' is given to different code (\(places.joined(separator: "; "))): SCXML binds a name to one piece of code, so the chart read back from its export runs one of them everywhere; give different code different names",
        rows: []))
    }
    for cycle in eventlessCycles() {
      findings.append(Finding(
        kind: .problem,
        message: "eventless transitions without guards loop through \(cycle.map { "'\(label($0))'" }.joined(separator: ", ")): the chart can never settle there",
        rows: []))
    }
    return findings + invokeFindings()
  }

  /// Each transition of state `s` that an earlier unguarded transition always takes first,
  /// with the first such earlier one. Earlier transitions are indexed by descriptor, so a
  /// state with many transitions is checked in time linear in them (a transition with several
  /// descriptors looks only at the earlier ones sharing its first).
  func shadowedTransitions(of s: Int) -> [(later: Int, earlier: Int)] {
    var found: [(later: Int, earlier: Int)] = []
    var byDescriptor: [String: [Int]] = [:]  // descriptor → unguarded earlier transitions, in order
    var anyEvent: [Int] = []  // unguarded earlier transitions on `*`
    var firstEventless: Int?
    /// The descriptors that match every event `d` matches: itself and its dotted prefixes.
    func prefixes(_ d: String) -> [String] {
      var result = [d]
      var rest = Substring(d)
      while let dot = rest.lastIndex(of: ".") {
        rest = rest[..<dot]
        result.append(String(rest))
      }
      return result
    }
    for later in stateTransitions[s] {
      let l = descriptors[later]
      var earlier: Int?
      if l.isEmpty {
        earlier = firstEventless
      } else {
        if l.count == 1 {
          earlier = (prefixes(l[0]).compactMap { byDescriptor[$0]?.first } + (anyEvent.first.map { [$0] } ?? [])).min()
        } else {
          let candidates = (prefixes(l[0]).flatMap { byDescriptor[$0] ?? [] } + anyEvent).sorted()
          earlier = candidates.first { covers($0, later) }
        }
      }
      if let earlier { found.append((later, earlier)) }
      guard guards[later] == nil else { continue }
      if l.isEmpty, firstEventless == nil { firstEventless = later }
      for d in l {
        if d == "*" {
          anyEvent.append(later)
        } else if byDescriptor[d]?.last != later {
          byDescriptor[d, default: []].append(later)
        }
      }
    }
    return found
  }

  /// External transitions whose source and targets lie inside a parallel state that their
  /// domain is above: taking one exits the parallel state and enters it again, so every
  /// region restarts (SCXML's rule: the domain is the nearest compound holding them all).
  func parallelResets() -> [(transition: Int, parallel: Int)] {
    var found: [(transition: Int, parallel: Int)] = []
    for t in sources.indices where !isInternal[t] && !targets[t].isEmpty && defaultTransition[sources[t]] != t {
      let source = sources[t]
      // As declared: a history target stands for itself.
      guard let domain = domain(source: source, targets: targets[t], isInternal: false) else { continue }
      var a = parents[source]
      while a > domain {
        if kinds[a] == .parallel, targets[t].allSatisfy({ isDescendant($0, of: a) }) {
          found.append((t, a))
          break
        }
        a = parents[a]
      }
    }
    return found
  }

  /// The compound state (or the root) whose descendants a transition from `source` to
  /// `targets` exits and enters (SCXML's transition domain); `nil` without targets. An
  /// internal transition from a compound to its own descendants has the compound itself.
  func domain(source: Int, targets: [Int], isInternal: Bool) -> Int? {
    guard !targets.isEmpty else { return nil }
    if isInternal, isCompound(source), targets.allSatisfy({ isDescendant($0, of: source) }) { return source }
    // The least common compound ancestor of the source and the targets.
    var a = parents[source]
    while a > 0 {
      if isCompound(a), targets.allSatisfy({ isDescendant($0, of: a) }) { return a }
      a = parents[a]
    }
    return 0
  }

  /// Whether every event transition `t` matches (and it has no guard that could fail), the
  /// transition `earlier` matches too.
  func covers(_ earlier: Int, _ later: Int) -> Bool {
    let (e, l) = (descriptors[earlier], descriptors[later])
    if e.isEmpty || l.isEmpty { return e.isEmpty && l.isEmpty }
    return l.allSatisfy { d2 in e.contains { d1 in d1 == "*" || d2 == d1 || d2.hasPrefix(d1 + ".") } }
  }

  /// States some run can make active: the start, then every transition's targets, with what
  /// entering a state brings along (ancestors, initial states, every region).
  func reachableStates() -> [Bool] {
    var reached = [Bool](repeating: false, count: count)
    var work: [Int] = []
    func enter(_ s: Int) {
      guard !reached[s] else { return }
      reached[s] = true
      work.append(s)
    }
    func enterTargets(of t: Int) { for target in targets[t] { enter(target) } }
    reached[0] = true
    enterTargets(of: defaultTransition[0])
    while let s = work.popLast() {
      if parents[s] > 0 { enter(parents[s]) }
      switch kinds[s] {
      case .compound, .shallowHistory, .deepHistory: enterTargets(of: defaultTransition[s])
      case .parallel: for child in children[s] { enter(child) }
      default: break
      }
      for t in stateTransitions[s] { enterTargets(of: t) }
    }
    return reached
  }

  /// Cycles of unguarded eventless transitions between the leaves they lead to.
  func eventlessCycles() -> [[Int]] {
    // From each leaf: the first unguarded eventless transition found walking outwards.
    var next = [Int?](repeating: nil, count: count)
    for s in 1..<count where isAtomic(s) {
      var a = s
      search: while a >= 0 {
        for t in stateTransitions[a] where descriptors[t].isEmpty {
          if guards[t] == nil, let target = targets[t].first { next[s] = leaf(target) }
          break search
        }
        a = parents[a]
      }
    }
    var cycles: [[Int]] = []
    var state = [UInt8](repeating: 0, count: count)  // 0 unseen, 1 on the current path, 2 done
    for start in 1..<count where state[start] == 0 && next[start] != nil {
      var path: [Int] = []
      var s: Int? = start
      while let current = s, state[current] == 0 {
        state[current] = 1
        path.append(current)
        s = next[current]
      }
      if let current = s, state[current] == 1, let at = path.firstIndex(of: current) { cycles.append(Array(path[at...])) }
      for p in path { state[p] = 2 }
    }
    return cycles
  }
}

extension Chart {
  /// The transitions declared on states (not the default entries of compounds and histories),
  /// in document order: the numbers ``ChartStep/transitions`` uses.
  package var declaredTransitions: [Int] { sources.indices.filter { defaultTransition[sources[$0]] != $0 } }

  /// A transition as diagrams print it: `source: event [guard] / actions -> targets`.
  package func describeTransition(_ t: Int) -> String {
    "\(label(sources[t])): \(transitionLabel(t)) -> " + (targets[t].isEmpty ? "(targetless)" : targets[t].map(label).joined(separator: ", "))
  }

  /// Every state's id, in document order, with whether it is a history pseudo-state (never
  /// active) — for coverage.
  package var states: [(id: ID, isHistory: Bool)] { (1..<count).map { (ids[$0]!, isHistory($0)) } }

  /// The event names the transitions' descriptors mention (without `*`, `.*` dropped), sorted:
  /// an alphabet to explore the chart with.
  package var eventNames: [String] { Set(descriptors.joined().filter { $0 != "*" }).sorted() }

  /// A few lines about the chart, as `fsm check` prints them above its findings.
  package func overviewLines() -> [String] {
    let counted = { (kind: Kind) in (1..<self.count).filter { self.kinds[$0] == kind }.count }
    let transitions = sources.indices.filter { defaultTransition[sources[$0]] != $0 }.count
    return [
      "\(name): \(count - 1) states (\(counted(.atomic)) atomic, \(counted(.compound)) compound, \(counted(.parallel)) parallel, \(counted(.final)) final, \(counted(.shallowHistory) + counted(.deepHistory)) history), \(transitions) transitions",
      "initial: " + targets[defaultTransition[0]].map(label).joined(separator: ", "),
    ]
  }
}

extension Chart {
  /// Names given to more than one piece of code: an update, a make or a guard name shared by
  /// closures that are not the same closure. SCXML (and ``scxmlBindings``) binds a name to one
  /// piece of code, so a chart read back from its export would run the first one everywhere.
  /// Closures are compared as values: one ``ChartAction`` or ``ChartGuard`` used in several
  /// places is one closure; two closure literals, or one literal capturing different values,
  /// are two.
  func sharedCodeNames() -> [(kind: String, name: String, places: [String])] {
    var uses: [String: SharedName] = [:]
    var order: [String] = []
    func note(_ kind: String, _ name: String, _ bytes: [UInt8], _ place: String) {
      let key = kind + "\u{0}" + name
      if uses[key] == nil {
        uses[key] = SharedName(kind: kind)
        order.append(key)
      }
      if !uses[key]!.closures.contains(bytes) { uses[key]!.closures.append(bytes) }
      uses[key]!.places.append(place)
    }
    let places = onEntry.indices.map { (onEntry[$0], "entry to '\(label($0))'") } + onExit.indices.map { (onExit[$0], "exit from '\(label($0))'") }
      + actions.indices.map { (actions[$0], describeTransition($0)) }
    for (list, place) in places {
      for action in list {
        switch action {
        case .update(let name?, _):
          note("update", name, closureBytes(of: action, after: String?.self, closure: ((@Sendable (inout Context, Event?) -> Void)).self), place)
        case .make(let name, _):
          note("make", name, closureBytes(of: action, after: String.self, closure: ((@Sendable (Context, Event?) -> Effect?)).self), place)
        default: break
        }
      }
    }
    for t in sources.indices {
      if let condition = guards[t], case .predicate = condition.condition {
        note(
          "guard", condition.name,
          closureBytes(of: condition.condition, after: Void.self, closure: ((@Sendable (Context, Event?) -> Bool)).self),
          describeTransition(t))
      }
    }
    return order.compactMap { key in
      let use = uses[key]!
      guard use.closures.count > 1 else { return nil }
      return (use.kind, String(key.split(separator: "\u{0}", maxSplits: 1).last ?? ""), use.places)
    }
  }
}

/// The bytes of the closure in the payload of the enum value `value`, whose payload is a
/// `Name` then a closure of type `Closure` (`Void` for no name): the function and what it
/// captured, as stored when the case was made. (A closure bound out of a generic enum by a
/// pattern is a new thunk each time, so only the stored bytes tell two closures apart.) A
/// multi-payload enum keeps its payload at the start of the value, laid out as a tuple.
func closureBytes<Value, Name, Closure>(of value: Value, after name: Name.Type, closure: Closure.Type) -> [UInt8] {
  let alignment = MemoryLayout<Closure>.alignment
  let offset = (MemoryLayout<Name>.size + alignment - 1) / alignment * alignment
  return withUnsafeBytes(of: value) { bytes in
    let end = min(bytes.count, offset + MemoryLayout<Closure>.size)
    return offset < end ? Array(bytes[offset..<end]) : []
  }
}

/// One name's uses, for ``Chart/sharedCodeNames()``: the distinct closures (as their bytes) and
/// where the name is used.
struct SharedName {
  var kind: String
  var closures: [[UInt8]] = []
  var places: [String] = []
}
