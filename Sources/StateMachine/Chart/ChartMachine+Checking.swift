/// What the checking tools (exploration and walks, in `StateMachineChecking`) read of a machine,
/// cheaper than a ``ChartSnapshot``: where it is as one hashable value, and coverage gathered as
/// bits while it steps. Public only so that checkers inline them where they are called;
/// underscored, not API.

/// Where a started machine is between macrosteps: its active states and history values (as
/// ``CompiledSteps/Key``), its context, and whether it halted. Two machines at equal positions
/// take the same steps. Read with ``ChartMachine/_position`` and put back with
/// ``ChartMachine/_move(to:)``.
public struct _ChartPosition<Context: Hashable>: Hashable {
  @usableFromInline let key: CompiledSteps.Key
  /// What the history states remember (the same as `key.history` says, kept to restore it).
  @usableFromInline let history: [Int: [Int]]
  /// The compiled node of `key` in the machine it was read from, or -1.
  @usableFromInline let node: Int32
  @usableFromInline let halted: Bool
  /// The context.
  public let context: Context

  @inlinable
  init(key: CompiledSteps.Key, history: [Int: [Int]], node: Int32, halted: Bool, context: Context) {
    (self.key, self.history, self.node, self.halted, self.context) = (key, history, node, halted, context)
  }

  /// Whether the machine had halted there.
  @inlinable public var isHalted: Bool { halted }

  @inlinable
  public static func == (a: Self, b: Self) -> Bool { a.key == b.key && a.halted == b.halted && a.context == b.context }

  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(key.active.small)
    if let large = key.active.large { hasher.combine(large) }
    hasher.combine(key.history.small)
    if let large = key.history.large { hasher.combine(large) }
    hasher.combine(halted)
    hasher.combine(context)
  }
}

/// A position's configuration, history values and halting, without its context: what an
/// explorer compares a machine with before it reads a whole position from it.
public struct _ChartConfiguration: Hashable {
  @usableFromInline let key: CompiledSteps.Key
  @usableFromInline let halted: Bool

  @inlinable
  init(key: CompiledSteps.Key, halted: Bool) { (self.key, self.halted) = (key, halted) }

  /// A hash of the configuration with a context's: made from `contextHash` (the context's
  /// `hashValue`, which a checker may keep from an equal context it met before) and the
  /// configuration's words, mixed without a `Hasher`: what an explorer files positions by.
  @inlinable
  public func _hash(contextHash: Int) -> Int {
    var h = UInt64(truncatingIfNeeded: contextHash) ^ (halted ? 0x5851_F42D_4C95_7F2D : 0)
    @inline(__always) func mix(_ word: UInt64) {
      h = (h ^ word) &* 0x9E37_79B9_7F4A_7C15
      h ^= h >> 29
    }
    mix(key.active.small)
    if let large = key.active.large { for word in large { mix(word) } }
    mix(key.history.small)
    if let large = key.history.large { for word in large { mix(word) } }
    return Int(truncatingIfNeeded: h)
  }
}

extension _ChartPosition {
  /// The position's configuration, history values and halting.
  @inlinable
  public var _configuration: _ChartConfiguration { _ChartConfiguration(key: key, halted: halted) }

  /// ``_ChartConfiguration/_hash(contextHash:)`` of the position's configuration.
  @inlinable
  public func _hash(contextHash: Int) -> Int { _configuration._hash(contextHash: contextHash) }

  /// Whether two positions are the same configuration, history and halting (contexts aside).
  @inlinable
  public func _sameConfiguration(as other: Self) -> Bool { key == other.key && halted == other.halted }
}

extension ChartMachine where Context: Hashable {
  /// Where the machine is (see ``_ChartPosition``).
  @inlinable
  public var _position: _ChartPosition<Context> {
    let key = node >= 0 ? compiledStorage.steps.keys[Int(node)] : compiledKey()
    return _ChartPosition(key: key, history: history, node: node, halted: halted, context: storedContext)
  }

  /// The configuration, history values and halting of ``_position``, read without the rest.
  @inlinable
  public var _configuration: _ChartConfiguration {
    _ChartConfiguration(key: node >= 0 ? compiledStorage.steps.keys[Int(node)] : compiledKey(), halted: halted)
  }

  /// Puts the machine back where it was when `position` was read from it (or from a machine
  /// of the same chart): nothing is checked, unlike ``ChartMachine/init(_:restoring:)``, but the
  /// position's compiled node is kept only when it names the same configuration here (machines
  /// that compiled apart may number their configurations differently).
  @inlinable
  public mutating func _move(to position: _ChartPosition<Context>) {
    let n = Int(position.node)
    let same = n >= 0 && n < compiledStorage.steps.keys.count && compiledStorage.steps.keys[n] == position.key
    restore(position, node: same ? position.node : -1)
  }

  /// Whether the event with `ordinal` is known, without stepping, to change nothing at
  /// `position` (read from this very machine): no transition can match it there. `false` when
  /// that is not known yet. A checker skips putting the machine back for such an event.
  @inlinable
  public func _isUnhandled(ordinal: Int, at position: _ChartPosition<Context>) -> Bool {
    guard position.node >= 0, ordinal >= 0, !reporting, !position.halted else { return false }
    return quickEnd(Int(position.node) << 6 | ordinal) == CompiledSteps.unhandled
  }

  /// ``_move(to:)`` for a position this very machine read (not a copy that has compiled apart
  /// since): its compiled node is taken without looking (checked in debug builds). For an
  /// explorer that steps one machine from every position it reached.
  @inlinable
  public mutating func _return(to position: _ChartPosition<Context>) {
    assert(
      position.node < 0
        || (Int(position.node) < compiledStorage.steps.keys.count && compiledStorage.steps.keys[Int(position.node)] == position.key),
      "a position returned to a machine that did not read it")
    restore(position, node: position.node)
  }

  /// The machine at `position`, in compiled node `node` (-1: found on the next step).
  @inlinable
  mutating func restore(_ position: _ChartPosition<Context>, node: Int32) {
    place(active: position.key.active, history: position.history, context: position.context, halted: position.halted, node: node)
  }
}

extension ChartMachine {
  /// The machine started, at these active states, history (`nil`: none), context and halting,
  /// in compiled node `node` (-1: found on the next step): what a checker's position and a
  /// store's engine put back. A machine without history is not written one.
  @inlinable
  mutating func place(active: StateBits, history: [Int: [Int]]?, context: Context, halted: Bool, node: Int32) {
    if let history { self.history = history } else if !self.history.isEmpty { self.history = [:] }
    (self.active, storedContext) = (active, context)
    (self.halted, started, self.node) = (halted, true, node)
  }
}

extension ChartMachine {
  /// Whether the machine skips content that only makes outputs (effects, sends and cancels;
  /// updates, raised events and errors still run): its steps then return no outputs, and its
  /// configuration and context are what they would be. For checkers, which read nothing else.
  @inlinable
  public var _discardsOutputs: Bool {
    get { discardsOutputs }
    set { discardsOutputs = newValue }
  }

  /// The number `send` finds `event`'s compiled steps by (its ordinal below 64, or -1): a
  /// checker that sends the same events again and again works it out once.
  @inlinable
  public func _ordinal(of event: Event) -> Int { ordinal(of: event) }

  /// `send(_:)` for an event whose ``_ordinal(of:)`` the caller worked out.
  @inlinable
  public mutating func _send(_ event: Event, ordinal: Int) throws(ChartRunError) -> ChartStep<Event, Effect> {
    try send(event, ordinal: ordinal)
  }

  /// ``_send(_:ordinal:)`` without the step: whether the macrostep took transitions (`false`:
  /// unhandled, or halted). For a checker that reads the machine after the step and nothing of
  /// the step itself.
  @inlinable
  public mutating func _advance(_ event: Event, ordinal: Int) throws(ChartRunError) -> Bool {
    if node >= 0, ordinal >= 0, !reporting, let moved = quickMove(ordinal: ordinal) { return moved }
    return try advance(event, ordinal: ordinal)
  }

  /// Starts gathering coverage: from now on (``start()`` included), every transition taken and
  /// state entered, over all macrosteps, in ``_coveredTransitions`` and ``_keepCoverage()``.
  /// Copies of the machine share what they gather.
  public mutating func _gatherCoverage() {
    reporting = false
    coverage = Trace(states: chart.count, transitions: chart.sources.count)
  }

  /// The transitions taken since ``_gatherCoverage()``, as ``Chart/declaredTransitions``
  /// numbers them, in increasing order.
  public var _coveredTransitions: [Int] {
    guard let coverage else { return [] }
    var taken: [Int] = []
    for (w, word) in coverage.takenBits.enumerated() where word != 0 {
      for b in 0..<64 where word & (1 << UInt64(b)) != 0 { taken.append(w << 6 | b) }
    }
    return taken
  }

  /// Whether the last steps covered anything for the first time (since the coverage was
  /// last kept or dropped).
  @inlinable
  public var _coverageGrew: Bool { coverage?.grew ?? false }

  /// Keeps what the steps since the last keep or drop covered (call it after each step that
  /// settled), and returns the states (positions in ``Chart/states``) they entered for the
  /// first time, in the order they were entered.
  @inlinable
  public mutating func _keepCoverage() -> [Int] { coverage?.keep() ?? [] }

  /// Takes back what the steps since the last keep or drop covered: a macrostep that did not
  /// settle (``ChartRunError``) covers nothing.
  @inlinable
  public mutating func _dropCoverage() { coverage?.drop() }
}

extension ChartMachine {
  /// A quick step in `slot` (see ``quickStep(ordinal:)``) took the one transition its selection
  /// holds and entered what its move enters.
  @usableFromInline
  func cover(quickSlot slot: Int, in trace: Trace) {
    let t = compiledStorage.steps.sole[Int(compiledStorage.steps.byOrdinal[slot])]
    if t >= 0 { trace.took([Int(t)]) }
    let move = compiledStorage.steps.moves[Int(compiledStorage.steps.quickMoves[slot])]
    for op in compiledStorage.steps.program[Int(move.programStart)..<Int(move.programEnd)] where op.kind == .entered {
      trace.enter(Int(op.a) - 1)
    }
  }
}
