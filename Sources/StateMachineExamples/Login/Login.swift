public import StateMachine

/// The three-step login: a welcome screen, a credentials form, and the outcome.
///
/// Field edits are events, so the whole session is in the machine's log. Submitting empty
/// fields keeps the form open with an error; otherwise the machine authenticates (an effect
/// the store performs through ``LoginServices``) and ends in `success`, or returns to the form
/// with "wrong username or password". `reset` goes back to the welcome screen from any step,
/// clearing the fields and cancelling an authentication in flight (it is scoped to its state).
public enum Login {
  /// The steps of the flow.
  public enum State: String, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case welcome, credentials, authenticating, success
  }

  /// What the user does, and what the authenticator answers.
  public enum Event: Hashable, Sendable, Codable, Discriminated, CustomStringConvertible {
    case start
    case editUsername(String)
    case editPassword(String)
    case submit
    case authenticated
    case authenticationFailed
    case reset

    // Payloads are encoded under their names (`{"editPhone":{"text":"1"}}`); logs from
    // before they were named (`_0`) still decode.
    enum EditUsernameCodingKeys: String, CodingKey { case _0 = "text" }
    enum EditPasswordCodingKeys: String, CodingKey { case _0 = "text" }

    public init(from decoder: any Decoder) throws {
      self = try decodeCase(decoder, [
        "start": { _ in .start },
        "editUsername": { .editUsername(try $0("text")) },
        "editPassword": { .editPassword(try $0("text")) },
        "submit": { _ in .submit },
        "authenticated": { _ in .authenticated },
        "authenticationFailed": { _ in .authenticationFailed },
        "reset": { _ in .reset },
      ])
    }

    /// The event's case.
    public enum Kind: Hashable, Sendable, CaseIterable {
      case start, editUsername, editPassword, submit, authenticated, authenticationFailed, reset
    }

    @inlinable public var discriminant: Kind {
      switch self {
      case .start: .start
      case .editUsername: .editUsername
      case .editPassword: .editPassword
      case .submit: .submit
      case .authenticated: .authenticated
      case .authenticationFailed: .authenticationFailed
      case .reset: .reset
      }
    }

    public var description: String {
      switch self {
      case .editUsername(let text): "editUsername(\(quoted(text)))"
      case .editPassword(let text): "editPassword(\(quoted(text)))"
      default: "\(discriminant)"
      }
    }
  }

  /// The work the store hands to ``LoginServices``.
  public enum Work: Hashable, Sendable, Codable, CustomStringConvertible {
    case authenticate(username: String, password: String)

    public var description: String {
      switch self {
      case .authenticate(let username, _): "authenticate(\(quoted(username)))"
      }
    }
  }

  /// The form's fields and the error shown under it.
  public struct Context: Hashable, Sendable, Codable {
    public var username = ""
    public var password = ""
    /// The message shown on the credentials step, if any.
    public var error: String?

    public init(username: String = "", password: String = "", error: String? = nil) {
      (self.username, self.password, self.error) = (username, password, error)
    }
  }

  public typealias Effect = Command<Event, Work>
  /// The table's type.
  public typealias Table = TransitionTable<State, Event, Context, Effect>

  /// The message for a submission with an empty field.
  public static let emptyFieldsMessage = "username and password must not be empty"
  /// The message for credentials the authenticator refused.
  public static let wrongCredentialsMessage = "wrong username or password"

  static let fieldsEmpty = Guard<Context, Event>("fieldsEmpty") { context, _ in
    context.username.isEmpty || context.password.isEmpty
  }

  /// The transition table.
  public static let table: TransitionTable<State, Event, Context, Effect> = build {
    try TransitionTable(
      name: "login",
      initial: .welcome,
      rows: [
        .transition(from: .welcome, on: .start, to: .credentials),
        .stay(in: .credentials, on: .editUsername).update { context, event in
          if case .editUsername(let text) = event { context.username = text }
        },
        .stay(in: .credentials, on: .editPassword).update { context, event in
          if case .editPassword(let text) = event { context.password = text }
        },
        .stay(in: .credentials, on: .submit).when(fieldsEmpty).update { context, _ in
          context.error = emptyFieldsMessage
        },
        .transition(from: .credentials, on: .submit, to: .authenticating)
          .update { context, _ in context.error = nil }
          .emit("authenticate") { context, _ in
            .perform(.authenticate(username: context.username, password: context.password), id: "authenticate", scope: .state)
          },
        .transition(from: .authenticating, on: .authenticated, to: .success),
        .transition(from: .authenticating, on: .authenticationFailed, to: .credentials).update { context, _ in
          context.error = wrongCredentialsMessage
        },
        .fromAny(on: .reset, to: .welcome).update { context, _ in context = Context() },
      ],
      policy: .ignore)
  }
}
