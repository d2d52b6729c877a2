/// The result of the pure step ``TransitionTable/step(_:_:_:)``.
public struct Step<State, Context, Effect> {
  /// The state after the step.
  public var state: State
  /// The context after the step.
  public var context: Context
  /// What the step did.
  public var outcome: StepOutcome<State, Effect>
  /// Which row handled the event, if one did: its index in the order the table's rows were
  /// declared (from 0; the Markdown export numbers them from 1).
  public var row: Int?

  @usableFromInline
  init(state: State, context: Context, outcome: StepOutcome<State, Effect>, row: Int?) {
    self.state = state
    self.context = context
    self.outcome = outcome
    self.row = row
  }
}

extension Step: Sendable where State: Sendable, Context: Sendable, Effect: Sendable {}

extension TransitionTable {
  /// The pure step: what the table does with `event` in `state` with `context`.
  ///
  /// It never traps: a state that is not in the table gives ``Rejection/unknownState``.
  ///
  /// ```swift
  /// let step = table.step(.stopped, NoContext(), .play)
  /// step.state     // .playing
  /// step.outcome   // .transitioned(from: .stopped, to: .playing, effects: [.startPlayback])
  /// ```
  @inlinable
  public func step(_ state: State, _ context: Context, _ event: Event) -> Step<State, Context, Effect> {
    var state = state
    var context = context
    guard var position = position(of: state.discriminant) else {
      return Step(state: state, context: context, outcome: .rejected(.unknownState), row: nil)
    }
    var row = -1
    let outcome = apply(event, position: &position, state: &state, context: &context, row: &row)
    return Step(state: state, context: context, outcome: outcome, row: row < 0 ? nil : row)
  }

  /// The dense index of a state case, or `nil` when the table does not know it. Small tables
  /// compare cases in order, which beats hashing; larger ones use a dictionary.
  @inlinable
  func stateIndex(of state: State.Discriminant) -> Int? {
    let cases = storage.cases
    if cases.count <= 16 {
      var i = 0
      while i < cases.count {
        if cases[i] == state { return i }
        i &+= 1
      }
      return nil
    }
    return storage.index(of: state)
  }

  /// Where the step finds a state's rows: the byte offset of its row of the dense dispatch
  /// array (the state's index itself without dense dispatch), or `nil` for an unknown state.
  /// Keeping the position instead of the index takes the arithmetic off the step's critical
  /// path.
  @inlinable
  func position(of state: State.Discriminant) -> Int? {
    stateIndex(of: state).map { Storage.position(ofIndex: $0, span: storage.span, shift: storage.shift) }
  }

  /// The step on positions; see ``Storage/apply(_:position:state:context:row:)``.
  @inlinable @inline(__always)
  func apply(
    _ event: Event, position: inout Int, state: inout State, context: inout Context, row: inout Int
  ) -> StepOutcome<State, Effect> {
    storage.apply(event, position: &position, state: &state, context: &context, row: &row)
  }
}

extension TransitionTable.Storage {
  /// The step on positions; the hot path of every machine.
  ///
  /// With dense dispatch, one load finds how to handle (state, event) at the position plus the
  /// event's ordinal, and an inline row holds its target's position. The common row (no guard,
  /// no update, a fixed target and at most one fixed effect) is applied right here, with no
  /// call, so the loop around it keeps its values in registers. Everything else goes through
  /// ``applyCandidates(_:_:position:state:context:row:)`` or the scan.
  ///
  /// The next position does not wait for that load when the event has a usual target (row 0
  /// of the dense array: every inline row of its column goes to one state). The slot's target
  /// is compared with it, and when they agree the position is the usual one: the processor
  /// predicts the comparison and goes on to the next event while the load completes, instead
  /// of waiting for it on every step (a chain of loads, one per event, was the step's limit).
  /// Columns without a usual target never match, so that branch is as predictable as the
  /// inline test that follows it.
  @inlinable @inline(__always)
  func apply(
    _ event: Event, position: inout Int, state: inout State, context: inout Context, row: inout Int
  ) -> StepOutcome<State, Effect> {
    let ordinal: Int
    // A one-byte enum's tag is its ordinal (validated when the table was built): one compare
    // finds its column. `tagSpan` is 0 when tags are not ordinals, so nothing passes it then.
    let tag = MemoryLayout<Event.Discriminant>.size == 1 ? Int(unsafeBitCast(event.discriminant, to: UInt8.self)) : Int.max
    if tag < tagSpan {
      ordinal = tag
    } else if span == 0 {
      return offPath(from: -1, event, position: &position, state: &state, context: &context, row: &row)
    } else if tagSpan == 0, let o = Event.ordinal(of: event.discriminant), o >= 0, o < span {
      ordinal = o
    } else {
      return unhandled(guardFailed: false)
    }
    // The event's column computed off the chain, plus the position (a byte offset).
    let column = UnsafeRawPointer(dense + ordinal)
    let usual = column.load(as: Int32.self)
    let word = column.load(fromByteOffset: position, as: UInt64.self)
    let target = Int32(truncatingIfNeeded: word)
    if _fastPath(target == usual) {
      position = Int(usual)
    } else if target >= 0 {
      position = Int(target)
    } else {
      if target == Slot.empty { return unhandled(guardFailed: false) }
      return offPath(from: Int(~target), event, position: &position, state: &state, context: &context, row: &row)
    }
    let c = Int(truncatingIfNeeded: word &>> 32)
    row = Int(rowOf[c])
    let from = state
    state = targetStates[c]
    return .transitioned(from: from, to: state, effects: Effects(single: singleEffect[c]))
  }

  /// The position, state and row (-1 for none) of a step off the inline path. The inline path
  /// moves its position and state into this local and back, so their addresses are never
  /// taken: a loop around ``Machine/send(_:)`` keeps the machine's position in a register
  /// instead of storing and reloading it on the critical chain. The outcome comes back as the
  /// result, so the inline path's outcome needs no memory either.
  @usableFromInline
  struct OffPath {
    @usableFromInline var position: Int
    @usableFromInline var state: State
    @usableFromInline var row = -1

    @inlinable
    init(position: Int, state: consuming State) { (self.position, self.state) = (position, state) }
  }

  /// Leaves the inline path: moves position and state into an ``OffPath`` and back around
  /// ``offPath(_:_:_:context:)``.
  @inlinable @inline(__always)
  func offPath(
    from first: Int, _ event: Event, position: inout Int, state: inout State, context: inout Context, row: inout Int
  ) -> StepOutcome<State, Effect> {
    var moved = OffPath(position: position, state: consume state)
    let outcome = offPath(first, event, &moved, context: &context)
    (position, state) = (moved.position, moved.state)
    if moved.row >= 0 { row = moved.row }
    return outcome
  }

  /// The step off the inline path: the candidates from compiled row `first`, or, for `first`
  /// -1 (no dense dispatch), the scan of the state's rows.
  @inlinable @inline(never)
  func offPath(_ first: Int, _ event: Event, _ moved: inout OffPath, context: inout Context) -> StepOutcome<State, Effect> {
    if first >= 0 {
      return applyCandidates(
        hot[first], event, position: &moved.position, state: &moved.state, context: &context, row: &moved.row)
    }
    return applyScan(event, position: &moved.position, state: &moved.state, context: &context, row: &moved.row)
  }

  /// The candidates of a (state, event) pair from `first` on, following `next`: the first whose
  /// guard holds fires.
  @inlinable @inline(__always)
  func applyCandidates(
    _ first: Hot, _ event: Event, position: inout Int, state: inout State, context: inout Context, row: inout Int
  ) -> StepOutcome<State, Effect> {
    var candidate = first
    while candidate.flags & Self.hasGuard != 0, !holds(Int(candidate.compiled), context, event) {
      if candidate.next < 0 { return unhandled(guardFailed: true) }
      candidate = hot[Int(candidate.next)]
    }
    row = Int(rowOf[Int(candidate.compiled)])
    return fire(candidate, event, position: &position, state: &state, context: &context)
  }

  /// Dispatch without ordinals: scan the current state's rows (its own, then wildcards) for
  /// the event's case.
  @inlinable @inline(__always)
  func applyScan(
    _ event: Event, position: inout Int, state: inout State, context: inout Context, row: inout Int
  ) -> StepOutcome<State, Effect> {
    let key = event.discriminant
    var guardFailed = false
    var i = start[position]  // without dense dispatch a position is the state's index
    let end = start[position &+ 1]
    while i < end {
      if self.event[i] == key {
        let candidate = hot[i]
        if candidate.flags & Self.hasGuard != 0, !holds(i, context, event) {
          guardFailed = true
        } else {
          row = Int(rowOf[Int(candidate.compiled)])
          return fire(candidate, event, position: &position, state: &state, context: &context)
        }
      }
      i &+= 1
    }
    return unhandled(guardFailed: guardFailed)
  }

  /// Runs the update of compiled row `i` (which has one) on `context`.
  @inlinable @inline(__always)
  func apply(update i: Int, _ context: inout Context, _ event: Event) {
    update[i].unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.update(&context, event) }
  }

  /// Whether the guard of compiled row `i` (which has one) holds.
  @inlinable @inline(__always)
  func holds(_ i: Int, _ context: Context, _ event: Event) -> Bool {
    condition[i].unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.holds(context, event) }
  }

  @inlinable @inline(__always)
  func unhandled(guardFailed: Bool) -> StepOutcome<State, Effect> {
    switch policy {
    case .ignore: .ignored
    case .reject: .rejected(guardFailed ? .guardsFailed : .undeclared)
    }
  }

  @inlinable @inline(__always)
  func fire(
    _ hot: Hot, _ event: Event, position: inout Int, state: inout State, context: inout Context
  ) -> StepOutcome<State, Effect> {
    let i = Int(hot.compiled)
    let target = Int(hot.target)
    if target >= 0 {
      if hot.flags & Self.hasUpdate != 0 { apply(update: i, &context, event) }
      let from = state
      state = targetStates[i]
      position = target
      return .transitioned(from: from, to: state, effects: effects(hot, context, event))
    }
    if target == Self.stay {
      if hot.flags & Self.hasUpdate != 0 { apply(update: i, &context, event) }
      return .stayed(effects: effects(hot, context, event))
    }
    if target == Self.ignore { return .ignored }
    return fireMade(hot, event, position: &position, state: &state, context: &context)
  }

  /// A row whose target state is made from the context and event: off the hot path.
  @usableFromInline @inline(never)
  func fireMade(
    _ hot: Hot, _ event: Event, position: inout Int, state: inout State, context: inout Context
  ) -> StepOutcome<State, Effect> {
    let i = Int(hot.compiled)
    guard let (target, expected, make) = maker[i] else { return .rejected(.unknownTarget) }
    var updated = context
    if hot.flags & Self.hasUpdate != 0 { apply(update: i, &updated, event) }
    let made = make(updated, event)
    guard made.discriminant == expected else { return .rejected(.unknownTarget) }
    context = updated
    let from = state
    state = made
    position = target
    return .transitioned(from: from, to: made, effects: effects(hot, context, event))
  }

  @inlinable @inline(__always)
  func effects(_ hot: Hot, _ context: Context, _ event: Event) -> Effects<Effect> {
    if hot.flags & Self.hasMadeEffects == 0 { return fixedEffects[Int(hot.compiled)] }
    return makeEffects(hot, context, event)
  }

  /// Effects of a row that makes some of them at step time: off the hot path, but specialised
  /// (unspecialised, it looked up the generic types of the effects on every step).
  @inlinable @inline(never)
  func makeEffects(_ hot: Hot, _ context: Context, _ event: Event) -> Effects<Effect> {
    // A row whose one effect is made (most rows that make one): its closure alone. (Calling it
    // through its item copied and destroyed the item through its value witness, about a fifth
    // of a step that messages a child.)
    if let make = singleMaker[Int(hot.compiled)] {
      return Effects(single: make._withUnsafeGuaranteedRef { $0.make(context, event) })
    }
    let items = items[Int(hot.compiled)] ?? []
    // A row's one effect (most rows that make one) is kept as it is, with no array made for it.
    if items.count == 1 { return Effects(single: items[0].effect(context, event)) }
    var effects: [Effect] = []
    effects.reserveCapacity(items.count)
    for item in items {
      if let effect = item.effect(context, event) { effects.append(effect) }
    }
    return Effects(effects)
  }

  @usableFromInline
  func index(of state: State.Discriminant) -> Int? { layout.index[state] }
}
