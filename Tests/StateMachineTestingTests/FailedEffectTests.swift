import StateMachine
import StateMachineTesting
import Testing

/// Effects that fail with no event for the machine (a refused message, work whose error maps
/// to none) are seen by no step: a test store asserts them with `receiveFailure(of:error:)`,
/// and, when exhaustive, fails where one was left unasserted.
@Suite("TestStore: failed effects")
struct FailedEffectTests {
  enum State: String, Hashable, Sendable, Discriminated { case idle }
  enum Event: String, Hashable, Sendable, Discriminated { case ping, fetch, fetchTold, oops, wait, spawn }
  enum Work: String, Hashable, Sendable { case fetch, fetchTold, wait }
  typealias Machine = TransitionTable<State, Event, NoContext, Command<Event, Work>>
  typealias Effect = Command<Event, Work>

  struct Broken: Error, CustomStringConvertible { var description: String { "the server is down" } }

  /// `ping` messages a child that never runs; `fetch` and `fetchTold` perform work that
  /// throws at once, its error mapped to no event and to `oops`; `wait` performs work that
  /// throws after 1 s; `spawn` starts a child under an id a child cannot have (a path).
  static let machine = try! Machine(
    name: "failing", initial: .idle,
    rows: [
      .stayInAny(on: .ping, effects: ping),
      .stayInAny(on: .fetch, effects: .perform(.fetch)),
      .stayInAny(on: .fetchTold, effects: .perform(.fetchTold)),
      .stayInAny(on: .wait, effects: .perform(.wait)),
      .stayInAny(on: .oops),
      .stayInAny(on: .spawn, effects: spawn),
    ])
  static let spawn = Effect.invoke(ChildMachine(try! Machine(name: "child", initial: .idle, rows: []), context: NoContext()), id: "a/b", scope: .global)
  static let ping = Effect.message(MachineMessage(Event.ping, to: "nobody"))
  static let refused = "no running child machine has that id"

  static func store(_ exhaustivity: Exhaustivity = .on) -> TestStore<Machine> {
    let clock = ManualClock()
    return TestStore(
      machine, context: NoContext(), clock: clock, exhaustivity: exhaustivity, reportsFailures: false,
      handler: { work, _ in
        if work == .wait { try await clock.sleep(for: .seconds(1)) }
        throw Broken()
      },
      failure: { work, _ in work == .fetchTold ? .oops : nil })
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let exhaustivity: Exhaustivity
    /// The test's steps up to `finish`.
    let steps: @Sendable (TestStore<Machine>) async throws -> Void
    /// How the failure the test store throws begins; `nil`: none.
    let failure: String?
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    .init(label: "a refused message, asserted with its error", exhaustivity: .on, steps: {
      try await $0.send(.ping, effects: [ping])
      try await $0.receiveFailure(of: ping, error: refused)
    }, failure: nil),
    .init(label: "work whose error maps to no event, asserted", exhaustivity: .on, steps: {
      try await $0.send(.fetch, effects: [.perform(.fetch)])
      try await $0.receiveFailure(of: .perform(.fetch), error: "the server is down")
    }, failure: nil),
    .init(label: "a child that could not start, asserted", exhaustivity: .on, steps: {
      try await $0.send(.spawn, effects: [spawn])
      try await $0.receiveFailure(of: spawn)
    }, failure: nil),
    .init(label: "a child that could not start, left unasserted", exhaustivity: .on, steps: {
      try await $0.send(.spawn, effects: [spawn])
    }, failure: "the test ended with 1 failed effect(s) not asserted: invoke child as a/b ("),
    .init(label: "a failure after the clock moved, in order with another", exhaustivity: .on, steps: {
      try await $0.send(.wait, effects: [.perform(.wait)])
      try await $0.send(.ping, effects: [ping])
      try await $0.receiveFailure(of: ping)
      await $0.advance(by: .seconds(1))
      try await $0.receiveFailure(of: .perform(.wait))
    }, failure: nil),
    .init(label: "work whose error maps to an event is asserted by receiving it", exhaustivity: .on, steps: {
      try await $0.send(.fetchTold, effects: [.perform(.fetchTold)])
      try await $0.receive(.oops)
    }, failure: nil),
    .init(label: "a failure left unasserted fails the next send", exhaustivity: .on, steps: {
      try await $0.send(.ping, effects: [ping])
      try await $0.send(.ping, effects: [ping])
    }, failure: "sent ping while 1 failed effect(s) were not asserted: send ping to nobody (\(refused))"),
    .init(label: "a failure left unasserted fails the finish", exhaustivity: .on, steps: {
      try await $0.send(.fetch, effects: [.perform(.fetch)])
    }, failure: "the test ended with 1 failed effect(s) not asserted: fetch (the server is down)"),
    .init(label: "another error than the one expected", exhaustivity: .on, steps: {
      try await $0.send(.ping, effects: [ping])
      try await $0.receiveFailure(of: ping, error: "the mailbox is full")
    }, failure: "send ping to nobody failed with the error \"\(refused)\", expected \"the mailbox is full\""),
    .init(label: "another effect failed first", exhaustivity: .on, steps: {
      try await $0.send(.fetch, effects: [.perform(.fetch)])
      try await $0.send(.ping, effects: [ping])
    }, failure: "sent ping while 1 failed effect(s) were not asserted: fetch"),
    .init(label: "when exhaustive, failures are asserted in order", exhaustivity: .on, steps: {
      try await $0.send(.wait, effects: [.perform(.wait)])
      await $0.advance(by: .seconds(1))
      try await $0.send(.ping, effects: [ping])
    }, failure: "sent ping while 1 failed effect(s) were not asserted: wait (the server is down)"),
    .init(label: "no effect failed", exhaustivity: .on, steps: {
      try await $0.send(.fetchTold, effects: [.perform(.fetchTold)])
      try await $0.receive(.oops)
      try await $0.receiveFailure(of: .perform(.fetchTold))
    }, failure: "expected fetchTold to fail, but no effect failed without an event for the machine"),
    .init(label: "the wrong effect, when exhaustive", exhaustivity: .on, steps: {
      try await $0.send(.fetch, effects: [.perform(.fetch)])
      try await $0.receiveFailure(of: ping)
    }, failure: "expected send ping to nobody to fail, but fetch (the server is down) failed first"),
    .init(label: "not exhaustive: failures before the one asserted are skipped", exhaustivity: .off, steps: {
      try await $0.send(.fetch)
      try await $0.send(.ping)
      try await $0.receiveFailure(of: ping, error: refused)
    }, failure: nil),
    .init(label: "not exhaustive: failures never asserted are ignored", exhaustivity: .off, steps: {
      try await $0.send(.fetch)
      try await $0.send(.ping)
    }, failure: nil),
  ]

  @Test("a failed effect with no event for the machine is asserted, or fails the test", arguments: cases)
  func failedEffects(_ c: Case) async throws {
    let store = Self.store(c.exhaustivity)
    do {
      try await c.steps(store)
      try await store.finish()
      #expect(c.failure == nil, "expected a failure: \(c.failure ?? "")")
    } catch let failure as TestStoreFailure {
      let expected = try #require(c.failure, "unexpected failure: \(failure.message)")
      #expect(failure.message.hasPrefix(expected), "\(failure.message)")
      #expect(failure.file.hasSuffix("FailedEffectTests.swift"))
      try? await store.finish()
    }
  }
}
