extension TransitionTable: ExplorableDefinition where State: Hashable, Context: Hashable, Effect: Sendable {
  /// Coverage and shortest paths name a table's states by case.
  public typealias StateName = State.Discriminant
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
  @usableFromInline var rowsTaken: [UInt64]
  @usableFromInline var statesReached: [UInt64]
  /// States reached for the first time since coverage was last kept or dropped.
  @usableFromInline var fresh: [Int] = []
  /// Whether a row was taken for the first time since then.
  @usableFromInline var freshRows: [Int] = []

  public init(_ table: Definition, context: Context) {
    self.table = table
    state = table.initial
    storedContext = context
    rowsTaken = [UInt64](repeating: 0, count: (table.rows.count + 63) / 64)
    statesReached = [UInt64](repeating: 0, count: (table.stateCases.count + 63) / 64)
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
    if let row = step.row, rowsTaken[row >> 6] & (1 << UInt64(row & 63)) == 0 {
      rowsTaken[row >> 6] |= 1 << UInt64(row & 63)
      freshRows.append(row)
    }
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
    guard let s = table.stateIndex(of: state.discriminant), statesReached[s >> 6] & (1 << UInt64(s & 63)) == 0 else { return }
    statesReached[s >> 6] |= 1 << UInt64(s & 63)
    fresh.append(s)
  }

  @inlinable
  public func placeHash(contextHash: Int) -> Int {
    var h = UInt64(truncatingIfNeeded: contextHash)
    _mix(&h, UInt64(truncatingIfNeeded: state.hashValue))
    return Int(truncatingIfNeeded: h)
  }

  @inlinable
  public func isAt(_ place: State) -> Bool { state == place }

  @inlinable public var coverageGrew: Bool { !fresh.isEmpty || !freshRows.isEmpty }

  @inlinable
  public mutating func keepCoverage() -> [Int] {
    let entered = fresh
    fresh.removeAll(keepingCapacity: true)
    freshRows.removeAll(keepingCapacity: true)
    return entered
  }

  @inlinable
  public mutating func dropCoverage() {
    for s in fresh { statesReached[s >> 6] &= ~(1 << UInt64(s & 63)) }
    for r in freshRows { rowsTaken[r >> 6] &= ~(1 << UInt64(r & 63)) }
    fresh.removeAll(keepingCapacity: true)
    freshRows.removeAll(keepingCapacity: true)
  }

  public var coveredTransitions: [Int] {
    table.rows.indices.filter { rowsTaken[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }
  }
}
