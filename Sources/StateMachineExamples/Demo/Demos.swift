public import StateMachineChecking
import Foundation
import StateMachine

extension Login {
  /// What the login screen shows.
  public static func screen(_ state: State, _ context: Context) -> String {
    switch state {
    case .welcome: "welcome"
    case .credentials: "form " + quoted(context.username) + (context.error.map { ", error: \($0)" } ?? "")
    case .authenticating: "signing in…"
    case .success: "signed in as \(context.username)"
    }
  }

  /// Empty fields, a wrong password, then the right one.
  public static let demo = MachineDemo(
    name: table.name, summary: "empty fields, a wrong password, then admin / 123456 (the authenticator takes 1 s)",
    script: [
      .send(.start), .send(.editUsername("admin")), .send(.submit),
      .send(.editPassword("nope")), .send(.submit), .wait(.seconds(1)),
      .send(.editPassword("123456")), .send(.submit), .wait(.seconds(1)),
    ],
    makeStore: { clock, inspector in store(services: .fake(clock: clock), clock: clock, inspector: inspector) },
    show: screen)
}

extension Loader {
  /// What the list shows.
  public static func screen(_ configuration: [State], _ context: Context) -> String {
    let list = "\(context.users.count) users, next page \(context.nextPage)"
    switch step(configuration) {
    case .idle, .success: return list + (context.fromCache ? " (page \(context.pages.count) from cache)" : "")
    case .loading: return list + ", loading…"
    case .failure: return list + ", \(context.lastError.map { "\($0)" } ?? "") error, retrying"
    case .retry: return list + ", \(context.lastError.map { "\($0)" } ?? "") error: tap retry"
    case .list, .ready, .fetching: return list
    }
  }

  /// Two pages, a double tap, a failing page retried twice then by hand, a reset answered from the cache.
  public static let demo = MachineDemo(
    name: chart.name,
    summary: "two pages (a second tap while loading is ignored), three network failures (two automatic retries, then the user's), a reset answered from the in-memory cache and refreshed",
    script: [
      .send(.load), .wait(.milliseconds(500)), .send(.load), .send(.load), .wait(.milliseconds(500)),
      .send(.load), .wait(.seconds(5)), .send(.retry), .wait(.milliseconds(500)),
      .send(.reset), .send(.load), .wait(.milliseconds(500)),
    ] as [DemoStep<Event>],
    makeStore: { clock, inspector -> Runtime in
      let server = FakeUserServer(clock: clock)
      server.queue(.users, .users, .networkFailure, .networkFailure, .networkFailure)
      let services = LoaderServices(fetchPage: server.fetchPage, cache: InMemoryUserCache())
      return store(services: services, clock: clock, inspector: inspector)
    },
    show: screen)
}

extension Captcha {
  /// What the button and the message under it show.
  public static func screen(_ state: State, _ context: Context) -> String {
    "button: \(buttonLabel(state, context))\(isButtonEnabled(state) ? "" : " (disabled)")"
      + (context.message.map { ", message: \($0)" } ?? "")
  }

  /// An empty and an invalid number, a code, the countdown to "resend".
  public static let demo = MachineDemo(
    name: table.name, summary: "an empty and an invalid number, then a code (sent in 1 s) and its 60 s countdown",
    script: [
      .send(.tap), .send(.editPhone("12345")), .send(.tap), .send(.editPhone("13800138000")), .send(.tap),
      .wait(.seconds(1)), .send(.tap), .wait(.seconds(60)),
    ],
    makeStore: { clock, inspector in store(codes: .fake(clock: clock), clock: clock, inspector: inspector) },
    show: screen)
}

extension Registration {
  /// The four requirement marks and the submit button.
  public static func screen(_ state: State, _ context: Context) -> String {
    let r = context.requirements
    let marks = [r.usernameLongEnough, r.passwordLongEnough, r.passwordHasUppercase, r.confirmationMatches]
      .map { $0 ? "✓" : "·" }.joined()
    return "requirements \(marks), submit \(context.canSubmit ? "enabled" : "disabled")"
      + (context.message.map { ", message: \($0)" } ?? "")
  }

  /// Typing until every requirement holds, a taken name, then a free one.
  public static let demo = MachineDemo(
    name: table.name, summary: "typing until all four requirements hold, a taken username, then a free one",
    script: [
      .send(.editUsername("adm")), .send(.editUsername("admin")), .send(.editPassword("secret")),
      .send(.submit), .send(.editPassword("secretpassword")), .send(.editPassword("Secretpassword")),
      .send(.editConfirmation("Secretpassword")), .send(.submit), .wait(.seconds(1)),
      .send(.editUsername("ada")), .send(.editUsername("ada.l")), .send(.submit), .wait(.seconds(1)),
    ],
    makeStore: { clock, inspector in store(registrar: .fake(clock: clock), clock: clock, inspector: inspector) },
    show: screen)
}

extension PhoneLogin {
  /// The code button, the form and the message.
  public static func screen(_ configuration: [State], _ context: Context) -> String {
    var parts = ["code button: \(codeButton(configuration, context))"]
    if configuration.contains(.awaitingAgreement) { parts.append("alert: accept the user agreement?") }
    if let message = context.message { parts.append("message: \(message)") }
    if let user = context.user { parts.append("welcome, \(user.name)") }
    return parts.joined(separator: ", ")
  }

  /// A code, the agreement alert, a wrong code, the right one, and the countdown to its end.
  public static let demo = MachineDemo(
    name: chart.name,
    summary: "request a code (60 s countdown), the agreement alert, a wrong code, the right one; the countdown runs on to \"resend\"",
    script: [
      .send(.editPhone("13800138000")), .send(.requestCode), .wait(.seconds(1)),
      .send(.editCode("000000")), .send(.submit), .send(.cancelAgreement), .send(.submit), .send(.confirmAgreement),
      .wait(.seconds(1)), .send(.editCode("123456")), .send(.submit), .wait(.seconds(1)), .wait(.seconds(60)),
    ],
    makeStore: { clock, inspector in store(services: .fake(clock: clock), clock: clock, inspector: inspector) },
    show: screen)
}

extension NameLength {
  /// Typing a name, letter by letter.
  public static let demo = MachineDemo(
    name: table.name, summary: "typing a name",
    script: [.send(.editName("A")), .send(.editName("Ad")), .send(.editName("Ada"))],
    makeStore: { clock, inspector in
      Store(table, context: Context(), clock: clock, handler: { _, _ in }, inspector: inspector)
    },
    show: { _, context in context.label })
}

extension Counter {
  /// Five seconds of ticks.
  public static let demo = MachineDemo(
    name: table.name, summary: "five seconds of the 1 s timer",
    script: [.wait(.seconds(5))],
    makeStore: { clock, inspector in store(clock: clock, inspector: inspector) },
    show: { _, context in "count: \(context.count)" })
}

extension UploadQueue {
  /// The summary.
  public static func screen(_ configuration: [State], _ context: Context) -> String { context.summary }

  /// Four files, two at a time: one fails once and is retried, one fails for good; a fifth
  /// file is added while the others upload.
  public static let demo = MachineDemo(
    name: chart.name,
    summary: "four files, two at a time, each its own child machine: a flaky one retried, a broken one given up; a fifth added on the way",
    script: [
      .send(.add(["a.jpg", "flaky.png", "broken.gif", "d.mov"])), .wait(.seconds(3)), .send(.add(["e.txt"])), .wait(.seconds(12)),
    ],
    makeStore: { clock, inspector in store(services: .fake(clock: clock), clock: clock, inspector: inspector) },
    show: screen)
}
