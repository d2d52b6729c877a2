public import StateMachine
public import StateMachineTesting

/// How to model-check one example machine: a finite alphabet for exhaustive exploration, an
/// event source for random walks, and the invariants both must keep. `fsm explore` and the
/// property tests use these.
public struct ExampleModel<State: Discriminated & Hashable, Event: Discriminated & Hashable, Context: Hashable & Sendable, Effect: Sendable>: Sendable {
  public let table: TransitionTable<State, Event, Context, Effect>
  public let context: Context
  /// Events with a few representative payloads each.
  public let alphabet: [Event]
  public let invariants: [Invariant<State, Context>]

  /// The exhaustive explorer over ``alphabet`` with the invariants and the dead-end check.
  public var explorer: Explorer<State, Event, Context, Effect> {
    invariants.reduce(Explorer(table: table, context: context, alphabet: alphabet).checking(.noDeadEnd)) { $0.adding($1) }
  }

  /// Seeded random walks over ``alphabet`` with the same properties.
  public var propertyCheck: PropertyCheck<State, Event, Context, Effect> {
    let alphabet = alphabet
    let source = EventSource<Event> { kind, generator in
      let choices = alphabet.filter { $0.discriminant == kind }
      guard !choices.isEmpty else { return nil }
      return choices[Int(generator.next() % UInt64(choices.count))]
    }
    return invariants.reduce(PropertyCheck(table: table, context: context, events: source).checking(.noDeadEnd)) {
      $0.adding($1)
    }
  }
}

extension Login {
  /// Fields are empty on the welcome screen; authenticating needs both fields.
  public static let model = ExampleModel(
    table: table, context: Context(),
    alphabet: [.start, .editUsername(""), .editUsername("admin"), .editPassword(""), .editPassword("123456"), .submit,
               .authenticated, .authenticationFailed, .reset],
    invariants: [
      .inState(.welcome, "the fields are cleared") { _, c in c.username.isEmpty && c.password.isEmpty && c.error == nil },
      .inState(.authenticating, "both fields are filled in") { _, c in !c.username.isEmpty && !c.password.isEmpty },
    ])
}

extension Loader {
  /// Attempts stay within the retry policy; a failure state always has its error.
  public static let model = ChartExampleModel(
    chart: chart, context: Context(),
    alphabet: [.load, .loaded(page: 1, users: ["A"], fromCache: false), .loaded(page: 2, users: ["B"], fromCache: true),
               .failed(.network), .failed(.decode), .retryNow, .retry, .refreshed(page: 1, users: ["C"]), .reset],
    invariants: [
      ("attempts ≤ retries + 1", { _, c in c.attempts <= retryPolicy.maxAttempts + 1 }),
      ("pages are loaded in order, none twice", { _, c in c.pages.count <= 2 }),
      ("failure: the error is kept", { s, c in !s.contains(.failure) || (c.lastError != nil && c.attempts >= 1) }),
      ("retry: every retry was spent", { s, c in !s.contains(.retry) || c.attempts == retryPolicy.maxAttempts + 1 }),
      ("idle: nothing loaded", { s, c in !s.contains(.idle) || (c.pages.isEmpty && c.attempts == 0) }),
    ])
}

extension Captcha {
  /// The countdown stays within 0...60 and is running exactly while counting.
  public static let model = ExampleModel(
    table: table, context: Context(),
    alphabet: [.editPhone(""), .editPhone("12345"), .editPhone("13800138000"), .tap, .codeSent, .requestFailed("busy"),
               .tick, .reset],
    invariants: [
      Invariant("0 ≤ remaining ≤ 60") { _, c in (0...countdownSeconds).contains(c.remaining) },
      Invariant("remaining > 0 exactly while counting") { s, c in (s == .counting) == (c.remaining > 0) },
      Invariant("the button is enabled only when idle") { s, _ in isButtonEnabled(s) == (s == .idle) },
    ])
}

extension Registration {
  /// Submitting happens only with every requirement met.
  public static let model = ExampleModel(
    table: table, context: Context(),
    alphabet: [.editUsername("abc"), .editUsername("abcd"), .editPassword("Password"), .editPassword("password"),
               .editConfirmation("Password"), .editConfirmation(""), .submit, .registered, .registrationFailed("taken")],
    invariants: [
      .inState(.submitting, "all four requirements hold") { _, c in c.canSubmit },
      .inState(.done, "all four requirements hold") { _, c in c.canSubmit },
      Invariant("submit enabled iff all four hold") { _, c in
        let r = c.requirements
        return c.canSubmit == (r.usernameLongEnough && r.passwordLongEnough && r.passwordHasUppercase && r.confirmationMatches)
      },
    ])
}

extension PhoneLogin {
  /// The countdown stays within 0...60 and is above 0 exactly while counting; submitting needs
  /// both fields and the agreement; a logged-in session knows its user.
  public static let model = ChartExampleModel(
    chart: chart, context: Context(),
    alphabet: [.editPhone("13800138000"), .editPhone(""), .editCode("123456"), .toggleAgreement, .requestCode, .codeSent,
               .codeRequestFailed("busy"), .tick, .submit, .confirmAgreement, .cancelAgreement,
               .loginSucceeded(User(id: 1, name: "A", phone: "1")), .loginFailed("no"), .reset],
    invariants: [
      ("0 ≤ remaining ≤ 60", { _, c in (0...Captcha.countdownSeconds).contains(c.countdown.remaining) }),
      ("remaining > 0 exactly while counting", { states, c in states.contains(.counting) == (c.countdown.remaining > 0) }),
      ("submitting: both fields and the agreement", { states, c in !states.contains(.submitting) || (c.canSubmit && c.agreed) }),
      ("logged in: the user is known", { states, c in !states.contains(.loggedIn) || c.user != nil }),
      ("one step of each region", { states, _ in states.count == 2 }),
    ])
}

extension CDPlayer {
  /// Every event, no invariant beyond "no dead end".
  public static let model = ExampleModel(table: table, context: NoContext(), alphabet: Event.allCases, invariants: [])
}

/// How to model-check one example chart: an alphabet, and the invariants every configuration
/// reached must keep, for ``ChartExplorer`` and ``ChartPropertyCheck``.
public struct ChartExampleModel<ID: Hashable & Sendable, Event: Hashable & Sendable, Context: Hashable & Sendable, Effect: Sendable>: Sendable {
  public typealias ChartInvariant = @Sendable (_ configuration: [ID], _ context: Context) -> Bool
  public let chart: Chart<ID, Event, Context, Effect>
  public let context: Context
  /// Events with a few representative payloads each.
  public let alphabet: [Event]
  public let invariants: [(name: String, holds: ChartInvariant)]

  /// The exhaustive explorer over ``alphabet`` with the invariants.
  public var explorer: ChartExplorer<ID, Event, Context, Effect> {
    invariants.reduce(ChartExplorer(chart: chart, context: context, alphabet: alphabet)) { $0.invariant($1.name, $1.holds) }
  }

  /// Seeded random walks over ``alphabet`` with the same invariants.
  public var propertyCheck: ChartPropertyCheck<ID, Event, Context, Effect> {
    invariants.reduce(ChartPropertyCheck(chart: chart, context: context, alphabet: alphabet)) { $0.invariant($1.name, $1.holds) }
  }
}
