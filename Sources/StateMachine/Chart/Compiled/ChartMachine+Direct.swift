/// The direct lane: an external event whose compiled selection here is one group of candidates
/// (one region can take it, or every region the same ones; no conflicts are possible) is taken
/// without queueing it, naming it, or gathering a selection: the guards run in document order,
/// and the first that holds picks the compiled move, whose program runs as the macrostep's
/// first microstep. What follows (eventless transitions, internal events) settles as in
/// ``ChartMachine/run(_:ordinal:)``.
extension ChartMachine {
  /// The transition `value` (with `ordinal`, below 64) takes in the current node when the
  /// node's compiled selection for it is one group of candidates (or several alike): the first
  /// whose guard holds, or -1 when none does. `nil` when the lane does not apply (the selection
  /// is not compiled yet, or is groups that differ), before any guard ran.
  ///
  /// (Mutating though it changes nothing: the machine is then passed by its address. Called
  /// as a non-mutating method from a mutating one, all 144 bytes of it were copied first.)
  @inlinable
  mutating func directTransition(_ value: Event?, ordinal: Int) -> Int? {
    let s = Int(compiledStorage.steps.byOrdinal[Int(node) << 6 | ordinal])
    guard s >= 0 else { return nil }
    var i = Int(compiledStorage.steps.selectionStarts[s])
    var end = Int(compiledStorage.steps.selectionStarts[s + 1])
    guard i < end else { return nil }
    let groupEnd = i + 1 + Int(compiledStorage.steps.candidates[i])
    // Groups that list the same candidates (regions of a parallel state meeting its own
    // transitions) select the same one: the first group stands for them all.
    if groupEnd < end {
      guard Self.sameGroups(compiledStorage.steps.candidates, from: i, to: groupEnd, end: end) else { return nil }
      end = groupEnd
    }
    i += 1
    while i < end {
      let t = Int(compiledStorage.steps.candidates[i])
      if holds(t, value) { return t }
      i += 1
    }
    return -1
  }

  /// Whether each group of `candidates` in `groupEnd ..< end` lists the same ones as the group
  /// at `first ..< groupEnd`. (Static: a method called from the mutating lane copied the
  /// machine whole to be its `self`.)
  @inlinable
  static func sameGroups(_ candidates: [Int32], from first: Int, to groupEnd: Int, end: Int) -> Bool {
    let width = groupEnd - first
    guard (end - first) % width == 0 else { return false }
    var g = groupEnd
    while g < end {
      for k in 0..<width where candidates[g + k] != candidates[first + k] { return false }
      g += width
    }
    return true
  }

  /// Takes transition `t` alone for `value` (with `ordinal`): its compiled move, compiled now
  /// when it is not yet (then by way of the selection, as ``take(event:_:)`` does).
  @inlinable
  mutating func takeDirect(_ t: Int, value: Event?, ordinal: Int, _ run: inout Run) {
    let base = compiledStorage.steps.singleBase[Int(node)]
    let m = base >= 0 ? compiledStorage.steps.singles[Int(base) + t] : -1
    guard m >= 0 else {
      selected.clear()
      selected.append(t)
      let name = value.map { eventName(of: $0, ordinal: ordinal) } ?? ""
      take(event: QueuedEvent(name: name, value: value, ordinal: ordinal), &run)
      return
    }
    run.microsteps += 1
    run.trace?.took(t)
    runMove(Int(m), value: value, &run)
  }

  /// What the direct lane did with an event.
  @usableFromInline
  enum DirectOutcome {
    /// The lane does not apply: nothing ran (the caller runs the macrostep).
    case notTaken
    /// No candidate's guard held: nothing changed.
    case unhandled
    /// The macrostep ran, into this run.
    case took(Run)
  }

  /// The macrostep of `event` through the direct lane, into a run made by ``makeRun(lean:)``.
  @inlinable
  mutating func direct(_ event: Event, ordinal: Int, lean: Bool) throws(ChartRunError) -> DirectOutcome {
    let value: Event? = event
    guard let t = directTransition(value, ordinal: ordinal) else { return .notTaken }
    guard t >= 0 else {
      if tracksOwners { noteExits(ofMove: -1) }
      return .unhandled
    }
    var run = makeRun(lean: lean)
    takeDirect(t, value: value, ordinal: ordinal, &run)
    try settle(&run)
    return .took(run)
  }

  /// The macrostep of `event` through the direct lane; `nil` when the lane does not apply.
  @inlinable
  mutating func directStep(_ event: Event, ordinal: Int) throws(ChartRunError) -> ChartStep<Event, Effect>? {
    switch try direct(event, ordinal: ordinal, lean: false) {
    case .notTaken: return nil
    case .unhandled: return ChartStep(outcome: .unhandled, outputs: [], microsteps: 0)
    case .took(var run): return step(of: &run)
    }
  }

  /// ``directStep(_:ordinal:)`` for checkers: whether the macrostep took transitions; `nil`
  /// when the lane does not apply.
  @inlinable
  mutating func directAdvance(_ event: Event, ordinal: Int) throws(ChartRunError) -> Bool? {
    switch try direct(event, ordinal: ordinal, lean: isLean) {
    case .notTaken: return nil
    case .unhandled: return false
    case .took(var run):
      if !isLean { keepBuffers(of: &run) }
      return true
    }
  }
}
