import StateMachine
import Testing

// The README's first example, kept compiling and true here.
enum Light: Hashable, Discriminated { case red, green, amber }
enum Signal: Hashable, Discriminated { case next, fault }
enum Lamp: Hashable, Sendable { case flash }

@Suite("README example")
struct ReadmeExampleTests {
  @Test("declare, send, draw")
  func example() throws {
    let light = try TransitionTable<Light, Signal, NoContext, Lamp>(
      name: "traffic-light",
      initial: .red,
      rows: [
        .transition(from: .red, on: .next, to: .green),
        .transition(from: .green, on: .next, to: .amber),
        .transition(from: .amber, on: .next, to: .red),
        .fromAny(on: .fault, to: .amber, effects: .flash),
      ])

    var machine = Machine(light)
    print(machine.send(.next))    // red -> green
    print(machine.send(.fault))   // green -> amber / flash
    print(light.mermaid())
    #expect(machine.state == .amber)
    var again = Machine(light)
    #expect("\(again.send(.next))" == "red -> green")
    #expect("\(again.send(.fault))" == "green -> amber / flash")
    #expect(light.mermaid() == """
      stateDiagram-v2
          [*] --> red
          red --> green : next
          green --> amber : next
          amber --> red : next
          red --> amber : fault / flash
          green --> amber : fault / flash
          amber --> amber : fault / flash

      """)
    #expect(light.check().isEmpty, "every state handles both events; nothing unreachable")
  }
}
