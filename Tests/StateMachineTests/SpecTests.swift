import StateMachine
import StateMachineExamples
import Testing

@Suite("Markdown spec files")
struct SpecTests {
  @Test("Export then import gives the same table back", arguments: ["door", "cd-player"])
  func roundTrip(_ name: String) throws {
    let markdown = name == "door" ? Door.table.markdown() : CDPlayer.table.markdown()
    let spec = try SpecDocument.parse(markdown, file: "\(name).md")
    #expect(spec.name == name)
    #expect(spec.table.markdown() == markdown)
    #expect(spec.table.problems.isEmpty)
    // The diagram of the imported table is the same drawing too.
    let mermaid = name == "door" ? Door.table.mermaid() : CDPlayer.table.mermaid()
    #expect(spec.table.mermaid() == mermaid)
  }

  @Test("A spec steps like the machine it describes, guards aside")
  func specSteps() throws {
    let spec = try SpecDocument.parse(CDPlayer.table.markdown(), file: "cd.md")
    var machine = Machine(spec.table)
    for event in CDPlayer.benchmarkCycle.map(\.rawValue) { machine.send(event) }
    #expect(machine.state == "empty")
    #expect(spec.policy == .ignore)
    #expect(spec.transitions[11].line == 25)
  }

  @Test("Prose, other tables and code blocks around the tables are skipped")
  func prose() throws {
    let text = """
      # Door

      Some prose. | not a table row in prose? it is, but an unknown table |
      | name | value |
      | --- | --- |
      | x | y |

      ```mermaid
      | from | event | guard | to | effects |
      ```

      | from | event | guard | to | effects |
      | :--- | --- | --- | --- | --- |
      | a | go |  | b | beep, boop |
      """
    let spec = try SpecDocument.parse(text, file: "Specs/door.md")
    #expect(spec.name == "door")
    #expect(spec.transitions.count == 1)
    #expect(spec.transitions[0].effects == ["beep", "boop"])
    #expect(spec.transitions[0].line == 14)
    #expect(spec.table.problems == [.noInitialState])
  }

  struct BadCase: Sendable, CustomTestStringConvertible {
    let label: String
    let text: String
    let line: Int
    let field: String?
    let message: String
    var testDescription: String { label }
  }

  static let header = "| from | event | guard | to | effects |\n| --- | --- | --- | --- | --- |\n"
  static let states = "| state | role | entry | exit |\n| --- | --- | --- | --- |\n"

  static let badCases: [BadCase] = [
    .init(label: "no transition table", text: "just prose\n", line: 0, field: nil,
          message: "no transition table; expected a table with the columns from, event, guard, to, effects"),
    .init(label: "too few cells", text: header + "| a | e | b |\n", line: 3, field: nil,
          message: "3 cells; expected 5 (from, event, guard, to, effects)"),
    .init(label: "empty event", text: header + "| a |  |  | b |  |\n", line: 3, field: "event",
          message: "empty cell; expected an event name"),
    .init(label: "empty target", text: header + "| a | e |  |  |  |\n", line: 3, field: "to",
          message: "empty cell; expected a state name, (stay) or (ignore)"),
    .init(label: "empty source in a list", text: header + "| a, | e |  | b |  |\n", line: 3, field: "from",
          message: "empty state name; expected a state, a comma-separated list of states, or *"),
    .init(label: "empty effect in a list", text: header + "| a | e |  | b | x,, y |\n", line: 3, field: "effects",
          message: "empty effect name in 'x,, y'; expected names separated by commas"),
    .init(label: "row without closing bar", text: header + "| a | e |  | b\n", line: 3, field: nil,
          message: "table row does not end with '|'"),
    .init(label: "wrong transition columns", text: "| from | event | to |\n", line: 1, field: nil,
          message: "transition table columns are from, event, to; expected from, event, guard, to, effects"),
    .init(label: "missing separator", text: "| from | event | guard | to | effects |\n| a | e |  | b |  |\n", line: 2, field: nil,
          message: "expected the separator row (| --- | --- | ...) under the table header"),
    .init(label: "unknown role", text: states + "| a | start |  |  |\n" + header, line: 3, field: "role",
          message: "'start'; expected initial, final, both, or nothing"),
    .init(label: "two initial states", text: states + "| a | initial |  |  |\n| b | initial |  |  |\n" + header, line: 4, field: "role",
          message: "a second initial state (the first is 'a' on line 3); expected one"),
    .init(label: "reserved state name", text: states + "| * |  |  |  |\n" + header, line: 3, field: "state",
          message: "'*' is reserved; expected a state name (write `*` for a state of that name)"),
    .init(label: "bad policy", text: "- unhandled events: `drop`\n" + header, line: 1, field: "unhandled events",
          message: "'drop'; expected `reject` or `ignore`"),
    .init(label: "second transition table", text: header + "| a | e |  | b |  |\n\n" + header, line: 5, field: nil,
          message: "a second transition table; expected one"),
    .init(label: "unclosed code block", text: header + "```\n", line: 4, field: nil, message: "a code block (```) is not closed"),
    .init(label: "huge line", text: header + "| " + String(repeating: "x", count: 20_000) + " |\n", line: 3, field: nil,
          message: "line is 20004 bytes long; expected at most 10000"),
  ]

  @Test("Bad input gets a typed error with its line and field", arguments: badCases)
  func badInput(_ c: BadCase) {
    #expect(throws: SpecError(file: "t.md", line: c.line, field: c.field, message: c.message)) {
      try SpecDocument.parse(c.text, file: "t.md")
    }
  }

  @Test("Findings name the spec lines they are about")
  func findingLines() throws {
    let text = Self.states + "| idle | initial |  |  |\n| busy |  |  |  |\n| ghost |  |  |  |\n\n" + Self.header
      + "| idle | go |  | busy |  |\n| idle | go |  | idle |  |\n| busy | done |  | idle |  |\n| ghost | done |  | idle |  |\n"
    let spec = try SpecDocument.parse(text, file: "planted.md")
    let found = spec.check().map { "\($0.lines):\($0.finding.kind.rawValue)" }
    #expect(found == ["[9, 10]:problem", "[]:unreachable", "[]:unhandled", "[]:unhandled"])
  }
}
