import StateMachine
import StateMachineChecking
import Testing

/// A message a machine of a system sends that no child takes goes no further, as in a store:
/// the system names it after the step, and the checkers report it as `messages delivered` when
/// asked to (`StepCheck.messagesDelivered`).
@Suite("A checked system: messages that reach no child")
struct MessagesDeliveredTests {
  typealias Rules = MachineSystemRulesTests
  typealias Input = SystemEvent<Rules.Event>
  static let refused = "send tick to c: no running child machine has that id"

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    /// Inputs before the one checked.
    let before: [Input]
    let input: Input
    let rejection: String?
    let undelivered: String?
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    .init(label: "the host messages its child while it runs", before: [.root(.go)], input: .root(.poke), rejection: nil, undelivered: nil),
    .init(label: "the host messages a child that is not running", before: [], input: .root(.poke), rejection: nil, undelivered: refused),
    .init(label: "after the child stopped", before: [.root(.go), .root(.go)], input: .root(.poke), rejection: nil, undelivered: refused),
    .init(
      label: "an input to no child is the input's rejection, not a machine's undelivered message", before: [],
      input: .message(Rules.ChildEvent.tick, to: "c"), rejection: "no running child machine has that id", undelivered: nil),
    .init(
      label: "a message from outside to the child, delivered", before: [.root(.go)], input: .message(Rules.ChildEvent.tick, to: "c"),
      rejection: nil, undelivered: nil),
  ]

  @Test("after a step, the system names the first message a machine sent that no child took", arguments: cases)
  func undelivered(_ c: Case) throws {
    var machine = SystemMachine(MachineSystem(table: Rules.host(echo: false, answer: false)), context: 0)
    try machine.begin()
    for input in c.before { _ = try machine.step(input) }
    let response = try machine.step(c.input)
    #expect(response.rejection == c.rejection)
    #expect(response.isHandled == (c.rejection == nil), "a machine's undelivered message leaves its step handled")
    #expect(machine.undeliveredMessage == c.undelivered)
    // The next step, whose messages all arrive, names none.
    _ = try machine.step(.root(.go))
    #expect(machine.undeliveredMessage == nil)
  }

  static let alphabet: [Input] = [.root(.go), .root(.poke)]

  @Test("a walk that sends a message no child takes fails `messages delivered`, shrunk to the input that sent it")
  func propertyCheck() throws {
    let system = MachineSystem(table: Rules.host(echo: false, answer: false))
    // Not asked: the message that goes nowhere is no failure.
    try PropertyCheck(system, context: 0, alphabet: Self.alphabet).run(walks: 20, length: 10, seed: 3)
    let failure = #expect(throws: PropertyFailure<Input>.self) {
      try PropertyCheck(system, context: 0, alphabet: Self.alphabet).checking(.messagesDelivered).run(walks: 20, length: 10, seed: 3)
    }
    #expect(failure?.property == "messages delivered")
    #expect(failure?.events.map(\.description) == ["poke"])
    #expect(failure?.message == "\(Self.refused), now in a")
  }

  /// A host whose initial state messages `c`, which never runs.
  static let eager = try! Rules.Host(
    name: "eager", initial: .a,
    states: [.state(.a, entry: [.message(MachineMessage(Rules.ChildEvent.tick, to: "c"))]), .state(.b)],
    rows: [.transition(from: .a, on: .go, to: .b), .transition(from: .b, on: .go, to: .a)])

  @Test("a message the start sends that no child takes is named, and fails both checks at the start")
  func atStart() throws {
    var machine = SystemMachine(MachineSystem(table: Self.eager), context: 0)
    try machine.begin()
    #expect(machine.undeliveredMessage == Self.refused)
    let failure = #expect(throws: PropertyFailure<Input>.self) {
      try PropertyCheck(MachineSystem(table: Self.eager), context: 0, alphabet: [.root(.go)]).checking(.messagesDelivered).run(seed: 1)
    }
    #expect(failure?.property == "messages delivered")
    #expect(failure?.events.isEmpty == true)
    #expect(failure?.message == "\(Self.refused), at the start")
    let result = Explorer(MachineSystem(table: Self.eager), context: 0, alphabet: [.root(.go)]).checking(.messagesDelivered).explore()
    #expect(result.violations.map(\.property) == ["messages delivered"])
    #expect(result.violations.first?.path.isEmpty == true)
  }

  @Test("exploring reports `messages delivered` once, with a shortest path to the input that sent it")
  func explorer() {
    let system = MachineSystem(table: Rules.host(echo: false, answer: false))
    #expect(Explorer(system, context: 0, alphabet: Self.alphabet).explore(depth: 6).violations.isEmpty)
    let result = Explorer(system, context: 0, alphabet: Self.alphabet).checking(.messagesDelivered).explore(depth: 6)
    #expect(result.violations.map(\.property) == ["messages delivered"])
    #expect(result.violations.first?.path.map(\.description) == ["poke"])
    #expect(result.violations.first?.message == "\(Self.refused), now in a")
  }
}
