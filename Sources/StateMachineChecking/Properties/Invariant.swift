public import StateMachine

/// A named condition every configuration (state and context) a machine reaches must satisfy.
/// `State` is what it reads of where the machine is: a table's state, a chart's active atomic
/// states.
public struct Invariant<State, Context>: Sendable {
  /// The name shown when it fails.
  public let name: String
  @usableFromInline let holds: @Sendable (State, Context) -> Bool

  /// An invariant on the state and context.
  public init(_ name: String, _ holds: @escaping @Sendable (State, Context) -> Bool) {
    self.name = name
    self.holds = holds
  }
}

extension Invariant where State: Discriminated {
  /// An invariant checked only in states of case `state`.
  public static func inState(
    _ state: State.Discriminant, _ name: String, _ holds: @escaping @Sendable (State, Context) -> Bool
  ) -> Invariant {
    Invariant("\(name) (in \(state))") { s, c in s.discriminant != state || holds(s, c) }
  }
}

/// Checks about steps rather than configurations, built in.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum StepCheck: Hashable, Sendable {
  /// No event is rejected (handled by no row). Walks then send only handled events unless the
  /// event source's `unhandledShare` asks otherwise.
  case noRejection
  /// The machine never enters a dead end (a non-final state with no way out).
  case noDeadEnd
  /// Every message a machine of a system sends reaches a running child that takes it: a
  /// message to an id no child has (or that is not one of the child's events) breaks it (see
  /// `SystemMachine.undeliveredMessage`). A table or a chart checked alone sends none.
  case messagesDelivered
}

/// A property that failed (a table's or a chart's), with the shrunk event sequence that makes it
/// fail (see ``PropertyCheck``).
public struct PropertyFailure<Event: Sendable>: Error, Sendable, CustomStringConvertible {
  @usableFromInline
  init(seed: UInt64, property: String, message: String, events: [Event], originalLength: Int) {
    (self.seed, self.property, self.message, self.events, self.originalLength) = (seed, property, message, events, originalLength)
  }

  /// The seed of the run: the same seed gives the same run on every platform.
  public let seed: UInt64
  /// The property that failed.
  public let property: String
  /// What was wrong at the last step.
  public let message: String
  /// The minimal failing event sequence.
  public let events: [Event]
  /// The length of the failing sequence before shrinking.
  public let originalLength: Int
  /// The length of the failing sequence before shrinking (what a chart's failure called it).
  @available(*, deprecated, renamed: "originalLength")
  public var original: Int { originalLength }

  public var description: String {
    var lines = [
      "property '\(property)' failed (seed \(seed)): \(message)",
      "minimal sequence (\(events.count) event\(events.count == 1 ? "" : "s"), shrunk from \(originalLength)):",
    ]
    lines += events.enumerated().map { "  \($0.offset + 1). \($0.element)" }
    return lines.joined(separator: "\n")
  }
}
