public import StateMachine

/// The verification-code button: request a code for a phone number, then count down 60 s
/// before another request is allowed.
///
/// A tap with an empty or invalid number stays idle with "enter a valid phone number". A valid
/// tap requests a code (an effect); when it is sent, the machine counts down from 60 with a
/// 1 s ticker scoped to the `counting` state, so leaving the state (at 0, or on `reset`)
/// cancels the ticker. At 0 the button says "resend". A tap while counting is ignored.
public enum Captcha {
  /// The button's phases.
  public enum State: String, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case idle, requesting, counting
  }

  /// What the user does, what the code service answers, and the ticker.
  public enum Event: Hashable, Sendable, Codable, Discriminated, CustomStringConvertible {
    case editPhone(String)
    case tap
    case codeSent
    case requestFailed(String)
    case tick
    case reset

    // Payloads are encoded under their names (`{"editPhone":{"text":"1"}}`); logs from
    // before they were named (`_0`) still decode.
    enum EditPhoneCodingKeys: String, CodingKey { case _0 = "text" }
    enum RequestFailedCodingKeys: String, CodingKey { case _0 = "message" }

    public init(from decoder: any Decoder) throws {
      self = try decodeCase(decoder, [
        "editPhone": { .editPhone(try $0("text")) },
        "tap": { _ in .tap },
        "codeSent": { _ in .codeSent },
        "requestFailed": { .requestFailed(try $0("message")) },
        "tick": { _ in .tick },
        "reset": { _ in .reset },
      ])
    }

    /// The event's case.
    public enum Kind: Hashable, Sendable, CaseIterable {
      case editPhone, tap, codeSent, requestFailed, tick, reset
    }

    @inlinable public var discriminant: Kind {
      switch self {
      case .editPhone: .editPhone
      case .tap: .tap
      case .codeSent: .codeSent
      case .requestFailed: .requestFailed
      case .tick: .tick
      case .reset: .reset
      }
    }

    public var description: String {
      switch self {
      case .editPhone(let text): "editPhone(\(quoted(text)))"
      case .requestFailed(let message): "requestFailed(\(quoted(message)))"
      default: "\(discriminant)"
      }
    }
  }

  /// The work the store hands to the code service.
  public enum Work: Hashable, Sendable, Codable, CustomStringConvertible {
    case requestCode(phone: String)

    public var description: String {
      switch self {
      case .requestCode(let phone): "requestCode(\(quoted(phone)))"
      }
    }
  }

  /// The phone field, the countdown and the message under the button.
  public struct Context: Hashable, Sendable, Codable {
    public var phone = ""
    /// Seconds left while counting; 0 otherwise.
    public var remaining = 0
    /// Whether a code was sent before (the idle button then says "resend").
    public var sentBefore = false
    /// The message shown under the field, if any.
    public var message: String?

    public init(phone: String = "") { self.phone = phone }
  }

  public typealias Effect = Command<Event, Work>

  /// The countdown's length in seconds.
  public static let countdownSeconds = 60
  /// The message for a tap with an empty or invalid phone number.
  public static let invalidPhoneMessage = "enter a valid phone number"

  /// Whether `phone` is a mobile number: 11 digits, the first one `1`.
  public static func isValidPhone(_ phone: String) -> Bool {
    // By UTF-8 bytes: eleven ASCII digits are eleven bytes, and any other character (a
    // combining mark after a digit, a digit of another script) has a byte outside 0-9. (Counting
    // characters walked graphemes and Unicode tables on every request.)
    let bytes = phone.utf8
    return bytes.count == 11 && bytes.first == UInt8(ascii: "1") && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// What the button shows.
  public static func buttonLabel(_ state: State, _ context: Context) -> String {
    switch state {
    case .idle: context.sentBefore ? "resend" : "send code"
    case .requesting: "sending…"
    case .counting: "\(context.remaining) s"
    }
  }

  /// Whether the button can be tapped.
  public static func isButtonEnabled(_ state: State) -> Bool { state == .idle }

  static let invalidPhone = Guard<Context, Event>("invalidPhone") { context, _ in !isValidPhone(context.phone) }
  static let moreToCount = Guard<Context, Event>("remaining > 1") { context, _ in context.remaining > 1 }

  /// The transition table.
  public static let table: TransitionTable<State, Event, Context, Effect> = build {
    try TransitionTable(
      name: "captcha",
      initial: .idle,
      states: [
        .state(.idle),
        .state(.requesting),
        .state(.counting, entry: [.every(.seconds(1), send: .tick, id: "ticker", scope: .state)]),
      ],
      rows: [
        .stayInAny(on: .editPhone).update { context, event in
          if case .editPhone(let text) = event { context.phone = text }
        },
        .stay(in: .idle, on: .tap).when(invalidPhone).update { context, _ in context.message = invalidPhoneMessage },
        .transition(from: .idle, on: .tap, to: .requesting)
          .update { context, _ in context.message = nil }
          .emit("requestCode") { context, _ in .perform(.requestCode(phone: context.phone), id: "request", scope: .state) },
        .ignore(in: [.requesting, .counting], on: .tap),
        .transition(from: .requesting, on: .codeSent, to: .counting).update { context, _ in
          context.remaining = countdownSeconds
          context.sentBefore = true
        },
        .transition(from: .requesting, on: .requestFailed, to: .idle).update { context, event in
          if case .requestFailed(let message) = event { context.message = message }
        },
        .stay(in: .counting, on: .tick).when(moreToCount).update { context, _ in context.remaining -= 1 },
        .transition(from: .counting, on: .tick, to: .idle).update { context, _ in context.remaining = 0 },
        .fromAny(on: .reset, to: .idle).update { context, _ in context = Context() },
      ],
      policy: .ignore)
  }
}
