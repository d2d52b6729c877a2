extension Chart: ExplorableDefinition where Context: Hashable {
  public typealias _Explorer = _ChartExplorer<ID, Event, Context, Effect>

  public var _coverageStates: [(name: ID, counts: Bool)] { states.map { ($0.id, !$0.isHistory) } }
  public var _coverageTransitions: [Int] { declaredTransitions }
  public func _describeTransition(_ t: Int) -> String { describeTransition(t) }
  public static var _transitionsNoun: String { "transitions" }
  public func _isIn(_ state: ID, _ configuration: [ID]) -> Bool { isActive(state, inConfiguration: configuration) }
}

/// Where a chart's machine is, apart from its context (not API): its active states and history
/// values (as ``CompiledSteps/Key``), whether it halted, and what the history states remember.
public struct _ChartPlace: Hashable {
  @usableFromInline let key: CompiledSteps.Key
  @usableFromInline let halted: Bool
  /// What the history states remember (the same as `key.history` says, kept to restore it).
  @usableFromInline let history: [Int: [Int]]
  /// The compiled node of `key` in the machine it was read from, or -1.
  @usableFromInline let node: Int32

  @inlinable
  init(key: CompiledSteps.Key, halted: Bool, history: [Int: [Int]], node: Int32) {
    (self.key, self.halted, self.history, self.node) = (key, halted, history, node)
  }

  /// Equal places: the same active states, history values and halting (the history's states
  /// and the compiled node follow from those).
  @inlinable
  public static func == (a: Self, b: Self) -> Bool { a.halted == b.halted && a.key == b.key }

  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(halted)
    hasher.combine(key)
  }
}

/// What an explorer steps for a chart (not API): one ``ChartMachine`` that gathers coverage and
/// discards outputs, put back at each place the search reached.
public struct _ChartExplorer<ID: Hashable & Sendable, Event: Sendable, Context: Hashable, Effect: Sendable>: _MachineExplorer {
  public typealias Definition = Chart<ID, Event, Context, Effect>

  @usableFromInline var machine: ChartMachine<ID, Event, Context, Effect>
  /// Whether the context is a reference to what changes (an SCXML session, ``KeptByCopy``):
  /// each position then files a copy of it, and the machine steps a copy of the one it is put
  /// back with, so that no step changes what was filed.
  @usableFromInline let copiesContexts: Bool

  public init(_ chart: Definition, context: Context) {
    copiesContexts = chart.tables.copiesContexts
    machine = ChartMachine(chart, context: copiesContexts ? keptContext(context) : context)
    machine._gatherCoverage()
    machine.discardsOutputs = true
  }

  @inlinable
  public mutating func start() throws(ChartRunError) { _ = try machine.start() }

  @inlinable
  public var place: _ChartPlace { _ChartPlace(key: key, halted: machine.halted, history: machine.history, node: machine.node) }

  @inlinable public var context: Context { copiesContexts ? keptContext(machine.storedContext) : machine.storedContext }
  @inlinable public var contextMayHaveChanged: Bool { machine.contextWritten }
  @inlinable public var configuration: [ID] { machine.configuration }
  @inlinable public var isHalted: Bool { machine.halted }

  @inlinable
  public func ordinal(of event: Event) -> Int { machine.ordinal(of: event) }

  @inlinable
  public func isUnhandled(ordinal: Int, at place: _ChartPlace) -> Bool {
    guard place.node >= 0, ordinal >= 0, !place.halted else { return false }
    return machine.quickEnd(Int(place.node) << 6 | ordinal) == CompiledSteps.unhandled
  }

  /// Puts the machine back: the place's compiled node is taken without looking, as the place
  /// was read from this very machine (checked in debug builds).
  @inlinable
  public mutating func `return`(to place: _ChartPlace, context: Context) {
    assert(
      place.node < 0
        || (Int(place.node) < machine.compiledStorage.steps.keys.count && machine.compiledStorage.steps.keys[Int(place.node)] == place.key),
      "a place returned to a machine that did not read it")
    machine.place(
      active: place.key.active, history: place.history, context: copiesContexts ? keptContext(context) : context, halted: place.halted,
      node: place.node)
  }

  @inlinable
  public mutating func advance(_ event: Event, ordinal: Int) throws(ChartRunError) -> MachineResponse {
    try machine._advance(event, ordinal: ordinal) ? .handled : .ignored
  }

  /// The active states and history values, as the compiled steps key them.
  @inlinable
  var key: CompiledSteps.Key { machine.node >= 0 ? machine.compiledStorage.steps.keys[Int(machine.node)] : machine.compiledKey() }

  /// The configuration's words mixed with the context's hash, without a `Hasher` (and without
  /// copying the compiled key: read in place).
  @inlinable
  public func placeHash(contextHash: Int) -> Int {
    let seed = UInt64(truncatingIfNeeded: contextHash) ^ (machine.halted ? 0x5851_F42D_4C95_7F2D : 0)
    let node = Int(machine.node)
    guard node >= 0 else { return Self.hash(machine.compiledKey(), seed) }
    // (The closure captures the node, not the machine: capturing it copied the machine whole.)
    return machine.compiledStorage.steps.keys.withUnsafeBufferPointer { Self.hash($0[node], seed) }
  }

  @inlinable
  static func hash(_ key: borrowing CompiledSteps.Key, _ seed: UInt64) -> Int {
    var h = seed
    _mix(&h, key.active.small)
    if let large = key.active.large { for word in large { _mix(&h, word) } }
    _mix(&h, key.history.small)
    if let large = key.history.large { for word in large { _mix(&h, word) } }
    return Int(truncatingIfNeeded: h)
  }

  /// Whether the machine is at `place`: by compiled node when both have one (a node names one
  /// key in the machine that read the place), else by key.
  @inlinable
  public func isAt(_ place: _ChartPlace) -> Bool {
    guard machine.halted == place.halted else { return false }
    if machine.node >= 0, place.node >= 0 { return machine.node == place.node }
    return key == place.key
  }

  @inlinable public var coverageGrew: Bool { machine._coverageGrew }
  @inlinable public mutating func keepCoverage() -> [Int] { machine._keepCoverage() }
  @inlinable public mutating func dropCoverage() { machine._dropCoverage() }
  public var coveredTransitions: [Int] { machine._coveredTransitions }
}
