public import StateMachine

/// The invariants and built-in checks a property check or an exploration applies.
public struct Properties<State: Discriminated, Context>: Sendable {
  @usableFromInline var invariants: [Invariant<State, Context>] = []
  @usableFromInline var checks: Set<StepCheck> = []

  @inlinable init() {}

  /// Whether `check` is on.
  @inlinable func has(_ check: StepCheck) -> Bool { checks.contains(check) }

  /// The first invariant (not among `skipping`) that `state` and `context` break, with its message.
  @inlinable
  func broken(_ state: State, _ context: Context, skipping: Set<String> = []) -> (property: String, message: String)? {
    for invariant in invariants where !skipping.contains(invariant.name) && !invariant.holds(state, context) {
      return (invariant.name, "does not hold in \(state) with context \(context)")
    }
    return nil
  }
}

/// Something that checks ``Properties``: ``PropertyCheck`` and ``Explorer`` share these builders.
public protocol PropertyChecking {
  associatedtype CheckedState: Discriminated
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
    copy.properties.checks.insert(check)
    return copy
  }
}
