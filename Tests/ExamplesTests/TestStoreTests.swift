import Foundation
import StateMachine
import StateMachineExamples
import StateMachineTesting
import Testing

/// The exhaustive test store, driven through the example machines.
@Suite("TestStore")
struct TestStoreTests {
  /// The issue lands on the line of the failing call, as well as being thrown.
  @Test("a failed assertion is recorded as an issue at the line of the call")
  func failureAtTheCallSite() async throws {
    let store = Self.login()
    let lines = Guarded<[Int]>([])
    let line = #line + 3
    try await withKnownIssue("the state is not welcome", isIntermittent: false) {
      try await store.send(.start, to: .credentials)
      try await store.send(.editUsername("admin"), to: .welcome) { $0.username = "admin" }
    } matching: { issue in
      lines.withLock { $0.append(issue.sourceLocation?.line ?? -1) }
      return true
    }
    #expect(lines.withLock { $0 }.contains(line), "issues at lines \(lines.withLock { $0 }), expected \(line)")
    try? await store.finish()
  }

  static func login(
    _ exhaustivity: Exhaustivity = .on, reportsFailures: Bool = true
  ) -> TestStore<TransitionTable<Login.State, Login.Event, Login.Context, Command<Login.Event, Login.Work>>> {
    TestStore(exhaustivity: exhaustivity, reportsFailures: reportsFailures) { clock, inspector in
      Login.store(services: .fake(clock: clock), clock: clock, inspector: inspector)
    }
  }

  static let authenticate: Login.Effect = .perform(
    .authenticate(username: "admin", password: "123456"), id: "authenticate", scope: .state)

  // The README's TestStore example, as written there.
  @Test func login() async throws {
      let store = TestStore { clock, inspector in
          Login.store(services: .fake(clock: clock), clock: clock, inspector: inspector)
      }
      try await store.send(.start, to: .credentials)
      try await store.send(.editUsername("admin")) { $0.username = "admin" }
      try await store.send(.editPassword("123456")) { $0.password = "123456" }
      try await store.send(.submit, to: .authenticating, effects: [
          .perform(.authenticate(username: "admin", password: "123456"), id: "authenticate", scope: .state)])
      await store.advance(by: .seconds(1))
      try await store.receive(.authenticated, to: .success)
      try await store.finish()
  }

  @Test func aWholeLoginAssertedStepByStep() async throws {
    let store = Self.login()
    try await store.send(.start, to: .credentials)
    try await store.send(.editUsername("admin")) { $0.username = "admin" }
    try await store.send(.editPassword("123456")) { $0.password = "123456" }
    try await store.send(.submit, to: .authenticating, effects: [Self.authenticate])
    await store.advance(by: .seconds(1))
    try await store.receive(.authenticated, to: .success)
    try await store.finish()
    #expect(store.state == .success)
  }

  @Test func theCountdownReceivedTickByTick() async throws {
    let store = TestStore { clock, inspector in
      PhoneLogin.store(services: .fake(clock: clock), clock: clock, inspector: inspector)
    }
    try await store.send(.editPhone("13800138000")) { $0.phone = "13800138000" }
    try await store.send(
      .requestCode, to: [.editing, .requesting], effects: [.perform(.requestCode(phone: "13800138000"), id: "request", scope: .state)])
    await store.advance(by: .seconds(1))
    try await store.receive(.codeSent, to: [.editing, .counting], effects: [.every(.seconds(1), send: .tick, id: "ticker", scope: .state)]) {
      ($0.countdown.remaining, $0.countdown.sentBefore) = (60, true)
    }
    for remaining in stride(from: 59, through: 1, by: -1) {
      await store.advance(by: .seconds(1))
      try await store.receive(.tick) { $0.countdown.remaining = remaining }
    }
    await store.advance(by: .seconds(1))
    // Leaving `counting` ends its ticker: nothing is left running.
    try await store.receive(.tick, to: [.editing, .idle]) { $0.countdown.remaining = 0 }
    try await store.finish()
  }

  /// What each broken assertion gets: a `TestStoreFailure` whose message says what differed.
  struct Mistake: Sendable, CustomTestStringConvertible {
    let label: String
    let message: String
    let run: @Sendable (TestStore<TransitionTable<Login.State, Login.Event, Login.Context, Command<Login.Event, Login.Work>>>) async throws -> Void
    var testDescription: String { label }
  }

  @Test(arguments: [
    Mistake(label: "wrong state", message: "expected the state welcome, got credentials") { store in
      try await store.send(.start, to: .welcome)
    },
    Mistake(label: "unasserted context change", message: "the context differs") { store in
      try await store.send(.start, to: .credentials)
      try await store.send(.editUsername("admin"))
    },
    Mistake(label: "wrong context change", message: "+ actual:   - username: \"admin\"") { store in
      try await store.send(.start, to: .credentials)
      try await store.send(.editUsername("admin")) { $0.username = "root" }
    },
    Mistake(label: "unasserted effect", message: "expected the effects [none], got [authenticate(\"admin\") (in state)]") { store in
      try await store.send(.start, to: .credentials)
      try await store.send(.editUsername("admin")) { $0.username = "admin" }
      try await store.send(.editPassword("1")) { $0.password = "1" }
      try await store.send(.submit, to: .authenticating)
    },
    Mistake(label: "receive without advancing the clock", message: "no event arrived (advance the clock") { store in
      try await store.send(.start, to: .credentials)
      try await store.send(.editUsername("admin")) { $0.username = "admin" }
      try await store.send(.editPassword("1")) { $0.password = "1" }
      try await store.send(.submit, to: .authenticating, effects: [.perform(.authenticate(username: "admin", password: "1"), id: "authenticate", scope: .state)])
      try await store.receive(.authenticationFailed, to: .credentials)
    },
    Mistake(label: "receive the wrong event", message: "expected to receive authenticated, but received authenticationFailed") { store in
      try await store.send(.start, to: .credentials)
      try await store.send(.editUsername("admin")) { $0.username = "admin" }
      try await store.send(.editPassword("1")) { $0.password = "1" }
      try await store.send(.submit, to: .authenticating, effects: [.perform(.authenticate(username: "admin", password: "1"), id: "authenticate", scope: .state)])
      await store.advance(by: .seconds(1))
      try await store.receive(.authenticated, to: .success)
    },
    Mistake(label: "send before receiving", message: "sent reset while 1 received event(s) were not asserted: authenticated") { store in
      try await store.send(.start, to: .credentials)
      try await store.send(.editUsername("admin")) { $0.username = "admin" }
      try await store.send(.editPassword("123456")) { $0.password = "123456" }
      try await store.send(.submit, to: .authenticating, effects: [TestStoreTests.authenticate])
      await store.advance(by: .seconds(1))
      try await store.send(.reset, to: .welcome) { $0 = .init() }
    },
    Mistake(label: "finish with a received event unasserted", message: "the test ended with 1 received event(s) not asserted") { store in
      try await store.send(.start, to: .credentials)
      try await store.send(.editUsername("admin")) { $0.username = "admin" }
      try await store.send(.editPassword("123456")) { $0.password = "123456" }
      try await store.send(.submit, to: .authenticating, effects: [TestStoreTests.authenticate])
      await store.advance(by: .seconds(1))
      try await store.finish()
    },
    Mistake(label: "finish with an effect still running", message: "the test ended with effects still running: authenticate: authenticate(\"admin\") (in state)") { store in
      try await store.send(.start, to: .credentials)
      try await store.send(.editUsername("admin")) { $0.username = "admin" }
      try await store.send(.editPassword("123456")) { $0.password = "123456" }
      try await store.send(.submit, to: .authenticating, effects: [TestStoreTests.authenticate])
      try await store.finish()
    },
  ])
  func mistakesFailWithAMessage(_ mistake: Mistake) async {
    let store = Self.login(reportsFailures: false)
    do {
      try await mistake.run(store)
      Issue.record("\(mistake.label) was not reported")
    } catch let failure as TestStoreFailure {
      #expect(failure.message.contains(mistake.message), "\(failure.message)")
      #expect(failure.file.hasSuffix("TestStoreTests.swift"), "the failure names the test's file")
    } catch {
      Issue.record("unexpected error \(error)")
    }
    await store.clock.settle()
    try? await store.finish()
  }

  @Test func nonExhaustiveChecksOnlyWhatIsAsserted() async throws {
    let store = Self.login(.off)
    try await store.send(.start, to: .credentials)
    try await store.send(.editUsername("admin"))
    try await store.send(.editPassword("123456")) { $0.password = "123456" }
    try await store.send(.submit, to: .authenticating)
    try await store.finish()  // the authentication still runs: cancelled, not a failure
    #expect(store.context.username == "admin")
  }

  @Test("not exhaustive: a send without `to:` does not check the state; a stated state still is")
  func nonExhaustiveStateOnlyWhenStated() async throws {
    let store = Self.login(.off, reportsFailures: false)
    try await store.send(.start)  // goes to credentials: not stated, not checked
    #expect(store.state == .credentials)
    await #expect(throws: TestStoreFailure.self) { try await store.send(.editUsername("admin"), to: .success) }
    try await store.finish()
  }

  @Test func nonExhaustiveReceiveSkipsOtherEvents() async throws {
    let store = TestStore(exhaustivity: .off) { clock, inspector in Counter.store(clock: clock, inspector: inspector) }
    await store.start()
    await store.advance(by: .seconds(3))
    try await store.receive(.tick) { $0.count = 1 }
    try await store.receive(.tick) { $0.count = 2 }
    try await store.finish()
  }
}

/// A value behind a lock, for closures that run on other threads.
final class Guarded<Value>: @unchecked Sendable {  // safe: `value` is only touched under `lock`
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}
