public import StateMachine

/// Phone-number login: phone and code fields, the captcha countdown, the agreement alert and
/// the submission to a login API.
///
/// ## Two parallel regions
/// The countdown runs beside every step of the login: a code can be requested while editing,
/// and the 60 s keep running while the agreement alert is up, while the form submits, and
/// after a failure. So the chart has two regions inside `session`, active together: `form`
/// (the login steps) and `countdown` (idle, requesting, counting), each with its own rows. The
/// countdown reuses ``Captcha``'s rules (``Captcha/isValidPhone(_:)``, the 60 s, the messages,
/// the button label). Its ticker belongs to `counting` and the code request to `requesting`
/// (``EffectScope/state``): leaving the phase ends them, whatever the form does meanwhile, and
/// `reset` re-enters `session`, which ends everything either region started.
///
/// ```
/// session (parallel)
/// ├── form:      filling { editing, failed } → awaitingAgreement → submitting → loggedIn
/// └── countdown: idle → requesting → counting → idle
/// ```
public enum PhoneLogin {
  /// The chart's states: `session` holds the two regions, `form` and `countdown`.
  public enum State: String, Hashable, Sendable, CaseIterable, Codable {
    /// The two regions, side by side.
    case session
    /// The login steps; `filling` holds the two steps where the fields can be edited.
    case form, filling, editing, failed, awaitingAgreement, submitting, loggedIn
    /// The code button's phases.
    case countdown, idle, requesting, counting
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

    // Payloads are encoded under their names (`{"editPhone":{"text":"1"}}`); logs from
    // before they were named (`_0`) still decode.
    enum EditPhoneCodingKeys: String, CodingKey { case _0 = "text" }
    enum EditCodeCodingKeys: String, CodingKey { case _0 = "text" }
    enum CodeRequestFailedCodingKeys: String, CodingKey { case _0 = "message" }
    enum LoginSucceededCodingKeys: String, CodingKey { case _0 = "user" }
    enum LoginFailedCodingKeys: String, CodingKey { case _0 = "message" }

    public init(from decoder: any Decoder) throws {
      self = try decodeCase(decoder, [
        "editPhone": { .editPhone(try $0("text")) },
        "editCode": { .editCode(try $0("text")) },
        "toggleAgreement": { _ in .toggleAgreement },
        "requestCode": { _ in .requestCode },
        "codeSent": { _ in .codeSent },
        "codeRequestFailed": { .codeRequestFailed(try $0("message")) },
        "tick": { _ in .tick },
        "submit": { _ in .submit },
        "confirmAgreement": { _ in .confirmAgreement },
        "cancelAgreement": { _ in .cancelAgreement },
        "loginSucceeded": { .loginSucceeded(try $0("user")) },
        "loginFailed": { .loginFailed(try $0("message")) },
        "reset": { _ in .reset },
      ])
    }

    /// The event's case.
    public enum Kind: Hashable, Sendable, CaseIterable {
      case editPhone, editCode, toggleAgreement, requestCode, codeSent, codeRequestFailed, tick
      case submit, confirmAgreement, cancelAgreement, loginSucceeded, loginFailed, reset
    }

    @inlinable public var discriminant: Kind {
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

  /// The countdown's numbers (its phase is the `countdown` region's state).
  public struct Countdown: Hashable, Sendable, Codable {
    public var remaining = 0
    public var sentBefore = false

    public init() {}
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

  /// The form region's step in `configuration` (the chart's active atomic states).
  public static func formStep(_ configuration: [State]) -> State {
    configuration.first { [.editing, .failed, .awaitingAgreement, .submitting, .loggedIn].contains($0) } ?? .editing
  }

  /// The countdown region's phase in `configuration`, as the captcha names it.
  public static func codePhase(_ configuration: [State]) -> Captcha.State {
    if configuration.contains(.requesting) { return .requesting }
    return configuration.contains(.counting) ? .counting : .idle
  }

  /// What the code button shows.
  public static func codeButton(_ configuration: [State], _ context: Context) -> String {
    var captcha = Captcha.Context()
    (captcha.remaining, captcha.sentBefore) = (context.countdown.remaining, context.countdown.sentBefore)
    return Captcha.buttonLabel(codePhase(configuration), captcha)
  }

  typealias Guard = ChartGuard<State, Event, Context>
  typealias Action = ChartAction<Event, Context, Effect>

  static let canSubmit = Guard("canSubmit") { context, _ in context.canSubmit }
  static let canSubmitAgreed = Guard("canSubmit && agreed") { context, _ in context.canSubmit && context.agreed }
  static let invalidPhone = Guard("invalidPhone") { context, _ in !Captcha.isValidPhone(context.phone) }
  static let moreToCount = Guard("remaining > 1") { context, _ in context.countdown.remaining > 1 }

  static let edit = Action.update("edit field") { context, event in
    switch event {
    case .editPhone(let text)?: context.phone = text
    case .editCode(let text)?: context.code = text
    case .toggleAgreement?: context.agreed.toggle()
    default: break
    }
  }
  static let clearMessage = Action.update("clear message") { context, _ in context.message = nil }
  /// One update for both failures: a name stands for one piece of code (the SCXML export binds by name).
  static let showMessage = Action.update("show message") { context, event in
    switch event {
    case .loginFailed(let message)?, .codeRequestFailed(let message)?: context.message = message
    default: break
    }
  }
  static let login = Action.make("login") { context, _ in
    .perform(.login(phone: context.phone, code: context.code), id: "login", scope: .state)
  }

  /// The chart.
  public static let chart: Chart<State, Event, Context, Effect> = buildChart {
    try Chart(name: "phone-login", states: [
      .parallel(.session, regions: [form, countdown], transitions: [
        // Re-entering the session ends whatever either region started and starts both afresh.
        .on(.reset, to: .session, actions: [.update("clear all") { context, _ in context = Context() }]),
      ]),
    ])
  }

  static let form: Chart<State, Event, Context, Effect>.State = .compound(.form, children: [
    .compound(.filling, children: [
      .atomic(.editing, transitions: [.on(.editPhone, do: [edit]), .on(.editCode, do: [edit]), .on(.toggleAgreement, do: [edit])]),
      .atomic(.failed, transitions: [
        .on(.editPhone, to: .editing, actions: [edit, clearMessage]),
        .on(.editCode, to: .editing, actions: [edit, clearMessage]),
        .on(.toggleAgreement, to: .editing, actions: [edit, clearMessage]),
      ]),
    ], transitions: [
      .on(.submit, when: canSubmitAgreed, to: .submitting, actions: [clearMessage]),
      .on(.submit, when: canSubmit, to: .awaitingAgreement),
    ]),
    .atomic(.awaitingAgreement, transitions: [
      .on(.confirmAgreement, to: .submitting, actions: [.update("tick agreement") { context, _ in (context.agreed, context.message) = (true, nil) }]),
      .on(.cancelAgreement, to: .editing),
    ]),
    .atomic(.submitting, transitions: [
      .on(.loginSucceeded, to: .loggedIn, actions: [.update("keep user") { context, event in
        if case .loginSucceeded(let user)? = event { context.user = user }
      }]),
      .on(.loginFailed, to: .failed, actions: [showMessage]),
    ], onEntry: [login]),
    .final(.loggedIn),
  ])

  static let countdown: Chart<State, Event, Context, Effect>.State = .compound(.countdown, children: [
    .atomic(.idle, transitions: [
      .on(.requestCode, when: invalidPhone, do: [.update("invalid phone message") { context, _ in context.message = Captcha.invalidPhoneMessage }]),
      .on(.requestCode, to: .requesting, actions: [clearMessage]),
    ]),
    .atomic(.requesting, transitions: [
      .on(.codeSent, to: .counting),
      .on(.codeRequestFailed, to: .idle, actions: [showMessage]),
    ], onEntry: [.make("requestCode") { context, _ in .perform(.requestCode(phone: context.phone), id: "request", scope: .state) }]),
    .atomic(.counting, transitions: [
      .on(.tick, when: moreToCount, do: [.update("count down") { context, _ in context.countdown.remaining -= 1 }]),
      .on(.tick, to: .idle, actions: [.update("stop at 0") { context, _ in context.countdown.remaining = 0 }]),
    ], onEntry: [
      .update("start at 60") { context, _ in (context.countdown.remaining, context.countdown.sentBefore) = (Captcha.countdownSeconds, true) },
      .effect(.every(.seconds(1), send: .tick, id: "ticker", scope: .state)),
    ]),
  ])
}
