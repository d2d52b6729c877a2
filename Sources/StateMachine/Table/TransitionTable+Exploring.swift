extension TransitionTable: ExplorableDefinition where State: Hashable, Context: Hashable, Effect: Sendable {
  public typealias _Explorer = _TableExplorer<State, Event, Context, Effect>

  public var _coverageStates: [(name: State.Discriminant, counts: Bool)] { stateCases.map { ($0, true) } }
  public var _coverageTransitions: [Int] { Array(rows.indices) }
  public func _describeTransition(_ t: Int) -> String { "row \(t + 1): \(describeRow(t))" }
  public static var _transitionsNoun: String { "rows" }
  public func _isIn(_ state: State.Discriminant, _ configuration: State) -> Bool { configuration.discriminant == state }
}

/// What an explorer steps for a table (not API): its state and context, and the rows taken and
/// state cases reached, as bits.
public struct _TableExplorer<State: Discriminated & Hashable, Event: Discriminated, Context: Hashable, Effect: Sendable>: _MachineExplorer {
  public typealias Definition = TransitionTable<State, Event, Context, Effect>

  @usableFromInline let table: Definition
  @usableFromInline var state: State
  @usableFromInline var storedContext: Context
  /// The rows taken and the state cases reached (numbered as ``TransitionTable/stateCases``).
  @usableFromInline var coverage: CoverageBits

  public init(_ table: Definition, context: Context) {
    self.table = table
    state = table.initial
    storedContext = context
    coverage = CoverageBits(states: table.stateCases.count, transitions: table.rows.count)
    reached(state)
  }

  /// A table's machine starts in its initial state: nothing to do.
  @inlinable
  public mutating func start() {}

  @inlinable public var place: State { state }
  @inlinable public var context: Context { storedContext }
  @inlinable public var configuration: State { state }
  /// A table never halts (a final state is a state like the others).
  @inlinable public var isHalted: Bool { false }

  @inlinable
  public func ordinal(of event: Event) -> Int { -1 }

  @inlinable
  public func isUnhandled(ordinal: Int, at place: State) -> Bool { false }

  @inlinable
  public mutating func `return`(to place: State, context: Context) {
    (state, storedContext) = (place, context)
  }

  @inlinable
  public mutating func advance(_ event: Event, ordinal: Int) -> MachineResponse {
    let step = table.step(state, storedContext, event)
    if case .rejected(let reason) = step.outcome { return .rejected(reason.description) }
    // A row that says to ignore the event is taken too.
    if let row = step.row { coverage.took(row) }
    switch step.outcome {
    case .rejected, .ignored: return .ignored
    case .transitioned, .stayed:
      (state, storedContext) = (step.state, step.context)
      reached(state)
      return .handled
    }
  }

  /// Notes that `state`'s case was reached.
  @inlinable
  mutating func reached(_ state: State) {
    if let s = table.stateIndex(of: state.discriminant) { coverage.enter(s) }
  }

  @inlinable
  public func placeHash(contextHash: Int) -> Int {
    var h = UInt64(truncatingIfNeeded: contextHash)
    _mix(&h, UInt64(truncatingIfNeeded: state.hashValue))
    return Int(truncatingIfNeeded: h)
  }

  @inlinable
  public func isAt(_ place: State) -> Bool { state == place }

  @inlinable public var coverageGrew: Bool { coverage.grew }
  @inlinable public mutating func keepCoverage() -> [Int] { coverage.keep() }
  @inlinable public mutating func dropCoverage() { coverage.drop() }
  public var coveredTransitions: [Int] { coverage.taken }
}
