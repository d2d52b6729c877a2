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

  /// Failures recorded while `capturing` is set: kept here instead of failing the test.
  nonisolated(unsafe) var captured: [(description: String, line: Int)] = []  // touched only by this test's own calls
  nonisolated(unsafe) var capturing = false

  override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
    if capturing {
      captured.append((description, lineNumber))
    } else {
      super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  func testAFailedAssertionIsRecordedAtTheCallSiteAndThrown() async throws {
    let store = TestStore { clock, inspector in
      Captcha.store(codes: .fake(clock: clock), clock: clock, inspector: inspector)
    }
    capturing = true
    let line = #line + 2
    do {
      try await store.send(.tap, to: .requesting)
      capturing = false
      XCTFail("the wrong state was not reported")
    } catch let failure as TestStoreFailure {
      capturing = false
      XCTAssertTrue(failure.message.contains("expected the state requesting, got idle"), failure.message)
      XCTAssertTrue(failure.description.contains("XCTestStoreTests.swift:"), failure.description)
    }
    XCTAssertEqual(captured.map(\.line), [line], "recorded as an XCTest failure at the line of the call")
    XCTAssertTrue(captured.first?.description.contains("expected the state requesting, got idle") == true)
    try? await store.finish()
  }
}
