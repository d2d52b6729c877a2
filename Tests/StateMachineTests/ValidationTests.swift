@testable import StateMachine
import Testing

@Suite("Validation when a table is built")
struct ValidationTests {
  typealias R = Row<String, String, NoContext, String>
  typealias D = StateDeclaration<String, String>

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let states: [D]
    let rows: [R]
    let expected: [TableProblem]
    var testDescription: String { label }
  }

  static let g = Guard<NoContext, String>.opaque("g")

  static let cases: [Case] = [
    .init(label: "clean table", states: [], rows: [.transition(from: "a", on: "e", to: "b")], expected: []),
    .init(label: "unknown target state", states: [.state("a"), .state("b")],
          rows: [.transition(from: "a", on: "e", to: "c")], expected: [.unknownTargetState(row: 1, state: "c")]),
    .init(label: "unknown source state", states: [.state("a"), .state("b")],
          rows: [.transition(from: "z", on: "e", to: "b")], expected: [.unknownSourceState(row: 1, state: "z")]),
    .init(label: "initial state not declared", states: [.state("b")],
          rows: [.transition(from: "b", on: "e", to: "b")], expected: [.unknownInitialState("a")]),
    .init(label: "state declared twice", states: [.state("a"), .state("a")], rows: [], expected: [.duplicateState("a")]),
    .init(label: "nondeterminism: two unguarded rows, different targets",
          states: [], rows: [.transition(from: "a", on: "e", to: "b"), .transition(from: "a", on: "e", to: "c")],
          expected: [.nondeterministic(rows: [1, 2], state: "a", event: "e")]),
    .init(label: "identical unguarded rows: the second is shadowed",
          states: [], rows: [.transition(from: "a", on: "e", to: "b"), .transition(from: "a", on: "e", to: "b")],
          expected: [.shadowed(row: 2, by: 1, state: "a", event: "e")]),
    .init(label: "guarded row after an unguarded one is shadowed",
          states: [], rows: [.transition(from: "a", on: "e", to: "b"), .transition(from: "a", on: "e", to: "c").when(g)],
          expected: [.shadowed(row: 2, by: 1, state: "a", event: "e")]),
    .init(label: "same guard twice: the second is shadowed",
          states: [], rows: [.transition(from: "a", on: "e", to: "b").when(g), .transition(from: "a", on: "e", to: "c").when(g)],
          expected: [.shadowed(row: 2, by: 1, state: "a", event: "e")]),
    .init(label: "guarded then unguarded (an else branch) is fine",
          states: [], rows: [.transition(from: "a", on: "e", to: "b").when(g), .transition(from: "a", on: "e", to: "c")],
          expected: []),
    .init(label: "wildcard rows conflict among themselves only",
          states: [], rows: [.fromAny(on: "e", to: "b"), .fromAny(on: "e", to: "c"), .transition(from: "a", on: "e", to: "a")],
          expected: [.nondeterministic(rows: [1, 2], state: "*", event: "e")]),
    .init(label: "empty source list", states: [], rows: [.transition(from: [String](), on: "e", to: "a")],
          expected: [.noSourceState(row: 1)]),
    .init(label: "every problem is listed, not just the first", states: [.state("a"), .state("b")],
          rows: [.transition(from: "a", on: "e", to: "x"), .transition(from: "y", on: "e", to: "b"),
                 .transition(from: "b", on: "f", to: "a"), .transition(from: "b", on: "f", to: "b")],
          expected: [.unknownTargetState(row: 1, state: "x"), .unknownSourceState(row: 2, state: "y"),
                     .nondeterministic(rows: [3, 4], state: "b", event: "f")]),
  ]

  @Test("each problem", arguments: cases)
  func problems(_ c: Case) {
    do {
      let table = try TransitionTable<String, String, NoContext, String>(initial: "a", states: c.states, rows: c.rows)
      #expect(c.expected.isEmpty, "expected \(c.expected), the table was built")
      #expect(table.problems.isEmpty)
    } catch {
      #expect(error.problems == c.expected)
      #expect(error.table == "machine")
    }
    let lenient = try? TransitionTable<String, String, NoContext, String>(
      initial: "a", states: c.states, rows: c.rows, validation: .lenient)
    #expect(lenient?.problems == c.expected, "a lenient table lists the same problems")
  }

  @Test("The error's description names every problem")
  func description() {
    let error = TableValidationError(table: "t", problems: [.noInitialState, .unknownTargetState(row: 3, state: "q")])
    #expect(error.description == """
      table 't' has 2 problems:
        - no initial state: mark one state as initial
        - row 3: target state 'q' is not a declared state
      """)
  }
}
