import StateMachine
import StateMachineExamples
import Testing

@Suite("Export goldens")
struct ExportTests {
  static let markdown = """
    - machine: `door`
    - unhandled events: `reject`

    | state | role | entry | exit |
    | --- | --- | --- | --- |
    | closed | initial |  |  |
    | open |  | lightOn | lightOff |
    | locked |  |  |  |
    | broken | final |  |  |

    | from | event | guard | to | effects |
    | --- | --- | --- | --- | --- |
    | closed | open |  | open | chime |
    | open | close |  | closed |  |
    | closed | lock |  | locked | bolt |
    | locked | unlock | rightCode | closed |  |
    | locked | unlock |  | (stay) | alarm |
    | closed, locked | knock |  | (stay) |  |
    | open | open |  | (ignore) |  |
    | * | smash |  | broken | alarm |

    """

  static let mermaid = """
    stateDiagram-v2
        [*] --> closed
        open : entry / lightOn
        open : exit / lightOff
        closed --> open : open / chime
        open --> closed : close
        closed --> locked : lock / bolt
        locked --> closed : unlock [rightCode]
        locked --> locked : unlock / alarm (stay)
        closed --> closed : knock (stay)
        locked --> locked : knock (stay)
        closed --> broken : smash / alarm
        open --> broken : smash / alarm
        locked --> broken : smash / alarm
        broken --> broken : smash / alarm
        broken --> [*]

    """

  static let dot = """
    digraph "door" {
        rankdir=LR;
        node [shape=box, style=rounded];
        "closed";
        "open" [label="open\\nentry / lightOn\\nexit / lightOff"];
        "locked";
        "broken" [peripheries=2];
        "__start" [shape=point];
        "__start" -> "closed";
        "closed" -> "open" [label="open / chime"];
        "open" -> "closed" [label="close"];
        "closed" -> "locked" [label="lock / bolt"];
        "locked" -> "closed" [label="unlock [rightCode]"];
        "locked" -> "locked" [label="unlock / alarm (stay)"];
        "closed" -> "closed" [label="knock (stay)"];
        "locked" -> "locked" [label="knock (stay)"];
        "closed" -> "broken" [label="smash / alarm"];
        "open" -> "broken" [label="smash / alarm"];
        "locked" -> "broken" [label="smash / alarm"];
        "broken" -> "broken" [label="smash / alarm"];
    }

    """

  @Test("Markdown table") func markdownGolden() { #expect(Door.table.markdown() == Self.markdown) }
  @Test("Mermaid stateDiagram-v2") func mermaidGolden() { #expect(Door.table.mermaid() == Self.mermaid) }
  @Test("Graphviz DOT") func dotGolden() { #expect(Door.table.dot() == Self.dot) }

  @Test("Renderings are deterministic across builds of the same table")
  func deterministic() throws {
    let again = try TransitionTable(name: "door", initial: Door.State.closed, states: Door.table.declaredStates, rows: Door.rows)
    #expect(again.markdown() == Door.table.markdown())
    #expect(again.mermaid() == Door.table.mermaid())
    #expect(again.dot() == Door.table.dot())
  }

  @Test("Names that diagrams cannot take as identifiers are aliased and quoted")
  func awkwardNames() throws {
    let table = try TransitionTable<String, String, NoContext, String>(
      name: "odd \"one\"", initial: "waiting room",
      rows: [.transition(from: "waiting room", on: "call: next", to: "2nd|desk", effects: "say \"hi\"")])
    #expect(table.mermaid() == """
      stateDiagram-v2
          state "waiting room" as waiting_room
          state "2nd#124;desk" as s_2nd_desk
          [*] --> waiting_room
          waiting_room --> s_2nd_desk : call#58; next / say #34;hi#34;

      """)
    #expect(table.dot().contains(#""waiting room" -> "2nd|desk" [label="call: next / say \"hi\""];"#))
    #expect(table.markdown().contains(#"| waiting room | call: next |  | 2nd\|desk | say "hi" |"#))
  }
}
