/// The machine's steps through ``CompiledSteps``: the same transitions, content, history and
/// done events as the algorithm (``ChartMachine+Algorithm``), which stays the reference and
/// computes what is kept the first time a configuration meets an event or a set of transitions.
extension ChartMachine {
  /// The configuration's key: active states, and history values.
  func compiledKey() -> CompiledSteps.Key {
    var remembered = StateBits(count: chart.count)
    for (h, states) in history {
      remembered[h] = true
      for s in states { remembered[s] = true }
    }
    return CompiledSteps.Key(active: active, history: remembered)
  }

  /// The current configuration's node, found (or made) when it is not known; -1 when the
  /// compiled steps are full or off.
  @inlinable
  mutating func currentNode() -> Int32 {
    if node >= 0 { return node }
    return findNode()
  }

  /// Looks the configuration's node up (or makes it).
  @usableFromInline
  mutating func findNode() -> Int32 {
    guard compiled != nil else { return -1 }
    node = compiled!.node(of: compiledKey())
    return node
  }

  /// The transitions enabled for `event` (`nil`: eventless), into `enabled`, as
  /// ``selectTransitions(for:)`` selects them: the candidates are compiled, the guards run now.
  @inlinable
  mutating func selectCompiled(for event: QueuedEvent?, into enabled: inout [Int]) {
    enabled.removeAll(keepingCapacity: true)
    let n = currentNode()
    guard n >= 0 else {
      enabled = selectTransitions(for: event)
      return
    }
    let selection = selectionIndex(n, event)
    var many = false
    compiled!.selections[Int(selection)].withUnsafeBufferPointer { list in
      var i = 0
      while i < list.count {
        let end = i + 1 + Int(list[i])
        var k = i + 1
        while k < end {
          let t = Int(list[k])
          if holds(t, event) {
            if !enabled.contains(t) { enabled.append(t) }
            break
          }
          k += 1
        }
        i = end
      }
      many = enabled.count > 1
    }
    if many { enabled = removeConflicting(enabled) }
  }

  /// The compiled selection of `event` in node `n`, compiled now if it is not yet.
  @inlinable
  mutating func selectionIndex(_ n: Int32, _ event: QueuedEvent?) -> Int32 {
    let ordinal = event?.value.flatMap { value in eventOrdinal?(value) }.flatMap { $0 >= 0 && $0 < 64 ? $0 : nil }
    if let event {
      if let ordinal {
        if ordinal < compiled!.nodes[Int(n)].byOrdinal.count {
          let slot = compiled!.nodes[Int(n)].byOrdinal[ordinal]
          if slot >= 0 { return slot }
        }
      } else {
        for entry in compiled!.nodes[Int(n)].byName where entry.name == event.name { return entry.selection }
      }
    } else if compiled!.nodes[Int(n)].eventless >= 0 {
      return compiled!.nodes[Int(n)].eventless
    }
    return compileSelection(n, event, ordinal: ordinal)
  }

  /// Compiles the selection of `event` in node `n` and files it.
  @usableFromInline
  mutating func compileSelection(_ n: Int32, _ event: QueuedEvent?, ordinal: Int?) -> Int32 {
    let index = Int32(compiled!.selections.count)
    compiled!.selections.append(candidates(for: event))
    if let event {
      if let ordinal {
        if compiled!.nodes[Int(n)].byOrdinal.count <= ordinal {
          compiled!.nodes[Int(n)].byOrdinal += repeatElement(-1, count: ordinal + 1 - compiled!.nodes[Int(n)].byOrdinal.count)
        }
        compiled!.nodes[Int(n)].byOrdinal[ordinal] = index
      } else {
        compiled!.nodes[Int(n)].byName.append(CompiledSteps.Named(name: event.name, selection: index))
      }
    } else {
      compiled!.nodes[Int(n)].eventless = index
    }
    return index
  }

  /// For each active atomic state in document order, the transitions (its own, then its
  /// ancestors') that match `event`.
  func candidates(for event: QueuedEvent?) -> CompiledSteps.Selection {
    var list: CompiledSteps.Selection = []
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

  /// Takes `enabled` together, as ``microstep(_:event:_:)`` does, from the compiled move.
  @inlinable
  mutating func microstepCompiled(_ enabled: [Int], event: QueuedEvent?, _ run: inout Run) {
    let n = currentNode()
    guard n >= 0, let m = moveIndex(n, enabled) else {
      microstep(enabled, event: event, &run)
      node = -1
      return
    }
    let move = compiled!.moves[Int(m)]
    run.microsteps += 1
    if reporting || run.recording { run.taken += enabled }
    if move.touchesHistory { historyTouched = true }
    for write in move.historyWrites {
      history[write.state] = write.remembered
      if run.recording { run.plan?.historyWrites.append((write.state, write.remembered)) }
    }
    for s in move.exits {
      execute(chart.onExit[s], event: event, owner: chart.parents[s], &run)
      if run.recording || run.tracking { run.exits.append(ChartExit(state: s, output: run.outputs.count)) }
    }
    for (k, t) in enabled.enumerated() {
      execute(chart.actions[t], event: event, owner: run.tracking || run.recording ? move.owners[k] : 0, &run)
    }
    active = move.end.active
    for entry in move.entries {
      let s = entry.state
      if reporting || run.recording { run.entered.append(s - 1) }
      if !chart.onEntry[s].isEmpty { execute(chart.onEntry[s], event: event, owner: s, &run) }
      if entry.defaultEntry { execute(chart.actions[chart.defaultTransition[s]], event: event, owner: s, &run) }
      if entry.historyContent >= 0 { execute(chart.actions[entry.historyContent], event: event, owner: s, &run) }
      for name in entry.done { enqueue(name) }
    }
    node = move.endNode
    if move.halts {
      halted = true
      exitInterpreter(&run)
      node = -1
    }
  }

  /// The compiled move of `enabled` from node `n`, compiled now if it is not yet; `nil` when
  /// there is no room.
  @inlinable
  mutating func moveIndex(_ n: Int32, _ enabled: [Int]) -> Int32? {
    for entry in compiled!.nodes[Int(n)].moves where entry.transitions == enabled { return entry.move }
    return compileMove(n, enabled)
  }

  /// Compiles the move of `enabled` from node `n` and files it; `nil` when there is no room.
  @usableFromInline
  mutating func compileMove(_ n: Int32, _ enabled: [Int]) -> Int32? {
    guard compiled!.hasRoom else { return nil }
    let move = compileMove(enabled)
    let index = Int32(compiled!.moves.count)
    compiled!.moves.append(move)
    compiled!.nodes[Int(n)].moves.append(CompiledSteps.Taken(transitions: enabled, move: index))
    return index
  }

  /// What the algorithm's microstep computes for `enabled` from here, without running content:
  /// the history it writes, the states it exits and enters, and where it ends.
  mutating func compileMove(_ enabled: [Int]) -> CompiledSteps.Move {
    var historyWrites: [CompiledSteps.HistoryWrite] = []
    var entries: [CompiledSteps.Entry] = []
    var halts = false
    let (savedHistory, savedActive, savedTouched) = (history, active, historyTouched)
    defer { (history, active, historyTouched) = (savedHistory, savedActive, savedTouched) }
    historyTouched = enabled.contains { t in chart.targets[t].contains { chart.isHistory($0) } }
    let exits = exitSet(enabled).sorted(by: >)
    for s in exits {
      for h in chart.histories[s] {
        let remembered = self.remembered(by: h, leaving: s)
        historyWrites.append(CompiledSteps.HistoryWrite(state: h, remembered: remembered))
        history[h] = remembered
      }
    }
    for s in exits { active[s] = false }
    let owners = enabled.map(owner(of:))
    var entry = EntrySet(count: chart.count, parents: chart.parents)
    for t in enabled {
      for s in chart.targets[t] { addDescendants(s, &entry) }
      let ancestor = transitionDomain(t)
      for s in effectiveTargets(t) { addAncestors(s, upTo: ancestor, &entry) }
    }
    for s in entry.states.sorted() {
      active[s] = true
      var done: [String] = []
      if chart.kinds[s] == .final {
        let parent = chart.parents[s]
        if parent == 0 {
          halts = true
        } else {
          done.append("done.state.\(chart.label(parent))")
          let grandparent = chart.parents[parent]
          if grandparent > 0, chart.kinds[grandparent] == .parallel, chart.children[grandparent].allSatisfy(isInFinalState) {
            done.append("done.state.\(chart.label(grandparent))")
          }
        }
      }
      entries.append(CompiledSteps.Entry(
        state: s, defaultEntry: entry.defaultEntry.contains(s), historyContent: entry.historyContent[s] ?? -1, done: done))
    }
    let end = CompiledSteps.Key(active: active, history: compiledKey().history)
    return CompiledSteps.Move(
      historyWrites: historyWrites, exits: exits, owners: owners, entries: entries, halts: halts, touchesHistory: historyTouched,
      end: end, endNode: compiled!.node(of: end))
  }
}
