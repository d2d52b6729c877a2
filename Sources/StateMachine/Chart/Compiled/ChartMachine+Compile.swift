/// Filling ``CompiledSteps``: the algorithm's set arithmetic (``ChartMachine+Algorithm``),
/// run once per configuration and event, or per configuration and set of transitions, and kept.
extension ChartMachine {
  /// The configuration's key: active states, and history values.
  @usableFromInline
  func compiledKey() -> CompiledSteps.Key {
    var remembered = StateBits(count: chart.count)
    for (h, states) in history {
      remembered[h] = true
      for s in states { remembered[s] = true }
    }
    return CompiledSteps.Key(active: active, history: remembered)
  }

  /// Looks the configuration's node up (or makes it).
  @usableFromInline
  mutating func findNode() -> Int32 {
    guard compiles else { return -1 }
    let key = compiledKey()
    // Looked up in place first: writing through `compiled` copies the steps shared with the
    // chart's other machines, which a machine that meets only known configurations (a new
    // store's, say) never needs to.
    if let known = compiledStorage.steps.ids[key] {
      node = known
      return node
    }
    node = compiled.node(of: key)
    return node
  }

  /// Hands the compiled steps to the chart for its next machines to start from: each time
  /// while they are small (under 1,024 selections and moves: a machine that takes one step
  /// still hands on what it learnt), then
  /// when they have grown to twice what was last handed (sharing makes the next write copy
  /// them, so handing them on geometrically keeps those copies linear in all); and when
  /// `force`d (a new event name: at most 64 per chart).
  mutating func publish(force: Bool = false) {
    let size = compiled.size
    guard force || size > published && (size < 1024 || size >= 2 * published) else { return }
    let mine = compiledStorage
    chart.tables.learnt.withLock { if $0.steps.size <= mine.steps.size { $0 = mine } }
    published = compiled.size
  }

  /// Compiles the selection of `event` in node `n` and files it.
  @usableFromInline
  mutating func compileSelection(_ n: Int32, _ event: QueuedEvent) -> Int32 {
    defer { publish() }
    let guardKinds = chart.tables.guardKinds
    let index = compiled.addSelection(candidates(for: event)) { guardKinds[$0] != .none }
    if !event.isEventless {
      if event.ordinal >= 0 {
        compiled.byOrdinal[Int(n) << 6 | event.ordinal] = index
      } else {
        compiled.byName[Int(n)].append(CompiledSteps.Named(name: event.name, selection: index))
      }
    } else {
      compiled.eventless[Int(n)] = index
    }
    return index
  }

  /// For each active atomic state in document order, the transitions (its own, then its
  /// ancestors') that match `event`.
  func candidates(for event: QueuedEvent) -> [Int32] {
    var list: [Int32] = []
    for state in 1..<chart.count where active[state] && chart.isAtomic(state) {
      let countAt = list.count
      list.append(0)
      var s = state
      while s >= 0 {
        for t in chart.stateTransitions[s] where matches(t, event) { list.append(Int32(t)) }
        s = chart.parents[s]
      }
      list[countAt] = Int32(list.count - countAt - 1)
      if list[countAt] == 0 { list.removeLast() }
    }
    return list
  }

  /// Compiles the move of `enabled` from node `n` and files it; `nil` when there is no room.
  @usableFromInline
  mutating func compileMove(_ n: Int32, _ enabled: [Int]) -> Int32? {
    guard compiled.hasRoom else { return nil }
    defer { publish() }
    let starting = isUnstarted
    let (move, end) = compileMove(enabled)
    let filed = compiled.file(move, ending: end, from: n, taking: enabled, transitions: chart.sources.count)
    // The start's move is kept where every later start finds it at once (before the steps are
    // handed to the chart's other machines).
    if starting, filed >= 0 { compiled.startMove = filed }
    return filed
  }

  /// Whether no state is active: the configuration before the start.
  var isUnstarted: Bool { !(0..<chart.count).contains { active[$0] } }

  /// What the algorithm's microstep computes for `enabled` from here, without running content:
  /// the history it writes, the program of content, exits, entries and done events, and where
  /// it ends.
  mutating func compileMove(_ enabled: [Int]) -> (CompiledSteps.Move, end: CompiledSteps.Key) {
    var program: [CompiledSteps.Op] = []
    func run(_ block: ContentBlock, owner: Int) {
      if !block.isEmpty { program.append(CompiledSteps.Op(.run, Int(block.start), Int(block.end), owner)) }
    }
    var halts = false
    // From the empty configuration, the move is the start: its transition's content belongs to
    // the chart itself, as the algorithm's start runs it.
    let starting = isUnstarted
    let (savedHistory, savedActive) = (history, active)
    defer { (history, active) = (savedHistory, savedActive) }
    let historyStart = compiled.historyWrites.count
    let exits = exitSet(enabled).sorted(by: >)
    for s in exits {
      for h in chart.histories[s] {
        let remembered = self.remembered(by: h, leaving: s)
        compiled.historyWrites.append(CompiledSteps.HistoryWrite(state: h, remembered: remembered))
        history[h] = remembered
      }
    }
    for s in exits {
      run(chart.tables.exitBlocks[s], owner: chart.parents[s])
      program.append(CompiledSteps.Op(.exited, s))
      active[s] = false
    }
    for t in enabled { run(chart.tables.transitionBlocks[t], owner: starting ? 0 : owner(of: t)) }
    var entry = EntrySet(count: chart.count, parents: chart.parents)
    for t in enabled {
      for s in chart.targets[t] { addDescendants(s, &entry) }
      let ancestor = transitionDomain(t)
      for s in effectiveTargets(t) { addAncestors(s, upTo: ancestor, &entry) }
    }
    program.append(CompiledSteps.Op(.activate, 0))
    // States become active one by one, as the algorithm enters them: a parallel state's done
    // event is raised when its last region's final state is entered, not before.
    for s in entry.states.sorted() {
      active[s] = true
      program.append(CompiledSteps.Op(.entered, s))
      run(chart.tables.entryBlocks[s], owner: s)
      if entry.defaultEntry.contains(s) { run(chart.tables.transitionBlocks[chart.defaultTransition[s]], owner: s) }
      if let content = entry.historyContent[s] { run(chart.tables.transitionBlocks[content], owner: s) }
      guard chart.kinds[s] == .final else { continue }
      let parent = chart.parents[s]
      if parent == 0 {
        halts = true
        continue
      }
      program.append(CompiledSteps.Op(.done, compiled.doneName("done.state.\(chart.label(parent))")))
      let grandparent = chart.parents[parent]
      if grandparent > 0, chart.kinds[grandparent] == .parallel, chart.children[grandparent].allSatisfy(isInFinalState) {
        program.append(CompiledSteps.Op(.done, compiled.doneName("done.state.\(chart.label(grandparent))")))
      }
    }
    let end = CompiledSteps.Key(active: active, history: compiledKey().history)
    let programStart = compiled.program.count
    compiled.program += program
    let historyEnd = compiled.historyWrites.count
    let move = CompiledSteps.Move(
      programStart: Int32(programStart), programEnd: Int32(compiled.program.count), historyStart: Int32(historyStart),
      historyEnd: Int32(historyEnd), halts: halts,
      isQuick: !halts && historyEnd == historyStart && program.allSatisfy { $0.kind != .run && $0.kind != .done },
      isQuickDiscarding: !halts && historyEnd == historyStart
        && program.allSatisfy { $0.kind != .done && ($0.kind != .run || chart.tables.makesOutputsOnly(Int($0.a)..<Int($0.b))) },
      endSmall: end.active.small,
      endNode: compiled.node(of: end))
    return (move, end)
  }
}
