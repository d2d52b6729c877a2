import StateMachine
import Testing

@Suite("Which row wins")
struct PriorityTests {
  typealias R = Row<String, String, NoContext, String>

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let rows: [R]
    let policy: InvalidTransitionPolicy
    let expected: StepOutcome<String, String>
    var testDescription: String { label }
  }

  static let holds = Guard<NoContext, String>.opaque("holds", holds: true)
  static let fails = Guard<NoContext, String>.opaque("fails", holds: false)

  static let cases: [Case] = [
    .init(label: "state-specific row beats an earlier wildcard",
          rows: [.fromAny(on: "e", to: "w", effects: "wild"), .transition(from: "a", on: "e", to: "s", effects: "own")],
          policy: .reject, expected: .transitioned(from: "a", to: "s", effects: ["own"])),
    .init(label: "first declared guarded row whose guard holds wins",
          rows: [.transition(from: "a", on: "e", to: "x").when(fails), .transition(from: "a", on: "e", to: "y").when(holds),
                 .transition(from: "a", on: "e", to: "z")],
          policy: .reject, expected: .transitioned(from: "a", to: "y", effects: [])),
    .init(label: "all own guards fail: the wildcard row applies",
          rows: [.transition(from: "a", on: "e", to: "x").when(fails), .fromAny(on: "e", to: "w")],
          policy: .reject, expected: .transitioned(from: "a", to: "w", effects: [])),
    .init(label: "all guards fail and nothing else: rejected, guards failed",
          rows: [.transition(from: "a", on: "e", to: "x").when(fails)],
          policy: .reject, expected: .rejected(.guardsFailed)),
    .init(label: "all guards fail under the ignore policy: ignored",
          rows: [.transition(from: "a", on: "e", to: "x").when(fails)],
          policy: .ignore, expected: .ignored),
    .init(label: "no row: rejected as undeclared",
          rows: [.transition(from: "a", on: "other", to: "x")],
          policy: .reject, expected: .rejected(.undeclared)),
    .init(label: "no row under the ignore policy: ignored",
          rows: [.transition(from: "a", on: "other", to: "x")],
          policy: .ignore, expected: .ignored),
    .init(label: "own ignore row beats a wildcard transition",
          rows: [.fromAny(on: "e", to: "w"), .ignore(in: "a", on: "e")],
          policy: .reject, expected: .ignored),
    .init(label: "wildcard ignore row covers states without their own row",
          rows: [.ignoreInAny(on: "e"), .transition(from: "b", on: "e", to: "x")],
          policy: .reject, expected: .ignored),
    .init(label: "wildcard stay row",
          rows: [.stayInAny(on: "e", effects: "tick"), .transition(from: "b", on: "x", to: "a")],
          policy: .reject, expected: .stayed(effects: ["tick"])),
    .init(label: "a row with several sources applies to each",
          rows: [.transition(from: ["b", "a"], on: "e", to: "x")],
          policy: .reject, expected: .transitioned(from: "a", to: "x", effects: [])),
  ]

  @Test("priority", arguments: cases)
  func priority(_ c: Case) throws {
    let table = try TransitionTable<String, String, NoContext, String>(
      initial: "a", rows: c.rows, policy: c.policy, validation: .lenient)
    var machine = Machine(table)
    #expect(machine.send("e") == c.expected)
    #expect(table.step("a", NoContext(), "e").outcome == c.expected)
  }

  @Test("Dense dispatch and scan dispatch agree on every pair")
  func dispatchPathsAgree() throws {
    // Int-backed events use the dense array; String events the scan. Same table, same answers.
    enum S: Int, Hashable, Sendable, CaseIterable, Discriminated { case a, b, c }
    enum E: Int, Hashable, Sendable, CaseIterable, Discriminated { case x, y, z }
    let g = Guard<NoContext, E>("never") { _, _ in false }
    let dense = try TransitionTable<S, E, NoContext, Int>(
      initial: .a,
      rows: [.transition(from: .a, on: .x, to: .b, effects: 1), .transition(from: .a, on: .y, to: .c).when(g),
             .transition(from: .a, on: .y, to: .a, effects: 2), .fromAny(on: .z, to: .a, effects: 3),
             .stay(in: .b, on: .x, effects: 4), .ignore(in: .c, on: .x)],
      validation: .lenient)
    let scan = try TransitionTable<String, String, NoContext, Int>(
      initial: "a",
      rows: [.transition(from: "a", on: "x", to: "b", effects: 1), .transition(from: "a", on: "y", to: "c").when(.opaque("never")),
             .transition(from: "a", on: "y", to: "a", effects: 2), .fromAny(on: "z", to: "a", effects: 3),
             .stay(in: "b", on: "x", effects: 4), .ignore(in: "c", on: "x")],
      validation: .lenient)
    for s in S.allCases {
      for e in E.allCases {
        let d = dense.step(s, NoContext(), e)
        let l = scan.step("\(s)", NoContext(), "\(e)")
        #expect("\(d.state)" == l.state, "state after \(s), \(e)")
        #expect(Array(d.outcome.effects) == Array(l.outcome.effects), "effects after \(s), \(e)")
        #expect(d.row == l.row, "row after \(s), \(e)")
      }
    }
  }
}
