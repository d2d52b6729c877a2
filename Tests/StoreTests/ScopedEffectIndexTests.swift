@testable import StateMachine
import Testing

/// Leaving a state cancels that state's effects through an index by owner, not by looking at
/// every effect in flight (which made a store with many running effects quadratic).
@Suite("State-scoped effects are found by their owner")
struct ScopedEffectIndexTests {
  enum State: Hashable, Sendable, Discriminated { case a, b }
  enum Event: Hashable, Sendable, Discriminated { case global, scoped, toggle }
  enum Work: Hashable, Sendable { case hang }

  static let table = try! TransitionTable<State, Event, NoContext, Command<Event, Work>>(
    initial: .a,
    rows: [
      .stayInAny(on: .global, effects: .perform(.hang)),
      .stayInAny(on: .scoped, effects: .perform(.hang, scope: .state)),
      .transition(from: .a, on: .toggle, to: .b),
      .transition(from: .b, on: .toggle, to: .a),
    ])

  @Test("many global effects running: leaving a state cancels exactly its own, and the indexes stay exact")
  func leavingCancelsOnlyItsOwn() async {
    let store = Store(Self.table, context: NoContext()) { _, _ in
      try await Task.sleep(for: .seconds(3600))
    }
    for _ in 0..<500 { store.send(.global) }
    for _ in 0..<3 { store.send(.scoped) }
    #expect(store.runningEffectCount == 503)
    store.runtime.with(TableEngine<TransitionTable<State, Event, NoContext, Command<Event, Work>>>.self) { $0.core }.withLock { $0._checkInvariants() }
    store.send(.toggle)  // a → b: a's three end
    #expect(store.runningEffectCount == 500)
    store.runtime.with(TableEngine<TransitionTable<State, Event, NoContext, Command<Event, Work>>>.self) { $0.core }.withLock { core in
      core._checkInvariants()
      #expect(core.owned.isEmpty)
    }
    store.send(.scoped)
    store.send(.toggle)  // b → a: b's one ends
    #expect(store.runningEffectCount == 500)
    store.runtime.with(TableEngine<TransitionTable<State, Event, NoContext, Command<Event, Work>>>.self) { $0.core }.withLock { $0._checkInvariants() }
    await store.finish()
    #expect(store.runningEffectCount == 0)
    store.runtime.with(TableEngine<TransitionTable<State, Event, NoContext, Command<Event, Work>>>.self) { $0.core }.withLock { $0._checkInvariants() }
  }
}

/// The `states` and `steps` subscriptions are made on first use; a store that finished before
/// anyone subscribed still ends every sequence it hands out.
@Suite("Subscriptions made on first use")
struct LazySubscriptionTests {
  @Test("subscribing after finish gives sequences that end; subscribing before sees the steps")
  func afterFinish() async {
    let store = Store(ScopedEffectIndexTests.table, context: NoContext()) { _, _ in }
    let before = store.states
    store.send(.toggle)
    await store.finish()
    var seen: [ScopedEffectIndexTests.State] = []
    for await state in before { seen.append(state) }
    #expect(seen == [.a, .b])
    var late: [ScopedEffectIndexTests.State] = []
    for await state in store.states { late.append(state) }  // ends: the store has finished
    #expect(late == [.b])
    for await _ in store.steps { Issue.record("a finished store reports no step") }
  }
}
