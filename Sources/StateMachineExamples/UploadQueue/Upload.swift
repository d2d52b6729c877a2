public import StateMachine

/// One file's upload, a child machine of ``UploadQueue``: send the file; on a failure, wait
/// 1 s and try again, twice at most; done when sent or failed for good.
///
/// | state | what happens |
/// | --- | --- |
/// | `sending` | the upload runs (state-scoped) |
/// | `waiting` | a 1 s backoff before the next attempt |
/// | `sent`, `failed` | final: the queue hears of it |
public enum Upload {
  /// The upload's states.
  public enum State: String, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case sending, waiting, sent, failed
  }

  /// What the upload hears: from its work, and from its backoff timer.
  public enum Event: String, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case succeeded, attemptFailed, retryNow
  }

  /// The upload's work: send the file (the child's handler knows which).
  public enum Work: String, Hashable, Sendable, Codable, CustomStringConvertible {
    case send
    public var description: String { rawValue }
  }

  /// The file and how its attempts went.
  public struct Context: Hashable, Sendable, Codable {
    /// The file being uploaded.
    public var file: String
    /// Failed attempts so far.
    public var failures = 0
    /// Whether it was sent.
    public var sent = false

    /// The upload of `file`, not started.
    public init(file: String) { self.file = file }
  }

  /// The commands the upload emits.
  public typealias Effect = Command<Event, Work>

  /// Attempts that may fail before the upload gives up.
  public static let retries = 2

  /// The transition table.
  public static let table: TransitionTable<State, Event, Context, Effect> = build {
    try TransitionTable(
      name: "upload", initial: .sending,
      states: [
        .state(.sending, entry: [.perform(.send, id: "send", scope: .state)]),
        .state(.waiting, entry: [.send(.retryNow, after: .seconds(1), id: "backoff", scope: .state)]),
        .final(.sent), .final(.failed),
      ],
      rows: [
        Row.transition(from: .sending, on: .succeeded, to: .sent).update { context, _ in context.sent = true },
        Row.transition(from: .sending, on: .attemptFailed, to: .waiting)
          .when("retries left") { context, _ in context.failures < retries }
          .update { context, _ in context.failures += 1 },
        Row.transition(from: .sending, on: .attemptFailed, to: .failed).update { context, _ in context.failures += 1 },
        Row.transition(from: .waiting, on: .retryNow, to: .sending),
      ],
      // A result or a timer that arrives where it no longer applies is ignored.
      policy: .ignore)
  }
}
