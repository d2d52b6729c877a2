public import StateMachine

/// Phone-number login: phone and code fields, the captcha countdown, the agreement alert and
/// the submission to a login API.
///
/// ## One table, with the countdown as a region of the context
/// The countdown runs beside every step of the login: a code can be requested while editing,
/// and the 60 s keep running while the agreement alert is up, while the form submits, and
/// after a failure. The framework has no orthogonal regions yet, so there are two ways to
/// write that: a product of the two machines (5 login states × 3 countdown phases, with every
/// row written once per combination), or one table whose states are the login steps and
/// whose countdown is a small region of the context, handled by wildcard rows (`*`) that
/// apply in every step. This is the second: it keeps the table at 5 states and about 20 rows, and
/// it reuses ``Captcha``'s rules (``Captcha/isValidPhone(_:)``, the 60 s length, the
/// messages, the button label). The ticker is a global timer named `ticker` that the last
/// tick and `reset` cancel; a state-scoped one would stop whenever the login step changes.
/// When orthogonal regions land, ``Captcha/table`` becomes a region of this machine as is.
public enum PhoneLogin {
  /// The login steps.
  public enum State: String, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case editing, awaitingAgreement, submitting, loggedIn, failed
  }

  /// What the user does, and what the code service, the ticker and the login API answer.
  public enum Event: Hashable, Sendable, Codable, Discriminated, CustomStringConvertible {
    case editPhone(String)
    case editCode(String)
    case toggleAgreement
    case requestCode
    case codeSent
    case codeRequestFailed(String)
    case tick
    case submit
    case confirmAgreement
    case cancelAgreement
    case loginSucceeded(User)
    case loginFailed(String)
    case reset

    /// The event's case.
    public enum Kind: Hashable, Sendable, CaseIterable {
      case editPhone, editCode, toggleAgreement, requestCode, codeSent, codeRequestFailed, tick
      case submit, confirmAgreement, cancelAgreement, loginSucceeded, loginFailed, reset
    }

    public var discriminant: Kind {
      switch self {
      case .editPhone: .editPhone
      case .editCode: .editCode
      case .toggleAgreement: .toggleAgreement
      case .requestCode: .requestCode
      case .codeSent: .codeSent
      case .codeRequestFailed: .codeRequestFailed
      case .tick: .tick
      case .submit: .submit
      case .confirmAgreement: .confirmAgreement
      case .cancelAgreement: .cancelAgreement
      case .loginSucceeded: .loginSucceeded
      case .loginFailed: .loginFailed
      case .reset: .reset
      }
    }

    public var description: String {
      switch self {
      case .editPhone(let text): "editPhone(\(quoted(text)))"
      case .editCode(let text): "editCode(\(quoted(text)))"
      case .codeRequestFailed(let message): "codeRequestFailed(\(quoted(message)))"
      case .loginSucceeded(let user): "loginSucceeded(\(quoted(user.name)))"
      case .loginFailed(let message): "loginFailed(\(quoted(message)))"
      default: "\(discriminant)"
      }
    }
  }

  /// The work the store hands to ``PhoneLoginServices``.
  public enum Work: Hashable, Sendable, Codable, CustomStringConvertible {
    case requestCode(phone: String)
    case login(phone: String, code: String)

    public var description: String {
      switch self {
      case .requestCode(let phone): "requestCode(\(quoted(phone)))"
      case .login(let phone, let code): "login(\(quoted(phone)), \(quoted(code)))"
      }
    }
  }

  /// The countdown region: the captcha button's phase and seconds left.
  public struct Countdown: Hashable, Sendable, Codable {
    public var phase: Captcha.State = .idle
    public var remaining = 0
    public var sentBefore = false

    public init() {}

    /// What the code button shows.
    public var label: String {
      var context = Captcha.Context()
      (context.remaining, context.sentBefore) = (remaining, sentBefore)
      return Captcha.buttonLabel(phase, context)
    }
  }

  /// The fields, the agreement, the countdown, the message and the logged-in user.
  public struct Context: Hashable, Sendable, Codable {
    public var phone = ""
    public var code = ""
    /// Whether the agreement box is ticked.
    public var agreed = false
    public var countdown = Countdown()
    /// The message under the form, if any.
    public var message: String?
    /// The user, once logged in.
    public var user: User?

    public init(phone: String = "", code: String = "", agreed: Bool = false) {
      (self.phone, self.code, self.agreed) = (phone, code, agreed)
    }

    /// Whether the submit button is enabled: both fields are filled in.
    public var canSubmit: Bool { !phone.isEmpty && !code.isEmpty }
  }

  public typealias Effect = Command<Event, Work>

  static let cannotSubmit = Guard<Context, Event>("canSubmit") { context, _ in context.canSubmit }.negated
  static let agreed = Guard<Context, Event>("agreed") { context, _ in context.agreed }
  static let countdownBusy = Guard<Context, Event>("countdownBusy") { context, _ in context.countdown.phase != .idle }
  static let invalidPhone = Guard<Context, Event>("invalidPhone") { context, _ in !Captcha.isValidPhone(context.phone) }
  static let requesting = Guard<Context, Event>("requesting") { context, _ in context.countdown.phase == .requesting }
  static let counting = Guard<Context, Event>("counting") { context, _ in context.countdown.phase == .counting }
  static let moreToCount = Guard<Context, Event>("remaining > 1") { context, _ in context.countdown.remaining > 1 }
  static let login = EffectItem<Context, Event, Effect>.make("login") { context, _ in
    .perform(.login(phone: context.phone, code: context.code), id: "login", scope: .state)
  }

  static func clearMessage(_ context: inout Context, _ event: Event) { context.message = nil }

  static func edit(_ context: inout Context, _ event: Event) {
    switch event {
    case .editPhone(let text): context.phone = text
    case .editCode(let text): context.code = text
    case .toggleAgreement: context.agreed.toggle()
    default: break
    }
  }

  /// The transition table.
  public static let table: TransitionTable<State, Event, Context, Effect> = build {
    try TransitionTable(
      name: "phone-login",
      initial: .editing,
      states: [.state(.editing), .state(.awaitingAgreement), .state(.submitting), .final(.loggedIn), .state(.failed)],
      rows: formRows + countdownRows,
      policy: .ignore)
  }

  static let formRows: [Row<State, Event, Context, Effect>] = [
    .stay(in: .editing, on: .editPhone).update(edit),
    .stay(in: .editing, on: .editCode).update(edit),
    .stay(in: .editing, on: .toggleAgreement).update(edit),
    .transition(from: .failed, on: .editPhone, to: .editing).update(edit).update(clearMessage),
    .transition(from: .failed, on: .editCode, to: .editing).update(edit).update(clearMessage),
    .transition(from: .failed, on: .toggleAgreement, to: .editing).update(edit).update(clearMessage),
    .ignore(in: [.editing, .failed], on: .submit).when(cannotSubmit),
    .transition(from: [.editing, .failed], on: .submit, to: .submitting).when(agreed)
      .update { context, _ in context.message = nil }
      .emit(login),
    .transition(from: [.editing, .failed], on: .submit, to: .awaitingAgreement),
    .transition(from: .awaitingAgreement, on: .confirmAgreement, to: .submitting)
      .update { context, _ in (context.agreed, context.message) = (true, nil) }
      .emit(login),
    .transition(from: .awaitingAgreement, on: .cancelAgreement, to: .editing),
    .transition(from: .submitting, on: .loginSucceeded, to: .loggedIn).update { context, event in
      if case .loginSucceeded(let user) = event { context.user = user }
    },
    .transition(from: .submitting, on: .loginFailed, to: .failed).update { context, event in
      if case .loginFailed(let message) = event { context.message = message }
    },
    .fromAny(on: .reset, to: .editing, effects: .cancel("ticker"), .cancel("request"))
      .update { context, _ in context = Context() },
  ]

  static let countdownRows: [Row<State, Event, Context, Effect>] = [
    .ignoreInAny(on: .requestCode).when(countdownBusy),
    .stayInAny(on: .requestCode).when(invalidPhone).update { context, _ in context.message = Captcha.invalidPhoneMessage },
    .stayInAny(on: .requestCode)
      .update { context, _ in (context.countdown.phase, context.message) = (.requesting, nil) }
      .emit("requestCode") { context, _ in .perform(.requestCode(phone: context.phone), id: "request") },
    .stayInAny(on: .codeSent, effects: .every(.seconds(1), send: .tick, id: "ticker")).when(requesting).update { context, _ in
      context.countdown.phase = .counting
      context.countdown.remaining = Captcha.countdownSeconds
      context.countdown.sentBefore = true
    },
    .stayInAny(on: .codeRequestFailed).when(requesting).update { context, event in
      context.countdown.phase = .idle
      if case .codeRequestFailed(let message) = event { context.message = message }
    },
    // An answer or a tick that does not fit the countdown's phase (a late one) changes nothing.
    .ignoreInAny(on: .codeSent),
    .ignoreInAny(on: .codeRequestFailed),
    .ignoreInAny(on: .tick).when(counting.negated),
    .stayInAny(on: .tick).when(moreToCount).update { context, _ in context.countdown.remaining -= 1 },
    .stayInAny(on: .tick, effects: .cancel("ticker")).update { context, _ in
      (context.countdown.phase, context.countdown.remaining) = (.idle, 0)
    },
  ]
}
