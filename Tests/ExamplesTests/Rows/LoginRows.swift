import StateMachine
import StateMachineExamples
import Testing

@Suite("Login rows")
struct LoginRows {
  typealias Case = RowCase<Login.State, Login.Event, Login.Context>
  static let filled = Login.Context(username: "admin", password: "123456")

  static let cases: [Case] = [
    Case("start opens the form", .welcome, .init(), .start, to: .credentials),
    Case("editing the username", .credentials, .init(), .editUsername("ada"), to: .credentials) { $0.username = "ada" },
    Case("editing the password", .credentials, .init(), .editPassword("pw"), to: .credentials) { $0.password = "pw" },
    Case("submit with an empty password", .credentials, .init(username: "ada"), .submit, to: .credentials) {
      $0.error = "username and password must not be empty"
    },
    Case("submit with both fields", .credentials, .init(username: "admin", password: "123456", error: "old"), .submit,
         to: .authenticating, effects: [#"authenticate("admin") (in state)"#]) { $0.error = nil },
    Case("accepted", .authenticating, filled, .authenticated, to: .success),
    Case("refused", .authenticating, filled, .authenticationFailed, to: .credentials) {
      $0.error = "wrong username or password"
    },
    Case("reset from success clears the fields", .success, filled, .reset, to: .welcome) { $0 = .init() },
    Case("reset while authenticating", .authenticating, filled, .reset, to: .welcome) { $0 = .init() },
    Case("an edit on the welcome screen is ignored", .welcome, .init(), .editUsername("x"), to: .welcome),
    Case("submit while authenticating is ignored", .authenticating, filled, .submit, to: .authenticating),
  ]

  @Test(arguments: cases) func row(_ c: Case) { c.check(Login.table) }
  @Test func everyRowIsCovered() { expectEveryRowCovered(by: Self.cases, of: Login.table) }
}

@Suite("Captcha rows")
struct CaptchaRows {
  typealias Case = RowCase<Captcha.State, Captcha.Event, Captcha.Context>
  static let valid = Captcha.Context(phone: "13800138000")
  static func counting(_ remaining: Int) -> Captcha.Context {
    var context = valid
    (context.remaining, context.sentBefore) = (remaining, true)
    return context
  }

  static let cases: [Case] = [
    Case("editing the phone", .idle, .init(), .editPhone("138"), to: .idle) { $0.phone = "138" },
    Case("editing the phone while counting", .counting, counting(5), .editPhone("1"), to: .counting) { $0.phone = "1" },
    Case("tap with an empty phone", .idle, .init(), .tap, to: .idle) { $0.message = "enter a valid phone number" },
    Case("tap with 10 digits", .idle, .init(phone: "1380013800"), .tap, to: .idle) { $0.message = "enter a valid phone number" },
    Case("tap with letters", .idle, .init(phone: "1380013800a"), .tap, to: .idle) { $0.message = "enter a valid phone number" },
    Case("tap with a valid phone", .idle, valid, .tap, to: .requesting, effects: [#"requestCode("13800138000") (in state)"#]),
    Case("tap while requesting is ignored", .requesting, valid, .tap, to: .requesting),
    Case("tap while counting is ignored", .counting, counting(30), .tap, to: .counting),
    Case("code sent: count from 60", .requesting, valid, .codeSent, to: .counting, effects: ["every 1 s: tick (in state)"]) {
      ($0.remaining, $0.sentBefore) = (60, true)
    },
    Case("request failed", .requesting, valid, .requestFailed("no network"), to: .idle) { $0.message = "no network" },
    Case("a tick counts down", .counting, counting(60), .tick, to: .counting) { $0.remaining = 59 },
    Case("the last tick ends the countdown", .counting, counting(1), .tick, to: .idle) { $0.remaining = 0 },
    Case("reset while counting", .counting, counting(12), .reset, to: .idle) { $0 = .init() },
  ]

  @Test(arguments: cases) func row(_ c: Case) { c.check(Captcha.table) }
  @Test func everyRowIsCovered() { expectEveryRowCovered(by: Self.cases, of: Captcha.table) }

  @Test(arguments: [
    ("13800138000", true), ("", false), ("1380013800", false), ("138001380000", false), ("23800138000", false),
    ("1380013800a", false), ("１３８００１３８０００", false),
    // Eleven characters that are not eleven ASCII digits: a combining mark on the last digit,
    // Arabic-Indic digits after a 1, a CRLF (one character).
    ("13800138000\u{301}", false), ("1٣٨٠٠١٣٨٠٠٠", false), ("138001380\r\n", false),
  ])
  func phoneValidation(_ phone: String, _ valid: Bool) {
    #expect(Captcha.isValidPhone(phone) == valid, "\(phone)")
  }
}
