/// What one step did with an event.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum StepOutcome<State, Effect> {
  /// The machine left `from` and entered `to` (which may be the same state: an external
  /// self-transition runs exit and entry effects). `effects` are, in order: exit effects of
  /// `from`, the row's effects, entry effects of `to`.
  case transitioned(from: State, to: State, effects: Effects<Effect>)
  /// An internal transition: the state is unchanged, no exit or entry effects ran.
  case stayed(effects: Effects<Effect>)
  /// A row declared that this event does nothing here (or the table's policy is
  /// ``InvalidTransitionPolicy/ignore`` and no row handled it).
  case ignored
  /// No row handled the event; the state and context are unchanged.
  case rejected(Rejection)

  /// The effects to perform, empty unless the machine transitioned or stayed.
  @inlinable
  public var effects: Effects<Effect> {
    switch self {
    case .transitioned(_, _, let effects), .stayed(let effects): effects
    case .ignored, .rejected: Effects()
    }
  }

  /// Whether the event was handled by a row (transitioned or stayed).
  @inlinable
  public var isHandled: Bool {
    switch self {
    case .transitioned, .stayed: true
    case .ignored, .rejected: false
    }
  }
}

/// Why a step rejected an event.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum Rejection: String, Hashable, Sendable, Codable, CustomStringConvertible {
  /// No row of the current state (nor a wildcard row) names the event.
  case undeclared
  /// Rows name the event here, but every one of them is guarded and no guard held.
  case guardsFailed
  /// The state the step started from is not a state of the table.
  case unknownState
  /// A row made a target state whose case is not a state of the table.
  case unknownTarget

  public var description: String {
    switch self {
    case .undeclared: "no row handles this event in this state"
    case .guardsFailed: "no guard held"
    case .unknownState: "the current state is not in the table"
    case .unknownTarget: "the row made a state that is not in the table"
    }
  }
}

/// What a step does with an event that no row handles.
public enum InvalidTransitionPolicy: String, Hashable, Sendable, Codable {
  /// Report ``StepOutcome/rejected(_:)`` (the default): analysis lists unhandled pairs as findings.
  case reject
  /// Report ``StepOutcome/ignored``, like SCXML and most UML tools discard unhandled events.
  case ignore
}

extension StepOutcome: Sendable where State: Sendable, Effect: Sendable {}
extension StepOutcome: Equatable where State: Equatable, Effect: Equatable {}
extension StepOutcome: Hashable where State: Hashable, Effect: Hashable {}

extension StepOutcome: CustomStringConvertible {
  /// `red -> green / flash`, `stayed / tick`, `ignored`, `rejected: <reason>`.
  public var description: String {
    let list = { (effects: Effects<Effect>) in effects.isEmpty ? "" : " / " + effects.map { "\($0)" }.joined(separator: ", ") }
    switch self {
    case .transitioned(let from, let to, let effects): return "\(from) -> \(to)" + list(effects)
    case .stayed(let effects): return "stayed" + list(effects)
    case .ignored: return "ignored"
    case .rejected(let reason): return "rejected: \(reason)"
    }
  }
}

extension StepOutcome {
  /// What the step answers its event, as the tools read it: transitioned or stayed is
  /// handled, ignored is ignored, rejected is rejected. (The one rule: a table's machine, its
  /// store's reports and a system's step all read a step through it.)
  @inlinable
  var response: MachineResponse {
    switch self {
    case .transitioned, .stayed: .handled
    case .ignored: .ignored
    case .rejected(let reason): .rejected(reason.description)
    }
  }
}
