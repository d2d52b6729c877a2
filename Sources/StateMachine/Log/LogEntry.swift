/// The first line of an event log: what it is, which machine, which table, where it starts.
public struct LogHeader<State: Codable, Context: Codable>: Codable {
  /// Always `fsm-log`.
  public var format: String
  /// The format version: this library writes 2, and reads 1 and 2 (in a log of version 1, a
  /// chart's entries list its `.effect` outputs alone, not its sends, cancels and messages).
  public var version: Int
  /// The machine's name.
  public var machine: String
  /// ``TransitionTable/fingerprint`` of the table that recorded the log.
  public var fingerprint: String
  /// The state the recording started in.
  public var state: State
  /// The context the recording started with.
  public var context: Context

  /// A header for a log of `machine` (whose table has `fingerprint`) starting in `state` and `context`.
  package init(machine: String, fingerprint: String, state: State, context: Context) {
    format = "fsm-log"
    version = LogFormat.version
    self.machine = machine
    self.fingerprint = fingerprint
    self.state = state
    self.context = context
  }
}

/// One step of a log: the event, what the step did, and the state and context after it.
public struct LogEntry<State: Codable, Event: Codable, Context: Codable, Effect: Codable>: Codable {
  /// 1 for the first step of the log, then 2, 3, ...
  public var sequence: Int
  /// Seconds on the recorder's clock since the recording started, when it has one.
  public var time: Double?
  /// The event handled.
  public var event: Event
  /// What the step did.
  public var outcome: LoggedOutcome
  /// The state after the step.
  public var state: State
  /// The context after the step.
  public var context: Context
  /// The effects the step emitted, in order.
  public var effects: [Effect]

  /// An entry as a log file holds it.
  @inlinable
  package init(
    sequence: Int, time: Double?, event: Event, outcome: LoggedOutcome, state: State, context: Context,
    effects: [Effect]
  ) {
    (self.sequence, self.time, self.event, self.outcome) = (sequence, time, event, outcome)
    (self.state, self.context, self.effects) = (state, context, effects)
  }
}

/// The kind of a step's outcome, as a log keeps it: `transitioned`, `stayed`, `ignored`, or
/// `rejected(<reason>)`.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum LoggedOutcome: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The machine moved (a chart took transitions).
  case transitioned
  /// An internal transition: the state did not change.
  case stayed
  /// No row handled the event and the policy ignores it (a chart did not handle it).
  case ignored
  /// No row handled the event, for this reason.
  case rejected(Rejection)

  /// The kind of `outcome`.
  @inlinable
  package init<S, E>(_ outcome: StepOutcome<S, E>) {
    switch outcome {
    case .transitioned: self = .transitioned
    case .stayed: self = .stayed
    case .ignored: self = .ignored
    case .rejected(let reason): self = .rejected(reason)
    }
  }

  public var description: String {
    switch self {
    case .transitioned: "transitioned"
    case .stayed: "stayed"
    case .ignored: "ignored"
    case .rejected(let reason): "rejected(\(reason.rawValue))"
    }
  }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    switch text {
    case "transitioned": self = .transitioned
    case "stayed": self = .stayed
    case "ignored": self = .ignored
    default:
      guard text.hasPrefix("rejected("), text.hasSuffix(")"),
        let reason = Rejection(rawValue: String(text.dropFirst(9).dropLast()))
      else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an outcome; expected transitioned, stayed, ignored or rejected(<reason>)"))
      }
      self = .rejected(reason)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
