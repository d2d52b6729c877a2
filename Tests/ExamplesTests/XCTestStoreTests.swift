import StateMachine
import StateMachineExamples
import StateMachineTesting
import XCTest

/// The test store from XCTest: the same calls, failures thrown as `TestStoreFailure`.
final class XCTestStoreTests: XCTestCase {
  func testCaptchaCountdownWithTheTestStore() async throws {
    let store = TestStore { clock, inspector in
      Captcha.store(codes: .fake(clock: clock), clock: clock, inspector: inspector)
    }
    try await store.send(.editPhone("13800138000")) { $0.phone = "13800138000" }
    try await store.send(.tap, to: .requesting, effects: [.perform(.requestCode(phone: "13800138000"), id: "request", scope: .state)])
    await store.advance(by: .seconds(1))
    try await store.receive(.codeSent, to: .counting, effects: [.every(.seconds(1), send: .tick, id: "ticker", scope: .state)]) {
      ($0.remaining, $0.sentBefore) = (60, true)
    }
    await store.advance(by: .seconds(1))
    try await store.receive(.tick) { $0.remaining = 59 }
    try await store.send(.reset, to: .idle) { $0 = .init() }
    try await store.finish()
    XCTAssertEqual(store.state, .idle)
  }

  func testAFailedAssertionThrowsWithTheCallSite() async throws {
    let store = TestStore { clock, inspector in
      Captcha.store(codes: .fake(clock: clock), clock: clock, inspector: inspector)
    }
    do {
      try await store.send(.tap, to: .requesting)
      XCTFail("the wrong state was not reported")
    } catch let failure as TestStoreFailure {
      XCTAssertTrue(failure.message.contains("expected the state requesting, got idle"), failure.message)
      XCTAssertTrue(failure.description.contains("XCTestStoreTests.swift:"), failure.description)
    }
    try? await store.finish()
  }
}
