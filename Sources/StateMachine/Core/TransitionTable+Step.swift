/// The result of the pure step ``TransitionTable/step(_:_:_:)``.
public struct Step<State, Context, Effect> {
  /// The state after the step.
  public var state: State
  /// The context after the step.
  public var context: Context
  /// What the step did.
  public var outcome: StepOutcome<State, Effect>
  /// The index in ``TransitionTable/rows`` of the row that handled the event, if one did.
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
    guard var index = stateIndex(of: state.discriminant) else {
      return Step(state: state, context: context, outcome: .rejected(.unknownState), row: nil)
    }
    var row = -1
    let outcome = apply(event, index: &index, state: &state, context: &context, row: &row)
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

  /// The step on dense indices; see ``Storage/apply(_:index:state:context:row:)``.
  @inlinable @inline(__always)
  func apply(
    _ event: Event, index: inout Int, state: inout State, context: inout Context, row: inout Int
  ) -> StepOutcome<State, Effect> {
    storage.apply(event, index: &index, state: &state, context: &context, row: &row)
  }
}

extension TransitionTable.Storage {
  /// The step on dense indices; the hot path of every machine.
  ///
  /// With dense dispatch, one load finds the first candidate row for (state, event); the
  /// common row (no guard, no update, fixed target and effects) is applied right here, with no
  /// call, so the loop around it keeps its values in registers. Everything else goes through
  /// ``applyCandidates(_:_:guardFailed:index:state:context:row:)`` or the scan.
  @inlinable @inline(__always)
  func apply(
    _ event: Event, index: inout Int, state: inout State, context: inout Context, row: inout Int
  ) -> StepOutcome<State, Effect> {
    if span > 0 {
      if let ordinal = ordinal(of: event.discriminant), ordinal >= 0, ordinal < span {
        let candidate = dense[index &<< shift | ordinal]
        if candidate.flags == 0, candidate.target >= 0 {
          let c = Int(candidate.compiled)
          row = Int(rowOf[c])
          let from = state
          state = targetStates[c]
          index = Int(candidate.target)
          return .transitioned(from: from, to: state, effects: fixedEffects[c])
        }
        return applyCandidates(candidate, event, guardFailed: false, index: &index, state: &state, context: &context, row: &row)
      }
      return unhandled(guardFailed: false)
    }
    return applyScan(event, index: &index, state: &state, context: &context, row: &row)
  }

  /// The candidates of a (state, event) pair from `first` on, following `next`: the first whose
  /// guard holds fires.
  @inlinable @inline(never)
  func applyCandidates(
    _ first: Hot, _ event: Event, guardFailed: Bool, index: inout Int, state: inout State, context: inout Context,
    row: inout Int
  ) -> StepOutcome<State, Effect> {
    var candidate = first
    var guardFailed = guardFailed
    while candidate.compiled >= 0 {
      if candidate.flags & Self.hasGuard != 0, !condition[Int(candidate.compiled)]!(context, event) {
        guardFailed = true
        if candidate.next < 0 { break }
        candidate = hot[Int(candidate.next)]
      } else {
        row = Int(rowOf[Int(candidate.compiled)])
        return fire(candidate, event, index: &index, state: &state, context: &context)
      }
    }
    return unhandled(guardFailed: guardFailed)
  }

  /// Dispatch without ordinals: scan the current state's rows (its own, then wildcards) for
  /// the event's case.
  @inlinable @inline(never)
  func applyScan(
    _ event: Event, index: inout Int, state: inout State, context: inout Context, row: inout Int
  ) -> StepOutcome<State, Effect> {
    let key = event.discriminant
    var guardFailed = false
    var i = start[index]
    let end = start[index &+ 1]
    while i < end {
      if self.event[i] == key {
        let candidate = hot[i]
        if candidate.flags & Self.hasGuard != 0, !condition[i]!(context, event) {
          guardFailed = true
        } else {
          row = Int(rowOf[Int(candidate.compiled)])
          return fire(candidate, event, index: &index, state: &state, context: &context)
        }
      }
      i &+= 1
    }
    return unhandled(guardFailed: guardFailed)
  }

  /// The dense-dispatch ordinal of an event case.
  @inlinable @inline(__always)
  func ordinal(of key: Event.Discriminant) -> Int? {
    if ordinalsFromTag, MemoryLayout<Event.Discriminant>.size == 1 {
      // Validated when the table was built: a one-byte CaseIterable type whose byte is its case.
      return Int(unsafeBitCast(key, to: UInt8.self))
    }
    return Event.ordinal(of: key)
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
    _ hot: Hot, _ event: Event, index: inout Int, state: inout State, context: inout Context
  ) -> StepOutcome<State, Effect> {
    let i = Int(hot.compiled)
    let target = Int(hot.target)
    if target >= 0 {
      if hot.flags & Self.hasUpdate != 0 { update[i]!(&context, event) }
      let from = state
      state = targetStates[i]
      index = target
      return .transitioned(from: from, to: state, effects: effects(hot, context, event))
    }
    if target == Self.stay {
      if hot.flags & Self.hasUpdate != 0 { update[i]!(&context, event) }
      return .stayed(effects: effects(hot, context, event))
    }
    if target == Self.ignore { return .ignored }
    return fireMade(hot, event, index: &index, state: &state, context: &context)
  }

  /// A row whose target state is made from the context and event: off the hot path.
  @usableFromInline @inline(never)
  func fireMade(
    _ hot: Hot, _ event: Event, index: inout Int, state: inout State, context: inout Context
  ) -> StepOutcome<State, Effect> {
    let i = Int(hot.compiled)
    guard let (target, expected, make) = maker[i] else { return .rejected(.unknownTarget) }
    var updated = context
    update[i]?(&updated, event)
    let made = make(updated, event)
    guard made.discriminant == expected else { return .rejected(.unknownTarget) }
    context = updated
    let from = state
    state = made
    index = target
    return .transitioned(from: from, to: made, effects: effects(hot, context, event))
  }

  @inlinable @inline(__always)
  func effects(_ hot: Hot, _ context: Context, _ event: Event) -> Effects<Effect> {
    if hot.flags & Self.hasMadeEffects == 0 { return fixedEffects[Int(hot.compiled)] }
    return makeEffects(hot, context, event)
  }

  /// Effects of a row that makes some of them at step time: off the hot path.
  @usableFromInline @inline(never)
  func makeEffects(_ hot: Hot, _ context: Context, _ event: Event) -> Effects<Effect> {
    let items = items[Int(hot.compiled)] ?? []
    var effects: [Effect] = []
    effects.reserveCapacity(items.count)
    for item in items {
      switch item.kind {
      case .value(let effect): effects.append(effect)
      case .make(_, let build): if let effect = build(context, event) { effects.append(effect) }
      }
    }
    return Effects(effects)
  }

  @usableFromInline
  func index(of state: State.Discriminant) -> Int? { layout.index[state] }
}
