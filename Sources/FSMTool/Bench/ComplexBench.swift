import FSMCommand
import StateMachine

/// 50 states x 50 events, every (state, event) pair a row with a guard and an effect.
enum ComplexBench {
  static let size = 50

  struct State: Hashable, Sendable, Discriminated, CustomStringConvertible {
    var id: UInt8
    var description: String { "s\(id)" }
  }
  struct Event: Hashable, Sendable, Discriminated, CustomStringConvertible {
    var id: UInt8
    var description: String { "e\(id)" }
    static func ordinal(of discriminant: Event) -> Int? { Int(discriminant.id) }
  }
  struct Context: Sendable {
    var budget: Int
  }

  /// Where (s, e) goes; the table and the baseline share it.
  @inline(__always)
  static func target(_ s: Int, _ e: Int) -> Int { (s &* 7 &+ e &* 13 &+ 1) % size }

  static let table: TransitionTable<State, Event, Context, Int> = {
    let withBudget = Guard<Context, Event>("hasBudget") { context, _ in context.budget > 0 }
    var rows: [Row<State, Event, Context, Int>] = []
    for s in 0..<size {
      for e in 0..<size {
        rows.append(
          .transition(
            from: State(id: UInt8(s)), on: Event(id: UInt8(e)), to: State(id: UInt8(target(s, e))),
            effects: s * size + e
          ).when(withBudget))
      }
    }
    return try! TransitionTable(name: "complex", initial: State(id: 0), rows: rows)
  }()

  static func workload(count: Int) -> BenchWorkload {
    var generator = SplitMix64(seed: 0xC0FFEE)
    let events = (0..<count).map { _ in UInt8(generator.next() % UInt64(size)) }
    let typed = events.map { Event(id: $0) }
    let table = Self.table  // built here, not in the first timed run
    return BenchWorkload(
      name: "complex", events: count,
      variants: [
        // The table as a human would write it: a generated 2,500-case switch
        // (Scripts/generate-complex-switch.py), the same guard and effect in every case.
        BenchVariant(name: "switch") {
          var state: UInt8 = 0
          var sum = 0
          let context = Context(budget: 1)
          for event in events {
            let (next, effect) = switchStep(state, event, context)
            if effect >= 0 { sum &+= effect }
            state = next
            sum &+= Int(state)
          }
          return sum
        },
        BenchVariant(name: "closed form (reference)") {
          var state = 0
          var sum = 0
          let context = Context(budget: 1)
          for event in events {
            if context.budget > 0 {
              sum &+= state &* size &+ Int(event)  // the effect
              state = target(state, Int(event))
            }
            sum &+= state
          }
          return sum
        },
        BenchVariant(name: "machine.send") {
          var machine = Machine(table, context: Context(budget: 1))
          var sum = 0
          for event in typed {
            for effect in machine.send(event).effects { sum &+= effect }
            sum &+= Int(machine.state.id)
          }
          return sum
        },
      ])
  }
}
