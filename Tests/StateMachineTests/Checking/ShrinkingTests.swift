@testable import StateMachineChecking
import Testing

/// The one shrinker property checks of tables and charts use: whatever it returns still fails,
/// and is 1-minimal (no single event can be removed or simplified and still fail).
@Suite("Shrinking a failing sequence")
struct ShrinkingTests {
  struct Case: Sendable, CustomStringConvertible {
    let description: String
    let events: [Int]
    /// The prefix that fails, or nil (as a property check reports it).
    let failing: @Sendable ([Int]) -> [Int]?
    let simpler: @Sendable (Int) -> [Int]
    /// What the shrunk sequence must be, when only one answer is minimal.
    let expected: [Int]?
  }

  static let cases: [Case] = [
    Case(
      description: "a 7 somewhere before a 9: everything else goes", events: [1, 7, 2, 3, 4, 9, 5, 6],
      failing: { events in
        guard let seven = events.firstIndex(of: 7), let nine = events[seven...].firstIndex(of: 9) else { return nil }
        return Array(events[...nine])
      }, simpler: { _ in [] }, expected: [7, 9]),
    Case(
      description: "fails at the first 0: cut after it", events: [3, 0, 4, 4, 4, 4],
      failing: { events in events.firstIndex(of: 0).map { Array(events[...$0]) } }, simpler: { _ in [] }, expected: [0]),
    Case(
      description: "a running sum reaches 10: payloads are simplified too", events: [3, 8, 1, 6, 2, 9],
      failing: { events in
        var sum = 0
        for (n, event) in events.enumerated() {
          sum += event
          if sum >= 10 { return Array(events[...n]) }
        }
        return nil
      }, simpler: { n in n > 0 ? [n / 2, n - 1] : [] }, expected: nil),
    Case(
      description: "two events of the same value anywhere (one event at a time, [1, 1] is as simple as it gets)", events: [5, 1, 2, 3, 1, 4],
      failing: { events in
        var seen = Set<Int>()
        for (n, event) in events.enumerated() {
          if !seen.insert(event).inserted { return Array(events[...n]) }
        }
        return nil
      }, simpler: { n in n > 0 ? [0] : [] }, expected: [1, 1]),
  ]

  @Test("the shrunk sequence fails, and no single event can be removed or simplified", arguments: cases)
  func shrinks(_ c: Case) {
    let shrunk = Shrinking(failing: c.failing, simpler: c.simpler).shrink(c.events)
    #expect(c.failing(shrunk) == shrunk, "it still fails, and nothing follows the failure")
    for i in shrunk.indices {
      var removed = shrunk
      removed.remove(at: i)
      #expect(c.failing(removed) == nil, "removing event \(i) of \(shrunk) still fails")
      for simpler in c.simpler(shrunk[i]) {
        var simplified = shrunk
        simplified[i] = simpler
        #expect(c.failing(simplified) == nil, "simplifying event \(i) of \(shrunk) to \(simpler) still fails")
      }
    }
    if let expected = c.expected { #expect(shrunk == expected) }
  }
}
