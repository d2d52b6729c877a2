public import StateMachine

/// The registration form: three fields, four requirements, and a submission.
///
/// The requirement flags and "submit enabled" are computed from the fields
/// (``Context/requirements``, ``Context/canSubmit``), never stored beside them, so they cannot
/// disagree. `submit` while a requirement fails is ignored, as a disabled button would be.
public enum Registration {
  /// The form's phases.
  public enum State: String, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case editing, submitting, done, failed
  }

  /// What the user types and taps, and what the registrar answers.
  public enum Event: Hashable, Sendable, Codable, Discriminated, CustomStringConvertible {
    case editUsername(String)
    case editPassword(String)
    case editConfirmation(String)
    case submit
    case registered
    case registrationFailed(String)

    // Payloads are encoded under their names (`{"editPhone":{"text":"1"}}`); logs from
    // before they were named (`_0`) still decode.
    enum EditUsernameCodingKeys: String, CodingKey { case _0 = "text" }
    enum EditPasswordCodingKeys: String, CodingKey { case _0 = "text" }
    enum EditConfirmationCodingKeys: String, CodingKey { case _0 = "text" }
    enum RegistrationFailedCodingKeys: String, CodingKey { case _0 = "message" }

    public init(from decoder: any Decoder) throws {
      self = try decodeCase(decoder, [
        "editUsername": { .editUsername(try $0("text")) },
        "editPassword": { .editPassword(try $0("text")) },
        "editConfirmation": { .editConfirmation(try $0("text")) },
        "submit": { _ in .submit },
        "registered": { _ in .registered },
        "registrationFailed": { .registrationFailed(try $0("message")) },
      ])
    }

    /// The event's case.
    public enum Kind: Hashable, Sendable, CaseIterable {
      case editUsername, editPassword, editConfirmation, submit, registered, registrationFailed
    }

    @inlinable public var discriminant: Kind {
      switch self {
      case .editUsername: .editUsername
      case .editPassword: .editPassword
      case .editConfirmation: .editConfirmation
      case .submit: .submit
      case .registered: .registered
      case .registrationFailed: .registrationFailed
      }
    }

    public var description: String {
      switch self {
      case .editUsername(let text): "editUsername(\(quoted(text)))"
      case .editPassword(let text): "editPassword(\(quoted(text)))"
      case .editConfirmation(let text): "editConfirmation(\(quoted(text)))"
      case .registrationFailed(let message): "registrationFailed(\(quoted(message)))"
      default: "\(discriminant)"
      }
    }
  }

  /// The work the store hands to the registrar.
  public enum Work: Hashable, Sendable, Codable, CustomStringConvertible {
    case register(username: String, password: String)

    public var description: String {
      switch self {
      case .register(let username, _): "register(\(quoted(username)))"
      }
    }
  }

  /// The four requirements, in the order the form lists them.
  public struct Requirements: Hashable, Sendable {
    /// The username has at least 4 characters.
    public var usernameLongEnough: Bool
    /// The password has at least 8 characters.
    public var passwordLongEnough: Bool
    /// The password contains an uppercase letter.
    public var passwordHasUppercase: Bool
    /// The confirmation is not empty and equals the password.
    public var confirmationMatches: Bool

    /// Whether all four hold.
    public var allHold: Bool { usernameLongEnough && passwordLongEnough && passwordHasUppercase && confirmationMatches }
  }

  /// The fields, and the message of a failed submission.
  public struct Context: Hashable, Sendable, Codable {
    public var username = ""
    public var password = ""
    public var confirmation = ""
    /// Why the last submission failed, if it did.
    public var message: String?

    public init(username: String = "", password: String = "", confirmation: String = "") {
      (self.username, self.password, self.confirmation) = (username, password, confirmation)
    }

    /// The requirement flags, computed from the fields.
    public var requirements: Requirements {
      Requirements(
        usernameLongEnough: username.count >= 4,
        passwordLongEnough: password.count >= 8,
        passwordHasUppercase: password.contains { $0.isUppercase },
        confirmationMatches: !confirmation.isEmpty && confirmation == password)
    }

    /// Whether the submit button is enabled: exactly when every requirement holds.
    public var canSubmit: Bool { requirements.allHold }
  }

  public typealias Effect = Command<Event, Work>

  static let canSubmit = Guard<Context, Event>("canSubmit") { context, _ in context.canSubmit }
  static let register = EffectItem<Context, Event, Effect>.make("register") { context, _ in
    .perform(.register(username: context.username, password: context.password), id: "register", scope: .state)
  }

  /// The transition table.
  public static let table: TransitionTable<State, Event, Context, Effect> = build {
    try TransitionTable(
      name: "registration",
      initial: .editing,
      states: [.state(.editing), .state(.submitting), .final(.done), .state(.failed)],
      rows: [
        .stay(in: .editing, on: .editUsername).update(edit),
        .stay(in: .editing, on: .editPassword).update(edit),
        .stay(in: .editing, on: .editConfirmation).update(edit),
        .transition(from: .failed, on: .editUsername, to: .editing).update(edit).update(clearMessage),
        .transition(from: .failed, on: .editPassword, to: .editing).update(edit).update(clearMessage),
        .transition(from: .failed, on: .editConfirmation, to: .editing).update(edit).update(clearMessage),
        .transition(from: [.editing, .failed], on: .submit, to: .submitting).when(canSubmit)
          .update { context, _ in context.message = nil }
          .emit(register),
        .ignore(in: [.editing, .failed], on: .submit),
        .transition(from: .submitting, on: .registered, to: .done),
        .transition(from: .submitting, on: .registrationFailed, to: .failed).update { context, event in
          if case .registrationFailed(let message) = event { context.message = message }
        },
      ],
      policy: .ignore)
  }

  static func clearMessage(_ context: inout Context, _ event: Event) { context.message = nil }

  static func edit(_ context: inout Context, _ event: Event) {
    switch event {
    case .editUsername(let text): context.username = text
    case .editPassword(let text): context.password = text
    case .editConfirmation(let text): context.confirmation = text
    default: break
    }
  }
}
