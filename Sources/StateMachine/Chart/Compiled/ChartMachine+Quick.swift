/// The quick lane: an event whose step in this configuration is known to need none of the
/// macrostep's machinery is taken with two array loads (see ``CompiledSteps/quick``).
extension ChartMachine {
  /// The step of the event with `ordinal` (below 64) when it is quick: no transition can match it here, or its one
  /// candidate has no guard and its move has no content, history or done event and lands where
  /// no eventless transition can be taken. `nil` otherwise (the caller runs the macrostep).
  @inlinable
  mutating func quickStep(ordinal: Int) -> ChartStep<Event, Effect>? {
    let slot = Int(node) << 6 | ordinal
    let end = quickEnd(slot)
    if end >= 0 {
      enter(quick: end, slot: slot)
      return ChartStep(outcome: .transitioned, outputs: [], microsteps: 1)
    }
    if end == CompiledSteps.unhandled {
      if tracksOwners { noteExits(ofMove: -1) }
      return ChartStep(outcome: .unhandled, outputs: [], microsteps: 0)
    }
    if end == CompiledSteps.notQuick { return nil }
    return learnQuick(slot) ? quickStep(ordinal: ordinal) : nil
  }

  /// ``quickStep(ordinal:)`` without the step, for checkers: whether the quick lane moved the
  /// machine (`false`: the event is unhandled here), or `nil` when the event is not quick here.
  @inlinable
  mutating func quickMove(ordinal: Int) -> Bool? {
    let slot = Int(node) << 6 | ordinal
    var end = quickEnd(slot)
    if end == CompiledSteps.unknown {
      guard learnQuick(slot) else { return nil }
      end = quickEnd(slot)
    }
    if end >= 0 {
      enter(quick: end, slot: slot)
      return true
    }
    guard end == CompiledSteps.unhandled else { return nil }
    if tracksOwners { noteExits(ofMove: -1) }
    return false
  }

  /// The quick step in `slot` moves the machine to node `end`.
  @inlinable @inline(__always)
  mutating func enter(quick end: Int32, slot: Int) {
    if active.large == nil { active.small = compiledStorage.steps.smallActive[Int(end)] } else { active = compiledStorage.steps.keys[Int(end)].active }
    if quickNotes {
      if tracksOwners { noteExits(ofMove: compiledStorage.steps.quickMoves[slot]) }
      if let coverage { cover(quickSlot: slot, in: coverage) }
    }
    node = end
  }

  /// What this machine's quick lane holds for `slot` (`node << 6 | ordinal`): the node a quick
  /// step ends in, or one of ``CompiledSteps/unhandled``, ``CompiledSteps/notQuick`` and
  /// ``CompiledSteps/unknown``.
  @inlinable @inline(__always)
  func quickEnd(_ slot: Int) -> Int32 {
    !discardsOutputs ? compiledStorage.steps.quick[slot]
      : slot < compiledStorage.steps.quickDiscarding.count ? compiledStorage.steps.quickDiscarding[slot] : CompiledSteps.unknown
  }

  /// Works out what the quick lane does for `slot` (`node << 6 | ordinal`) from the compiled
  /// selection and move, when both are compiled; returns whether the slot is now known to be
  /// quick or unhandled. A machine that discards outputs learns its own lane.
  @usableFromInline
  mutating func learnQuick(_ slot: Int) -> Bool {
    // What is learnt is handed to the chart as what is compiled is (see `publish`): a machine
    // that only learns slots would otherwise keep them to itself, and every new machine of the
    // chart (every walk's) would learn them again, copying the steps it shares to write them.
    defer { publish() }
    let s = compiledStorage.steps.byOrdinal[slot]
    guard s >= 0 else { return false }
    let t = compiledStorage.steps.sole[Int(s)]
    if t == CompiledSteps.noCandidate {
      learn(slot, CompiledSteps.unhandled)
      return true
    }
    guard t >= 0 else {
      learn(slot, CompiledSteps.notQuick)
      return false
    }
    let base = compiledStorage.steps.singleBase[Int(node)]
    guard base >= 0, compiledStorage.steps.singles[Int(base + t)] >= 0 else { return false }
    let m = compiledStorage.steps.singles[Int(base + t)]
    let move = compiledStorage.steps.moves[Int(m)]
    guard discardsOutputs ? move.isQuickDiscarding : move.isQuick, move.endNode >= 0 else {
      learn(slot, CompiledSteps.notQuick)
      return false
    }
    let eventless = compiledStorage.steps.eventless[Int(move.endNode)]
    guard eventless >= 0 else { return false }
    guard compiledStorage.steps.sole[Int(eventless)] == CompiledSteps.noCandidate else {
      learn(slot, CompiledSteps.notQuick)
      return false
    }
    learn(slot, move.endNode)
    // The slot's move is the same for either lane.
    compiled.quickMoves[slot] = m
    return true
  }

  /// Files what the quick lane does for `slot`, in this machine's lane.
  @usableFromInline
  mutating func learn(_ slot: Int, _ end: Int32) {
    compiled.learntSlots += 1
    guard discardsOutputs else {
      compiled.quick[slot] = end
      return
    }
    let missing = compiledStorage.steps.quick.count - compiledStorage.steps.quickDiscarding.count
    if missing > 0 { compiled.quickDiscarding += repeatElement(CompiledSteps.unknown, count: missing) }
    compiled.quickDiscarding[slot] = end
  }

  /// A tracking machine's owners and exits after a quick step: no outputs, and the states
  /// compiled move `m` exits (none when `m` is -1: nothing was taken), listed only when asked.
  @inlinable
  mutating func noteExits(ofMove m: Int32) {
    lastOwners.clear()
    exitBuffer.clear()
    quickExits = m
  }

  /// Whether compiled move `m` of `storage` exits any state (``exits(ofMove:)`` without the
  /// list): a store where anything runs commits in full a quick step that exited a state, and
  /// most quick steps, targetless ones, exit none. (Static, and read by the store field by
  /// field: a getter or method called on a store's machine through its address copied the
  /// whole machine.)
  @inlinable
  static func exitsAny(move m: Int32, of storage: CompiledStorage) -> Bool {
    let move = storage.steps.moves[Int(m)]
    var pc = Int(move.programStart)
    let end = Int(move.programEnd)
    while pc < end {
      if storage.steps.program[pc].kind == .exited { return true }
      pc += 1
    }
    return false
  }

  /// The states compiled move `m` exits, in order (it has no outputs).
  @usableFromInline
  func exits(ofMove m: Int32) -> [ChartExit] {
    let move = compiledStorage.steps.moves[Int(m)]
    return compiledStorage.steps.program[Int(move.programStart)..<Int(move.programEnd)].filter { $0.kind == .exited }.map {
      ChartExit(state: Int($0.a), output: 0)
    }
  }
}
