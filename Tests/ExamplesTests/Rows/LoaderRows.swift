import Foundation
import StateMachine
import StateMachineExamples
import Testing

@Suite("Loader transitions")
struct LoaderRows {
  typealias Case = ChartCase<Loader.State, Loader.Event, Loader.Context>
  static let page = ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
  static var onePage: Loader.Context {
    var context = Loader.Context()
    context.pages = [page]
    return context
  }
  static func failedOnce(_ attempts: Int) -> Loader.Context {
    var context = onePage
    (context.attempts, context.lastError) = (attempts, .network)
    return context
  }

  static let cases: [Case] = [
    Case("load from idle", [.idle], .init(), .load, to: [.loading], effects: ["fetch(page 1) (in state)"]),
    Case("load the next page", [.success], onePage, .load, to: [.loading], effects: ["fetch(page 2) (in state)"]),
    Case("load while loading is ignored", [.loading], onePage, .load, to: [.loading]),
    Case("load while a retry is pending is ignored", [.failure], failedOnce(1), .load, to: [.failure]),
    Case("load while waiting for the user is ignored", [.retry], failedOnce(3), .load, to: [.retry]),
    Case("a cached page is shown and refreshed", [.loading], .init(), .loaded(page: 1, users: page, fromCache: true),
         to: [.success], effects: ["refresh(page 1)"]) { ($0.pages, $0.fromCache) = ([page], true) },
    Case("a page from the network", [.loading], onePage, .loaded(page: 2, users: ["Edsger Dijkstra"], fromCache: false),
         to: [.success]) { $0.pages.append(["Edsger Dijkstra"]) },
    Case("first failure: retry after 1 s", [.loading], onePage, .failed(.network), to: [.failure],
         effects: ["after 1 s: retryNow (in state)"]) { ($0.attempts, $0.lastError) = (1, .network) },
    Case("second failure: retry after 2 s", [.loading], failedOnce(1), .failed(.decode), to: [.failure],
         effects: ["after 2 s: retryNow (in state)"]) { ($0.attempts, $0.lastError) = (2, .decode) },
    Case("third failure: wait for the user", [.loading], failedOnce(2), .failed(.unknown), to: [.retry]) {
      ($0.attempts, $0.lastError) = (3, .unknown)
    },
    Case("the backoff elapsed", [.failure], failedOnce(1), .retryNow, to: [.loading], effects: ["fetch(page 2) (in state)"]),
    Case("the user retries", [.retry], failedOnce(3), .retry, to: [.loading], effects: ["fetch(page 2) (in state)"]) {
      ($0.attempts, $0.lastError) = (0, nil)
    },
    Case("a refresh replaces its page", [.success], onePage, .refreshed(page: 1, users: ["Barbara Liskov"]), to: [.success]) {
      $0.pages = [["Barbara Liskov"]]
    },
    Case("a refresh of a page no longer shown changes nothing", [.idle], .init(), .refreshed(page: 1, users: ["X"]), to: [.idle]),
    Case("reset clears the list", [.success], onePage, .reset, to: [.idle], effects: ["cancel refresh"]) { $0 = .init() },
    Case("a late page is not appended twice", [.loading], onePage, .loaded(page: 1, users: page, fromCache: false),
         to: [.success]),
  ]

  @Test(arguments: cases) func transition(_ c: Case) throws { try c.check(Loader.chart) }
  @Test func everyTransitionIsCovered() throws { try expectEveryTransitionCovered(by: Self.cases, of: Loader.chart) }

  @Test func retriesFollowThePolicy() {
    #expect(Loader.retryPolicy.delay(forAttempt: 1) == .seconds(1))
    #expect(Loader.retryPolicy.delay(forAttempt: 2) == .seconds(2))
    #expect(Loader.retryPolicy.allowsRetry(after: 2) == false)
  }
}

@Suite("Phone-login transitions")
struct PhoneLoginRows {
  typealias Case = ChartCase<PhoneLogin.State, PhoneLogin.Event, PhoneLogin.Context>
  static let filled = PhoneLogin.Context(phone: "13800138000", code: "123456")
  static let agreed = PhoneLogin.Context(phone: "13800138000", code: "123456", agreed: true)
  static let user = User(id: 7, name: "Li Lei", phone: "13800138000")
  static var failed: PhoneLogin.Context {
    var context = agreed
    context.message = "wrong verification code"
    return context
  }
  static func counting(_ remaining: Int) -> PhoneLogin.Context {
    var context = filled
    (context.countdown.remaining, context.countdown.sentBefore) = (remaining, true)
    return context
  }
  static let login = #"login("13800138000", "123456") (in state)"#

  static let cases: [Case] = [
    Case("edit phone", [.editing, .idle], .init(), .editPhone("1"), to: [.editing, .idle]) { $0.phone = "1" },
    Case("edit code", [.editing, .idle], .init(), .editCode("2"), to: [.editing, .idle]) { $0.code = "2" },
    Case("tick the agreement", [.editing, .idle], .init(), .toggleAgreement, to: [.editing, .idle]) { $0.agreed = true },
    Case("edit phone after a failure", [.failed, .idle], failed, .editPhone("1"), to: [.editing, .idle]) {
      ($0.phone, $0.message) = ("1", nil)
    },
    Case("edit code after a failure", [.failed, .idle], failed, .editCode("2"), to: [.editing, .idle]) {
      ($0.code, $0.message) = ("2", nil)
    },
    Case("untick after a failure", [.failed, .idle], failed, .toggleAgreement, to: [.editing, .idle]) {
      ($0.agreed, $0.message) = (false, nil)
    },
    Case("submit without a code is ignored", [.editing, .idle], .init(phone: "13800138000"), .submit, to: [.editing, .idle]),
    Case("submit with the agreement", [.editing, .idle], agreed, .submit, to: [.submitting, .idle], effects: [login]),
    Case("submit after a failure", [.failed, .idle], failed, .submit, to: [.submitting, .idle], effects: [login]) {
      $0.message = nil
    },
    Case("submit without the agreement opens the alert", [.editing, .idle], filled, .submit, to: [.awaitingAgreement, .idle]),
    Case("confirm ticks and submits", [.awaitingAgreement, .idle], filled, .confirmAgreement, to: [.submitting, .idle],
         effects: [login]) { $0.agreed = true },
    Case("cancel goes back", [.awaitingAgreement, .idle], filled, .cancelAgreement, to: [.editing, .idle]),
    Case("logged in", [.submitting, .idle], agreed, .loginSucceeded(user), to: [.loggedIn, .idle]) { $0.user = user },
    Case("the server refuses", [.submitting, .idle], agreed, .loginFailed("wrong verification code"), to: [.failed, .idle]) {
      $0.message = "wrong verification code"
    },
    Case("reset re-enters both regions (leaving them ends their work)", [.submitting, .counting], counting(30), .reset,
         to: [.editing, .idle]) { $0 = .init() },
    Case("request a code while counting is ignored", [.editing, .counting], counting(30), .requestCode, to: [.editing, .counting]),
    Case("request a code for an invalid number", [.awaitingAgreement, .idle], .init(phone: "12"), .requestCode,
         to: [.awaitingAgreement, .idle]) { $0.message = "enter a valid phone number" },
    Case("request a code", [.editing, .idle], filled, .requestCode, to: [.editing, .requesting],
         effects: [#"requestCode("13800138000") (in state)"#]),
    Case("code sent: the countdown starts", [.submitting, .requesting], filled, .codeSent, to: [.submitting, .counting],
         effects: ["every 1 s: tick (in state)"]) { ($0.countdown.remaining, $0.countdown.sentBefore) = (60, true) },
    Case("the code request failed", [.editing, .requesting], filled, .codeRequestFailed("busy"), to: [.editing, .idle]) {
      $0.message = "busy"
    },
    Case("a late code is ignored", [.editing, .counting], counting(30), .codeSent, to: [.editing, .counting]),
    Case("a late failure is ignored", [.editing, .counting], counting(30), .codeRequestFailed("busy"), to: [.editing, .counting]),
    Case("a late tick is ignored", [.editing, .idle], filled, .tick, to: [.editing, .idle]),
    Case("a tick in any step", [.loggedIn, .counting], counting(2), .tick, to: [.loggedIn, .counting]) {
      $0.countdown.remaining = 1
    },
    Case("the last tick ends counting (and its ticker)", [.awaitingAgreement, .counting], counting(1), .tick,
         to: [.awaitingAgreement, .idle]) { $0.countdown.remaining = 0 },
  ]

  @Test(arguments: cases) func transition(_ c: Case) throws { try c.check(PhoneLogin.chart) }
  @Test func everyTransitionIsCovered() throws { try expectEveryTransitionCovered(by: Self.cases, of: PhoneLogin.chart) }

  struct Body: Sendable, CustomTestStringConvertible {
    let label: String
    let json: String
    let result: Result<User, APIResponseError>
    var testDescription: String { label }
  }

  @Test(arguments: [
    Body(label: "code 0 with data", json: #"{"code":0,"message":"ok","data":{"id":1,"name":"A","phone":"1"}}"#,
         result: .success(User(id: 1, name: "A", phone: "1"))),
    Body(label: "code -1 with a message", json: #"{"code":-1,"message":"wrong verification code","data":null}"#,
         result: .failure(.server("wrong verification code"))),
    Body(label: "a code without a message", json: #"{"code":5}"#, result: .failure(.server("error 5"))),
    Body(label: "code 0 without data", json: #"{"code":0,"message":"ok"}"#, result: .failure(.unreadable)),
    Body(label: "data of another shape", json: #"{"code":0,"data":{"id":"x"}}"#, result: .failure(.unreadable)),
    Body(label: "not JSON", json: "<html>502</html>", result: .failure(.unreadable)),
    Body(label: "empty body", json: "", result: .failure(.unreadable)),
  ])
  func responses(_ body: Body) {
    #expect(APIResponse<User>.decode(Data(body.json.utf8)) == body.result)
  }
}
