public import StateMachine
public import StateMachineChecking

extension Login {
  /// Fields are empty on the welcome screen; authenticating needs both fields.
  public static let model = MachineModel(
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
  public static let model = MachineModel(
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
  public static let model = MachineModel(
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
  public static let model = MachineModel(
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
  public static let model = MachineModel(
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
  public static let model = MachineModel(table: table, context: NoContext(), alphabet: Event.allCases, invariants: [])
}

extension Upload {
  /// An upload's failures stay within its retries; it is sent exactly when it ends in `sent`.
  public static let model = MachineModel(
    table: table, context: Context(file: "a.jpg"), alphabet: Event.allCases,
    invariants: [
      Invariant("failures ≤ retries + 1") { _, c in c.failures <= retries + 1 },
      Invariant("sent exactly in sent") { s, c in c.sent == (s == .sent) },
    ])
}

extension UploadQueue {
  /// The queue as a system with its children (`MachineSystem`), two files added and each file's
  /// upload told every result: at most ``limit`` uploads run, one per active file.
  public static let model = MachineModel(
    MachineSystem(chart: chart), context: Context(), alphabet: systemAlphabet(files: ["a", "b"]),
    invariants: [
      Invariant("at most \(limit) uploads") { system, _ in system.children.count <= limit },
      Invariant("one upload per active file") { system, queue in Set(system.children.keys) == Set(queue.active) },
    ])

  /// What a check of the queue as a system sends: each file added, and each file's upload told
  /// every result its work and timers could send.
  public static func systemAlphabet(files: [String]) -> [SystemEvent<Event>] {
    files.map { .root(.add([$0])) } + files.flatMap { file in Upload.Event.allCases.map { SystemEvent.message($0, to: file) } }
  }
}

extension NameLength {
  /// A few names, no invariant beyond "no dead end".
  public static let model = MachineModel(
    table: table, context: Context(), alphabet: [.editName(""), .editName("Ada"), .editName("Grace Hopper")], invariants: [])
}

extension Counter {
  /// Every tick counts one (explored to its depth: the count has no end).
  public static let model = MachineModel(table: table, context: Context(), alphabet: Event.allCases, invariants: [])
}
