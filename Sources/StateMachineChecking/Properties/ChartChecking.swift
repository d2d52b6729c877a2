public import StateMachine

/// What ``ChartExplorer`` checks: a chart, the context it starts with,
/// the events to try, and the invariants every reached configuration must hold.
public protocol ChartChecking: Sendable {
  /// The chart's state ids.
  associatedtype ID: Hashable & Sendable
  /// The chart's events.
  associatedtype Event: Sendable
  /// The chart's context.
  associatedtype Context: Sendable
  /// The chart's effects.
  associatedtype Effect: Sendable

  /// An invariant over a configuration (its active atomic states) and the context.
  typealias ChartInvariant = @Sendable (_ configuration: [ID], _ context: Context) -> Bool

  /// The invariants every reached configuration must hold, by name.
  var invariants: [(name: String, holds: ChartInvariant)] { get set }
}

extension ChartChecking {
  /// Adds an invariant every configuration reached (active atomic states and context) must
  /// hold; a violation is reported with the events that lead to it.
  public func invariant(_ name: String, _ holds: @escaping ChartInvariant) -> Self {
    var copy = self
    copy.invariants.append((name, holds))
    return copy
  }

  /// The first invariant `machine` breaks, with a message.
  @inlinable
  func broken(_ machine: ChartMachine<ID, Event, Context, Effect>) -> (property: String, message: String)? {
    guard !invariants.isEmpty else { return nil }
    let configuration = machine.configuration
    for (name, holds) in invariants where !holds(configuration, machine.context) {
      return (name, "broken in \(configuration)")
    }
    return nil
  }
}
