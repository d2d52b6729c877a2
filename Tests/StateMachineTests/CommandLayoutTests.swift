import StateMachine
import Testing

/// `Command`'s timers (`send`, `every`) and `invoke` are kept out of line (`indirect`), and a
/// message is one word, so that a command, and with it every step's outcome, stays small: they
/// must read, compare and hash as they did inline (`CommandCodingTests` encodes them).
struct CommandLayoutTests {
  enum Tick: String, Hashable, Sendable { case tick, tock }
  typealias Effect = Command<Tick, String>

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let command: Effect
    let description: String
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "a delayed send", command: .send(.tick, after: .seconds(2)), description: "after 2 s: tick"),
    Case(
      label: "a delayed send with an id, in state", command: .send(.tock, after: .milliseconds(1500), id: "retry", scope: .state),
      description: "after 1500 ms: tock (in state)"),
    Case(label: "a repeating send", command: .every(.seconds(1), send: .tick, id: "ticker"), description: "every 1 s: tick"),
    Case(label: "a perform beside them", command: .perform("load", id: "load"), description: "load"),
    Case(label: "a cancel beside them", command: .cancel("ticker"), description: "cancel ticker"),
  ]

  @Test(arguments: cases)
  func readsAndComparesAsBefore(_ example: Case) {
    #expect(example.command.description == example.description)
    let copy = example.command
    #expect(copy == example.command)
    #expect(copy.hashValue == example.command.hashValue)
    switch example.command {
    case .send(let event, let delay, let id, let scope):
      #expect(Command.send(event, after: delay, id: id, scope: scope) == example.command)
    case .every(let interval, let event, let id, let scope):
      #expect(Command.every(interval, send: event, id: id, scope: scope) == example.command)
    default:
      #expect(!example.label.contains("send"))
    }
  }

  @Test
  func timersDifferByEveryField() {
    let base = Effect.send(.tick, after: .seconds(2), id: "t", scope: .state)
    #expect(base != .send(.tock, after: .seconds(2), id: "t", scope: .state))
    #expect(base != .send(.tick, after: .seconds(3), id: "t", scope: .state))
    #expect(base != .send(.tick, after: .seconds(2), id: "u", scope: .state))
    #expect(base != .send(.tick, after: .seconds(2), id: "t", scope: .global))
    #expect(Effect.every(.seconds(1), send: .tick, id: "a") != .every(.seconds(1), send: .tick, id: "b"))
  }

  /// Beside `perform` (its work, an optional id and a scope), the largest inline case is
  /// `cancel` (an id: two words), so a command of small events and work stays within four
  /// words, and one without work within three. Inline, the timers made it 42 bytes; a message
  /// is one word (its target is in its one object).
  @Test
  func staysWithinFourWords() {
    #expect(MemoryLayout<Command<Tick, Never>>.size <= 24)
    #expect(MemoryLayout<Command<UInt8, UInt8>>.size <= 32)
    #expect(MemoryLayout<MachineMessage>.size == MemoryLayout<Int>.size)
  }
}
