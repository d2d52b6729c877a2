/// The functions of the W3C SCXML algorithm (Appendix D), one by one, over state indices in
/// document order.
extension ChartMachine {
  // MARK: Selecting transitions

  /// For each active atomic state in document order, the first transition of it or of its
  /// nearest ancestor that matches `event` (`nil`: eventless transitions) and whose guard
  /// holds; then conflicts removed.
  @usableFromInline
  mutating func selectTransitions(for event: QueuedEvent) -> [Int] {
    var enabled: [Int] = []
    // Membership by a linear look while the set is small, by a hash set once it is not (a
    // chart with thousands of regions enables thousands of transitions at once).
    var seen: Set<Int>?
    for state in 1..<chart.count where active[state] && chart.isAtomic(state) {
      var s = state
      search: while s >= 0 {
        for t in chart.stateTransitions[s] where matches(t, event) && holds(t, event.value) {
          if seen == nil, enabled.count >= 16 { seen = Set(enabled) }
          if seen != nil {
            if seen!.insert(t).inserted { enabled.append(t) }
          } else if !enabled.contains(t) {
            enabled.append(t)
          }
          break search
        }
        s = chart.parents[s]
      }
    }
    if chart.tables.scripting != nil { takeGuardErrors() }
    return enabled.count > 1 ? removeConflicting(enabled) : enabled
  }

  func matches(_ t: Int, _ event: QueuedEvent) -> Bool {
    let descriptors = chart.descriptors[t]
    guard !event.isEventless else { return descriptors.isEmpty }
    return descriptors.contains { eventDescriptor($0, matches: event.name) }
  }

  @inlinable
  func holds(_ t: Int, _ value: Event?) -> Bool {
    switch chart.tables.guardKinds[t] {
    case .none: return true
    case .inState:
      let s = chart.tables.guardStates[t]
      return s >= 0 && active[s]
    case .notInState:
      let s = chart.tables.guardStates[t]
      return !(s >= 0 && active[s])
    case .predicate: return chart.tables.predicates[t].map { $0(storedContext, value) } ?? true
    }
  }

  // MARK: Microstep

  @usableFromInline
  mutating func microstep(_ enabled: [Int], event: QueuedEvent, _ run: inout Run) {
    run.microsteps += 1
    run.trace?.took(enabled)
    exitStates(enabled, event: event, &run)
    for t in enabled { execute(chart.tables.transitionBlocks[t], value: event.value, owner: run.tracking ? owner(of: t) : 0, &run) }
    enterStates(enabled, event: event, &run)
  }

  /// The active states the transitions leave: every active descendant of each targeted
  /// transition's domain.
  func exitSet(_ transitions: [Int]) -> [Int] {
    var states: [Int] = []
    var member = transitions.count > 1 ? [Bool](repeating: false, count: chart.count) : []
    for t in transitions where !chart.targets[t].isEmpty {
      guard let domain = transitionDomain(t) else { continue }
      for s in (domain + 1)..<chart.ends[domain] where active[s] {
        if member.isEmpty {
          states.append(s)
        } else if !member[s] {
          member[s] = true
          states.append(s)
        }
      }
    }
    return states
  }

  mutating func exitStates(_ enabled: [Int], event: QueuedEvent, _ run: inout Run) {
    let leaving = exitSet(enabled).sorted(by: >)  // reverse document order
    // History is recorded for every state left before any exit content runs.
    for s in leaving {
      for h in chart.histories[s] {
        let remembered = self.remembered(by: h, leaving: s)
        history[h] = remembered
      }
    }
    for s in leaving {
      execute(chart.tables.exitBlocks[s], value: event.value, owner: chart.parents[s], &run)
      active[s] = false
      run.exited(s)
    }
  }

  /// What history state `h` of `s` remembers when `s` is left now: its active atomic
  /// descendants (deep) or active children (shallow).
  func remembered(by h: Int, leaving s: Int) -> [Int] {
    chart.kinds[h] == .deepHistory
      ? (s + 1..<chart.ends[s]).filter { active[$0] && chart.isAtomic($0) }
      : chart.children[s].filter { active[$0] }
  }

  // MARK: Entering

  struct EntrySet {
    var states: [Int] = []
    var member: [Bool]
    /// A proper descendant of the state is in the set; made the first time a parallel state
    /// asks (most entries never do), then kept up to date.
    var holdsDescendant: [Bool] = []
    let parents: [Int]
    var defaultEntry: Set<Int> = []
    /// Compound state → the content of the history default taken into it.
    var historyContent: [Int: Int] = [:]

    init(count: Int, parents: [Int]) {
      member = [Bool](repeating: false, count: count)
      self.parents = parents
    }

    mutating func add(_ s: Int) {
      if !member[s] {
        member[s] = true
        states.append(s)
        if !holdsDescendant.isEmpty { markAncestors(of: s) }
      }
    }

    mutating func markAncestors(of s: Int) {
      var a = parents[s]
      while a >= 0, !holdsDescendant[a] {
        holdsDescendant[a] = true
        a = parents[a]
      }
    }

    mutating func containsDescendant(of s: Int) -> Bool {
      if holdsDescendant.isEmpty {
        holdsDescendant = [Bool](repeating: false, count: member.count)
        for state in states { markAncestors(of: state) }
      }
      return holdsDescendant[s]
    }
  }

  mutating func enterStates(_ enabled: [Int], event: QueuedEvent = .eventless, _ run: inout Run) {
    var entry = EntrySet(count: chart.count, parents: chart.parents)
    for t in enabled {
      for s in chart.targets[t] { addDescendants(s, &entry) }
      let ancestor = transitionDomain(t)
      for s in effectiveTargets(t) { addAncestors(s, upTo: ancestor, &entry) }
    }

    var halting = false
    for s in entry.states.sorted() {
      active[s] = true
      run.trace?.enter(s - 1)
      execute(chart.tables.entryBlocks[s], value: event.value, owner: s, &run)
      if entry.defaultEntry.contains(s) { execute(chart.tables.transitionBlocks[chart.defaultTransition[s]], value: event.value, owner: s, &run) }
      if let content = entry.historyContent[s] { execute(chart.tables.transitionBlocks[content], value: event.value, owner: s, &run) }
      guard chart.kinds[s] == .final else { continue }
      let parent = chart.parents[s]
      if parent == 0 {
        halting = true
        continue
      }
      enqueue("done.state.\(chart.label(parent))")
      let grandparent = chart.parents[parent]
      if grandparent > 0, chart.kinds[grandparent] == .parallel, chart.children[grandparent].allSatisfy(isInFinalState) {
        enqueue("done.state.\(chart.label(grandparent))")
      }
    }
    if halting {
      isHalted = true
      exitInterpreter(&run)
    }
  }

  mutating func addDescendants(_ state: Int, _ entry: inout EntrySet) {
    if chart.isHistory(state) {
      let parent = chart.parents[state]
      if let remembered = history[state] {
        for s in remembered { addDescendants(s, &entry) }
        for s in remembered { addAncestors(s, upTo: parent, &entry) }
      } else {
        let d = chart.defaultTransition[state]
        entry.historyContent[parent] = d
        for s in chart.targets[d] { addDescendants(s, &entry) }
        for s in chart.targets[d] { addAncestors(s, upTo: parent, &entry) }
      }
      return
    }
    entry.add(state)
    switch chart.kinds[state] {
    case .compound:
      entry.defaultEntry.insert(state)
      let d = chart.defaultTransition[state]
      for s in chart.targets[d] { addDescendants(s, &entry) }
      for s in chart.targets[d] { addAncestors(s, upTo: state, &entry) }
    case .parallel:
      for child in chart.children[state] where !entry.containsDescendant(of: child) {
        addDescendants(child, &entry)
      }
    default: break
    }
  }

  mutating func addAncestors(_ state: Int, upTo ancestor: Int?, _ entry: inout EntrySet) {
    var a = chart.parents[state]
    while a > 0, a != ancestor {
      entry.add(a)
      if chart.kinds[a] == .parallel {
        for child in chart.children[a] where !entry.containsDescendant(of: child) {
          addDescendants(child, &entry)
        }
      }
      a = chart.parents[a]
    }
  }

  func isInFinalState(_ s: Int) -> Bool {
    switch chart.kinds[s] {
    case .compound: chart.children[s].contains { chart.kinds[$0] == .final && active[$0] }
    case .parallel: chart.children[s].allSatisfy(isInFinalState)
    default: false
    }
  }

  // MARK: Domains

  /// The transition's targets with history states replaced by what they stand for.
  func effectiveTargets(_ t: Int) -> [Int] {
    var result: [Int] = []
    for s in chart.targets[t] {
      if chart.isHistory(s) {
        for r in history[s] ?? effectiveTargets(chart.defaultTransition[s]) where !result.contains(r) { result.append(r) }
      } else if !result.contains(s) {
        result.append(s)
      }
    }
    return result
  }

  /// The compound state (or the root) whose descendants the transition exits and enters;
  /// `nil` for a targetless transition.
  func transitionDomain(_ t: Int) -> Int? {
    chart.domain(source: chart.sources[t], targets: effectiveTargets(t), isInternal: chart.isInternal[t])
  }

  // MARK: Content

  /// Runs content; `owner` is the state its effects belong to (see ``ChartStep``), recorded
  /// only when the machine tracks owners.
  @inlinable
  mutating func execute(_ block: ContentBlock, value: Event?, owner: Int, _ run: inout Run) {
    // By index, switching on the element in place: only the payload used is copied.
    var i = Int(block.start)
    let end = Int(block.end)
    while i < end {
      defer { i += 1 }
      // Updates and makes, the common content, by their closures alone.
      if let update = chart.tables.updates[i] {
        update(&storedContext, value)
        contextWritten = true
        if let scripting = chart.tables.scripting { takeScriptOutputs(scripting, owner: owner, &run) }
        continue
      }
      if let make = chart.tables.makes[i] {
        // A make reads the context and makes an output, nothing else: skipped when outputs are.
        // (Moved into the run, not copied: a copy was a retain and a release of whatever the
        // effect holds, twice, on every step that makes one: a message's object, for one.)
        if !discardsOutputs, let effect = make(storedContext, value) { run.output(.effect(consume effect), owner: owner) }
        // (A datamodel's make may leave something to do: an invocation's errors. Asked by a
        // flag: binding the hooks copies them, and makes are most charts' common content.)
        if _slowPath(chart.tables.isScripted), let scripting = chart.tables.scripting { takeScriptOutputs(scripting, owner: owner, &run) }
        continue
      }
      switch chart.tables.content[i] {
      case .effect(let effect): if !discardsOutputs { run.output(.effect(effect), owner: owner) }
      case .make(_, let make): if !discardsOutputs, let effect = make(storedContext, value) { run.output(.effect(consume effect), owner: owner) }
      case .raise(let raised):
        let ordinal = self.ordinal(of: raised)
        internalQueue.append(QueuedEvent(name: eventName(of: raised, ordinal: ordinal), value: raised, ordinal: ordinal))
      case .send(let sent, let delay, let id): if !discardsOutputs { run.output(.send(sent, after: delay, id: id), owner: owner) }
      case .cancel(let id): if !discardsOutputs { run.output(.cancel(id), owner: owner) }
      case .message(let sent, let target): if !discardsOutputs { run.output(.message(sent, to: target), owner: owner) }
      case .delayedMessage(let message): if !discardsOutputs { run.output(.delayedMessage(message), owner: owner) }
      case .update(_, let update):
        update(&storedContext, value)
        contextWritten = true
      case .error(let name): enqueue(name)
      }
    }
  }

  /// The state a transition's content belongs to: its source when it has no target, else the
  /// nearest state holding all of its targets (history replaced by what it restores).
  func owner(of t: Int) -> Int {
    let targets = effectiveTargets(t)
    guard var owner = targets.first else { return chart.sources[t] }
    while owner > 0, !targets.allSatisfy({ $0 == owner || chart.isDescendant($0, of: owner) }) { owner = chart.parents[owner] }
    return owner
  }

  @inlinable
  mutating func enqueue(_ name: String) {
    internalQueue.append(QueuedEvent(name: name, value: chart.tables.scripting?.platformEvent(name, &storedContext)))
  }

  /// The chart halted: every active state is exited (its exit content runs) in reverse
  /// document order; the configuration is kept as it was, for callers to read.
  @usableFromInline
  mutating func exitInterpreter(_ run: inout Run) {
    let remaining = (1..<chart.count).filter { active[$0] }.sorted(by: >)
    for s in remaining {
      execute(chart.tables.exitBlocks[s], value: nil, owner: chart.parents[s], &run)
      run.exited(s)
    }
    internalQueue.removeAll()
    queueHead = 0
  }
}
