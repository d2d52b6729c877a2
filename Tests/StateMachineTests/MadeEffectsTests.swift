import StateMachine
import Testing

/// Effects a row makes at step time (`emit`), alone or beside fixed ones and the exit and
/// entry effects of the states it leaves and enters: a row whose one effect is made calls its
/// closure directly, the others go through their effect items; both must give the effects in
/// their order, and nothing for a made effect that returns `nil`.
@Suite("Tables: effects made at step time")
struct MadeEffectsTests {
  enum State: String, Hashable, Sendable, CaseIterable, Discriminated { case idle, busy }
  enum Event: Hashable, Sendable, Discriminated {
    case go(Int), stay(Int), skip, pair(Int)

    enum Kind: String, Hashable, Sendable, CaseIterable { case go, stay, skip, pair }
    var discriminant: Kind {
      switch self {
      case .go: .go
      case .stay: .stay
      case .skip: .skip
      case .pair: .pair
      }
    }
  }
  typealias Table = TransitionTable<State, Event, Int, String>

  /// `go(n)` moves idle → busy (busy's entry: `enter`; idle's exit: `leave`) making `go n`;
  /// `stay(n)` makes `stay n` in place (its one effect, made); `skip` makes nothing (its
  /// closure returns `nil`); `pair(n)` makes `first n`, then `second`, beside a fixed `fixed`.
  static let table: Table = {
    do {
      return try Table(
        name: "made", initial: .idle,
        states: [.state(.idle, exit: ["leave"]), .state(.busy, entry: ["enter"])],
        rows: [
          .transition(from: .idle, on: .go, to: .busy).emit("go") { _, event in
            guard case .go(let n) = event else { return nil }
            return "go \(n)"
          },
          Table.Row.stayInAny(on: .stay).update { count, _ in count += 1 }.emit("stay") { count, event in
            guard case .stay(let n) = event else { return nil }
            return "stay \(n) after \(count)"
          },
          .stayInAny(on: .skip).emit("skip") { _, _ in nil },
          Table.Row.stayInAny(on: .pair, effects: "fixed")
            .emit("first") { _, event in
              guard case .pair(let n) = event else { return nil }
              return "first \(n)"
            }
            .emit("second") { _, _ in "second" },
        ])
    } catch {
      preconditionFailure("invalid state: the made-effects table is valid: \(error)")
    }
  }()

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let events: [Event]
    /// The effects of the last event's step.
    let effects: [String]
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "one made effect, its row's only effect: made from the context after the update", events: [.stay(7)], effects: ["stay 7 after 1"]),
    Case(label: "one made effect that makes nothing: no effects", events: [.skip], effects: []),
    Case(label: "a made effect between the exit and entry effects of a transition", events: [.go(3)], effects: ["leave", "go 3", "enter"]),
    Case(label: "two made effects and a fixed one, in their order", events: [.pair(2)], effects: ["fixed", "first 2", "second"]),
    Case(label: "the same row again: made anew from the new event and context", events: [.stay(1), .stay(2)], effects: ["stay 2 after 2"]),
  ]

  @Test("a step's effects, made and fixed, in their order", arguments: cases)
  func effects(_ c: Case) {
    var machine = Machine(Self.table, context: 0)
    var last: StepOutcome<State, String> = .ignored
    for event in c.events { last = machine.send(event) }
    #expect(Array(last.effects) == c.effects)
  }
}
