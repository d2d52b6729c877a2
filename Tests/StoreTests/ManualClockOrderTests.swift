import StateMachine
import Testing

/// On a `ManualClock`, what falls due at the same instant runs in the order it was scheduled:
/// a sleep in a store's effect as of when the store started the effect. Effects run in tasks
/// of their own there, which reach their sleeps in whatever order the executor runs them; the
/// order of what they then send must not depend on it (a recorded system's log did: two
/// uploads ending at the same second were logged in either order).
@Suite("ManualClock: the same instant, in the order the effects started")
struct ManualClockOrderTests {
  enum Phase: Hashable, Sendable, Discriminated { case idle }
  enum Go: Hashable, Sendable, Discriminated { case go }
  typealias Table = TransitionTable<Phase, Go, NoContext, Command<Go, Int>>

  struct Case: CustomTestStringConvertible, Sendable {
    let label: String
    /// How long each of the step's eight effects sleeps, by its number.
    let delay: @Sendable (Int) -> Duration
    /// The order they must wake in.
    let expected: [Int]
    var testDescription: String { label }
  }

  static let cases = [
    Case(label: "eight effects of one step, each sleeping one second", delay: { _ in .seconds(1) }, expected: Array(0..<8)),
    Case(
      label: "the same, the odd ones sleeping half a second", delay: { $0 % 2 == 1 ? .milliseconds(500) : .seconds(1) },
      expected: [1, 3, 5, 7, 0, 2, 4, 6]),
  ]

  @Test("effects started in one step wake in their start order at each instant, every time", arguments: cases)
  func startOrder(_ example: Case) async throws {
    let table = try Table(
      initial: .idle,
      rows: [.stay(in: .idle, on: .go, effects: .perform(0), .perform(1), .perform(2), .perform(3), .perform(4), .perform(5), .perform(6), .perform(7))])
    // (Many rounds: before the fix, tasks that raced to their sleeps woke in the order they got
    // there, which differed from round to round.)
    for round in 0..<40 {
      let clock = ManualClock()
      let woke = Guarded<[Int]>([])
      let store = Store(table, context: NoContext(), clock: clock) { job, _ in
        try await clock.sleep(for: example.delay(job))
        woke.withLock { $0.append(job) }
      }
      store.send(.go)
      await clock.advance(by: .seconds(1))
      #expect(woke.withLock { $0 } == example.expected, "round \(round)")
      await store.finish()
    }
  }
}
