import StateMachine
import StateMachineChecking
import Testing

/// How an explorer tells a child's places apart: by its context itself when the context is a
/// `Hashable` value, by how it reads otherwise, and never a place of one kind of child for one
/// of another.
@Suite("Exploring a system: a child's places")
struct ChildPlaceTests {
  enum State: UInt8, Hashable, Sendable, Discriminated { case a }
  enum Event: UInt8, Hashable, Sendable, Discriminated { case tick }
  typealias Host = TransitionTable<State, Event, Int, Command<Event, Never>>

  /// A context that counts.
  protocol Counting: Sendable { var count: Int { get set } }

  /// Hashable, and reads the same whatever it counts: told apart only as itself.
  struct Silent: Hashable, Counting, CustomStringConvertible {
    var count = 0
    var description: String { "silent" }
  }

  /// Not Hashable: told apart by how it reads.
  struct Loud: Counting, CustomStringConvertible {
    var count = 0
    var description: String { "loud \(count)" }
  }

  /// Not Hashable, and reads the same whatever it counts: its counts are one place.
  struct Mute: Counting, CustomStringConvertible {
    var count = 0
    var description: String { "mute" }
  }

  /// Counts `tick`s up to 2, in its context's `count`.
  static func child<Context: Counting>(_ context: Context) -> ChildMachine<Event> {
    typealias Child = TransitionTable<State, Event, Context, Command<Event, Never>>
    typealias R = Row<State, Event, Context, Command<Event, Never>>
    let tick = R.stayInAny(on: .tick).when("below 2") { context, _ in context.count < 2 }
      .update { context, _ in context.count += 1 }
    return ChildMachine(try! Child(name: "counter", initial: .a, rows: [tick]), context: context)
  }

  /// A host that runs `children` from its start, by id; a `tick` to it goes nowhere.
  static func host(_ children: [(id: String, child: ChildMachine<Event>)]) -> MachineSystem<Host> {
    let invokes = children.map { Command<Event, Never>.invoke($0.child, id: EffectID($0.id)) }
    return MachineSystem(table: try! Host(name: "host", initial: .a, states: [.state(.a, entry: invokes)], rows: []))
  }

  struct Case: CustomTestStringConvertible, Sendable {
    let label: String
    let children: @Sendable () -> [(id: String, child: ChildMachine<Event>)]
    let ids: [String]
    let configurations: Int
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "a Hashable context that reads the same: told apart as itself", children: { [("c", child(Silent()))] },
      ids: ["c"], configurations: 3),
    Case(label: "a context that is not Hashable: told apart as it reads", children: { [("c", child(Loud()))] },
      ids: ["c"], configurations: 3),
    Case(label: "a context that is not Hashable and reads the same: one place", children: { [("c", child(Mute()))] },
      ids: ["c"], configurations: 1),
    Case(label: "an Int context", children: { [("c", child(0))] }, ids: ["c"], configurations: 3),
    Case(
      label: "two children of two kinds whose places read the same", children: { [("c", child(Mute())), ("d", child(Silent()))] },
      ids: ["c", "d"], configurations: 3),
  ]

  @Test("a child's context tells its places apart as its type allows", arguments: cases)
  func places(_ c: Case) {
    let alphabet = c.ids.map { SystemEvent<Event>.message(Event.tick, to: $0) }
    let result = Explorer(Self.host(c.children()), context: 0, alphabet: alphabet).explore(depth: 10)
    #expect(result.configurations == c.configurations)
    #expect(!result.truncated)
  }

  /// A host whose `swap` starts a `frozen` child in place of its counter `c`: a machine of the
  /// same types (state `a`, an `Int` context) that takes no tick. Its place holds the same values
  /// as the counter's first; they are two places all the same (what they do next differs).
  @Test("a child replaced by another machine whose place holds the same values is a new place")
  func machines() throws {
    enum HostEvent: UInt8, Hashable, Sendable, Discriminated { case swap }
    typealias Swapping = TransitionTable<State, HostEvent, Int, Command<HostEvent, Never>>
    typealias Child = TransitionTable<State, Event, Int, Command<Event, Never>>
    typealias R = Row<State, Event, Int, Command<Event, Never>>
    let tick = R.stayInAny(on: .tick).when("below 2") { count, _ in count < 2 }.update { count, _ in count += 1 }
    let counter = ChildMachine<HostEvent>(try Child(name: "counter", initial: .a, rows: [tick]), context: 0)
    let frozen = ChildMachine<HostEvent>(try Child(name: "frozen", initial: .a, rows: []), context: 0)
    let host = try Swapping(
      name: "host", initial: .a, states: [.state(.a, entry: [.invoke(counter, id: "c")])],
      rows: [.stayInAny(on: .swap, effects: .invoke(frozen, id: "c"))])
    var machine = SystemMachine(MachineSystem(table: host), context: 0)
    try machine.begin()
    let before = machine.configuration
    #expect(try machine.step(.root(.swap)) == .handled)
    // Shown alike: the root in a, its child c in a.
    #expect(machine.configuration.children == before.children)
    #expect(try machine.step(.message(Event.tick, to: "c")) == .handled)
    #expect(machine.configuration.children == before.children)
    // The counter at 0, 1 and 2, and the frozen child.
    let alphabet: [SystemEvent<HostEvent>] = [.root(.swap), .message(Event.tick, to: "c")]
    let result = Explorer(MachineSystem(table: host), context: 0, alphabet: alphabet).explore(depth: 10)
    #expect(result.configurations == 4)
  }
}

extension Int: ChildPlaceTests.Counting {
  var count: Int {
    get { self }
    set { self = newValue }
  }
}
