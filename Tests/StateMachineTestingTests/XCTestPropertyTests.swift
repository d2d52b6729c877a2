import StateMachine
import StateMachineTesting
import XCTest

/// The same checks from XCTest: a failing property throws, and the thrown error's description
/// (seed, message, minimal sequence) is what XCTest reports.
final class XCTestPropertyTests: XCTestCase {
  func testPassingPropertyDoesNotThrow() throws {
    try PropertyCheck(table: Planted.countdown, context: 0, events: .cases)
      .invariant("remaining at most 3") { _, c in c <= 3 }
      .run(walks: 20, length: 10, seed: 5)
  }

  func testFailingPropertyThrowsWithSeedAndMinimalSequence() {
    XCTAssertThrowsError(
      try PropertyCheck(table: Planted.loader, context: .init(), events: .cases)
        .invariant("at most one request in flight") { _, c in c.inFlight <= 1 }
        .run(walks: 50, length: 20, seed: 21)
    ) { error in
      let text = String(describing: error)
      XCTAssertTrue(text.contains("(seed 21)"), text)
      XCTAssertTrue(text.contains("1. load\n  2. load"), text)
    }
  }
}
