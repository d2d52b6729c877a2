import StateMachine

/// The invariants and built-in checks a property check or an exploration applies. `State` is
/// what the invariants read of where the machine is: a table's state, a chart's active atomic
/// states.
public struct Properties<State, Context>: Sendable {
  @usableFromInline var invariants: [Invariant<State, Context>] = []
  /// The step checks that are on, one bit each (tested on every step: no hashing).
  @usableFromInline var checks: UInt8 = 0

  @inlinable init() {}

  @inlinable static func bit(_ check: StepCheck) -> UInt8 {
    switch check {
    case .noRejection: 1
    case .noDeadEnd: 2
    case .messagesDelivered: 4
    }
  }

  /// Whether `check` is on.
  @inlinable func has(_ check: StepCheck) -> Bool { checks & Self.bit(check) != 0 }

  /// Turns `check` on.
  @inlinable mutating func insert(_ check: StepCheck) { checks |= Self.bit(check) }

  /// The first invariant that `state` and `context` break, with its message.
  @inlinable
  func broken(_ state: State, _ context: Context) -> (property: String, message: String)? {
    for invariant in invariants where !invariant.holds(state, context) {
      return (invariant.name, "does not hold in \(state) with context \(context)")
    }
    return nil
  }

  /// The first invariant not among `skipping` that `state` and `context` break, with its message.
  @inlinable
  func broken(_ state: State, _ context: Context, skipping: Set<String>) -> (property: String, message: String)? {
    for invariant in invariants where !invariant.holds(state, context) {
      // Hash a name only for an invariant that fails: `skipping` is checked after `holds`.
      if skipping.contains(invariant.name) { continue }
      return (invariant.name, "does not hold in \(state) with context \(context)")
    }
    return nil
  }
}

/// Something that checks ``Properties``: ``PropertyCheck`` and ``Explorer`` share these builders.
public protocol PropertyChecking {
  /// What the properties see of where the machine is (a table's state, a chart's active
  /// atomic states).
  associatedtype CheckedState
  /// The contexts the properties see.
  associatedtype CheckedContext
  /// The invariants and checks to apply.
  var properties: Properties<CheckedState, CheckedContext> { get set }
}

extension PropertyChecking {
  /// Adds an invariant on state and context.
  public func invariant(
    _ name: String, _ holds: @escaping @Sendable (CheckedState, CheckedContext) -> Bool
  ) -> Self {
    adding(Invariant(name, holds))
  }

  /// Adds an invariant (see ``Invariant/inState(_:_:_:)`` for one state only).
  public func adding(_ invariant: Invariant<CheckedState, CheckedContext>) -> Self {
    var copy = self
    copy.properties.invariants.append(invariant)
    return copy
  }

  /// Adds a built-in step check.
  public func checking(_ check: StepCheck) -> Self {
    var copy = self
    copy.properties.insert(check)
    return copy
  }
}
