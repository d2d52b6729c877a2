import Testing

@testable import StateMachine

/// A machine keeps its state's position in the table between sends; the pure step finds it again
/// from the state each time. After every event of long random sequences both must agree, on
/// every dispatch path and every kind of row (inline, many effects, guarded with fallback,
/// update, stay, ignore, made target, wildcard, entry and exit effects).
@Suite("Machine positions")
struct MachinePositionTests {
  struct Counter: Equatable, Sendable { var n = 0 }
  enum TagState: Hashable, Sendable, Discriminated { case s0, s1, s2, s3 }
  /// Dense dispatch by the one-byte tag of a `CaseIterable` enum.
  enum TagEvent: Hashable, Sendable, CaseIterable, Discriminated { case e0, e1, e2, e3, e4 }
  /// Dense dispatch by ``Discriminated/ordinal(of:)``.
  struct OrdinalEvent: Hashable, Sendable, Discriminated {
    var id: Int
    static func ordinal(of discriminant: Self) -> Int? { discriminant.id }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let run: @Sendable () throws -> Void
  }

  static let cases = [
    Case(testDescription: "dense, one-byte tags") {
      let states: [TagState] = [.s0, .s1, .s2, .s3]
      try agree(states: states, events: TagEvent.allCases)
    },
    Case(testDescription: "dense, ordinal(of:)") {
      try agree(states: ["s0", "s1", "s2", "s3"], events: (0..<5).map(OrdinalEvent.init))
    },
    Case(testDescription: "scan, strings") {
      try agree(states: ["s0", "s1", "s2", "s3"], events: ["e0", "e1", "e2", "e3", "e4"])
    },
  ]

  @Test("send agrees with the pure step after every event", arguments: cases)
  func sendAgreesWithStep(_ c: Case) throws { try c.run() }

  /// The position is 32 bits, kept before the state, so a small state's bytes follow it: every
  /// store and child machine keeps two machines (what readers see, and what steps).
  @Test("a machine of a one-byte state and no context is its table, its position and the state's byte")
  func smallMachineSize() {
    #expect(MemoryLayout<Machine<TagState, TagEvent, NoContext, Int>>.size == 8 + 4 + 1)
  }

  /// Builds the same table over `states` and `events` (four and five of them) and walks it.
  static func agree<S: Discriminated & Equatable, E: Discriminated>(
    states s: [S], events e: [E]
  ) throws where S.Discriminant == S, E.Discriminant == E {
    typealias R = Row<S, E, Counter, Int>
    let below3 = Guard<Counter, E>("below 3") { context, _ in context.n < 3 }
    let table = try TransitionTable<S, E, Counter, Int>(
      initial: s[0],
      states: [.state(s[0]), .state(s[1]), .state(s[2]), .state(s[3], entry: [30], exit: [31])],
      rows: [
        R.transition(from: s[0], on: e[0], to: s[1], effects: 1),
        R.transition(from: s[0], on: e[1], to: s[2], effects: 2, 3),
        R.transition(from: s[1], on: e[0], to: s[2]).when(below3).update { context, _ in context.n += 1 },
        R.transition(from: s[1], on: e[0], to: s[0], effects: 6),
        R.stay(in: s[2], on: e[1], effects: 4).update { context, _ in context.n -= 1 },
        R.ignore(in: s[2], on: e[2]),
        R.transition(from: s[2], on: e[3], toCase: s[3], named: "s3") { _, _ in s[3] },
        R.transition(from: s[3], on: e[0], to: s[1]),
        R.fromAny(on: e[4], to: s[0], effects: 5),
      ],
      validation: .lenient)
    var machine = Machine(table, context: Counter())
    var (state, context) = (s[0], Counter())
    var random = SplitMix64(seed: 42)
    for i in 0..<5_000 {
      let event = e[Int(random.next() % UInt64(e.count))]
      let expected = table.step(state, context, event)
      let outcome = machine.send(event)
      (state, context) = (expected.state, expected.context)
      try #require(outcome == expected.outcome, "event \(i): \(event)")
      try #require(machine.state == state && machine.context == context, "event \(i): \(event)")
    }
  }
}
