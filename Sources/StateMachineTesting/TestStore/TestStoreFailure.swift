/// An assertion of a ``TestStore`` that did not hold: thrown, so it fails the test in Swift
/// Testing (`#expect(throws:)` aside, any thrown error is a failure) and in XCTest alike.
public struct TestStoreFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was expected and what happened.
  public let message: String
  /// Where the failing assertion was made.
  public let file: String
  /// The line of the failing assertion.
  public let line: Int

  init(_ message: String, file: StaticString, line: UInt) {
    (self.message, self.file, self.line) = (message, "\(file)", Int(line))
  }

  public var description: String { "\(file):\(line): \(message)" }
}

/// How strictly a ``TestStore`` checks.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum Exhaustivity: Hashable, Sendable {
  /// Every step's state, context and effects are asserted, every event that effects send must
  /// be received, every child's step and every effect that failed with no event for the
  /// machine must be asserted, and no effect may still run when the test finishes (the
  /// default).
  case on
  /// Only what a test asserts is checked: a context change asserts just the fields it sets,
  /// effects are checked only when given, `receive` skips events it was not asked for, and
  /// `finish` cancels whatever still runs.
  case off
}

/// The lines of `dump(expected)` and `dump(actual)` that differ, for failure messages.
func difference<T>(expected: T, actual: T) -> String {
  var left = "", right = ""
  dump(expected, to: &left)
  dump(actual, to: &right)
  let (a, b) = (left.split(separator: "\n"), right.split(separator: "\n"))
  var lines: [String] = []
  for index in 0..<max(a.count, b.count) {
    let (x, y) = (index < a.count ? String(a[index]) : "", index < b.count ? String(b[index]) : "")
    if x != y { lines.append("  − expected: \(x.trimmingLeadingSpaces)\n  + actual:   \(y.trimmingLeadingSpaces)") }
  }
  return lines.joined(separator: "\n")
}

extension String {
  fileprivate var trimmingLeadingSpaces: Substring { drop { $0 == " " } }
}
