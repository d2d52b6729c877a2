/// The machine's steps through ``CompiledSteps``: the same transitions, content, history and
/// done events as the algorithm (``ChartMachine+Algorithm``), which stays the reference and
/// computes what is kept the first time a configuration meets an event or a set of transitions
/// (see ``ChartMachine+Compile``).
extension ChartMachine {
  /// The current configuration's node, found (or made) when it is not known; -1 when the
  /// compiled steps are full or off.
  @inlinable
  mutating func currentNode() -> Int32 {
    if node >= 0 { return node }
    return findNode()
  }

  /// The transitions enabled for `event` (`nil`: eventless), into ``selected``, as
  /// ``selectTransitions(for:)`` selects them: the candidates are compiled, the guards run now.
  @inlinable
  mutating func selectCompiled(for event: QueuedEvent) {
    selected.clear()
    let n = currentNode()
    guard n >= 0 else {
      selected = selectTransitions(for: event)
      return
    }
    let s = Int(selectionIndex(n, event))
    var i = Int(compiledStorage.steps.selectionStarts[s])
    let end = Int(compiledStorage.steps.selectionStarts[s + 1])
    guard i < end else { return }
    while i < end {
      let groupEnd = i + 1 + Int(compiledStorage.steps.candidates[i])
      var k = i + 1
      while k < groupEnd {
        let t = Int(compiledStorage.steps.candidates[k])
        if holds(t, event.value) {
          if !selected.contains(t) { selected.append(t) }
          break
        }
        k += 1
      }
      i = groupEnd
    }
    if chart.tables.scripting != nil { takeGuardErrors() }
    if selected.count > 1 { selected = removeConflicting(selected) }
  }

  /// The compiled selection of `event` in node `n`, compiled now if it is not yet.
  @inlinable
  mutating func selectionIndex(_ n: Int32, _ event: QueuedEvent) -> Int32 {
    if !event.isEventless {
      if event.ordinal >= 0 {
        let slot = compiledStorage.steps.byOrdinal[Int(n) << 6 | event.ordinal]
        if slot >= 0 { return slot }
      } else if let slot = compiledStorage.steps.named(n, event.name) {
        return slot
      }
    } else {
      let slot = compiledStorage.steps.eventless[Int(n)]
      if slot >= 0 { return slot }
    }
    return compileSelection(n, event)
  }

  /// Takes `enabled` together, as ``microstep(_:event:_:)`` does, by running the compiled
  /// move's program.
  @inlinable
  mutating func microstepCompiled(_ enabled: [Int], event: QueuedEvent, _ run: inout Run) {
    // (No node, when the compiled steps are full: `moveIndex` answers nil.)
    guard let m = moveIndex(currentNode(), enabled) else {
      microstep(enabled, event: event, &run)
      node = -1
      return
    }
    run.microsteps += 1
    run.trace?.took(enabled)
    runMove(Int(m), value: event.value, &run)
  }

  /// Runs compiled move `move`'s program for an event's `value` (what its content sees), and
  /// lands on the move's end.
  @inlinable @inline(__always)
  mutating func runMove(_ move: Int, value: Event?, _ run: inout Run) {
    // Read field by field: the move is not copied (its end key holds two state sets).
    if compiledStorage.steps.moves[move].historyStart < compiledStorage.steps.moves[move].historyEnd { writeHistory(compiledStorage.steps.moves[move]) }
    var pc = Int(compiledStorage.steps.moves[move].programStart)
    let end = Int(compiledStorage.steps.moves[move].programEnd)
    while pc < end {
      let op = compiledStorage.steps.program[pc]
      pc += 1
      switch op.kind {
      case .run: execute(ContentBlock(start: op.a, end: op.b), value: value, owner: Int(op.c), &run)
      case .exited: run.exited(Int(op.a))
      case .activate:
        if active.large == nil { active.small = compiledStorage.steps.moves[move].endSmall } else { active = compiledStorage.steps.moveEnds[move].active }
      case .entered: run.trace?.enter(Int(op.a) - 1)
      case .done: enqueue(compiledStorage.steps.doneNames[Int(op.a)])
      }
    }
    node = compiledStorage.steps.moves[move].endNode
    if compiledStorage.steps.moves[move].halts {
      halted = true
      exitInterpreter(&run)
      node = -1
    }
  }

  /// Writes the history values of `move`.
  @usableFromInline
  mutating func writeHistory(_ move: CompiledSteps.Move) {
    for i in Int(move.historyStart)..<Int(move.historyEnd) {
      let write = compiledStorage.steps.historyWrites[i]
      history[write.state] = write.remembered
    }
  }

  /// The compiled move of `enabled` from node `n`, compiled now if it is not yet; `nil` when
  /// there is no room (or no node: `n` is -1).
  @inlinable
  mutating func moveIndex(_ n: Int32, _ enabled: [Int]) -> Int32? {
    guard n >= 0 else { return nil }
    if enabled.count == 1 {
      let base = compiledStorage.steps.singleBase[Int(n)]
      if base >= 0 {
        let m = compiledStorage.steps.singles[Int(base) + enabled[0]]
        if m >= 0 { return m }
      }
    } else if let m = compiledStorage.steps.move(n, taking: enabled) {
      return m
    }
    return compileMove(n, enabled)
  }
}
