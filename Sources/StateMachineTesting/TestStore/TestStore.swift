public import StateMachine
import Foundation

/// A ``Store`` for tests: send events one at a time and assert the exact state, context change
/// and effects of each step; advance the ``ManualClock`` and receive the events that effects
/// and timers send; finish with nothing left unasserted and no effect still running.
///
/// Assertions throw a ``TestStoreFailure`` naming the call site, so a test works the same
/// from Swift Testing and from XCTest (`func test…() async throws`).
///
/// ```swift
/// let store = TestStore { clock, inspector in
///     Login.store(services: .fake(clock: clock), clock: clock, inspector: inspector)
/// }
/// try await store.send(.start, to: .credentials)
/// try await store.send(.editUsername("admin")) { $0.username = "admin" }
/// try await store.send(.editPassword("123456")) { $0.password = "123456" }
/// try await store.send(.submit, to: .authenticating,
///                      effects: [.perform(.authenticate(username: "admin", password: "123456"), id: "authenticate", scope: .state)])
/// await store.advance(by: .seconds(1))
/// try await store.receive(.authenticated, to: .success)
/// try await store.finish()
/// ```
///
/// With ``Exhaustivity/off`` only what a test says is checked (see ``Exhaustivity``).
public final class TestStore<State, Event, Context, Work>: Sendable
where
  State: Discriminated & Equatable, Event: Discriminated & Equatable, Context: Sendable & Equatable,
  Work: Sendable & Equatable
{
  public typealias Effect = Command<Event, Work>
  public typealias Runtime = Store<State, Event, Context, Work>

  /// The clock the store runs on.
  public let clock: ManualClock
  /// How strictly steps are checked.
  public let exhaustivity: Exhaustivity
  private let store: Runtime
  private let log: Journal<State, Event, Context, Work>

  /// A test store around the store `makeStore` builds with the clock and inspector it is given.
  public init(
    clock: ManualClock = ManualClock(), exhaustivity: Exhaustivity = .on,
    _ makeStore: (ManualClock, @escaping Runtime.Inspector) -> Runtime
  ) {
    let log = Journal<State, Event, Context, Work>()
    self.clock = clock
    self.exhaustivity = exhaustivity
    self.log = log
    store = makeStore(clock) { log.record($0) }
    log.start(state: store.state, context: store.context)
  }

  /// A test store running `table` with `handler` performing its work.
  public convenience init(
    _ table: Runtime.Table, context: Context, clock: ManualClock = ManualClock(), exhaustivity: Exhaustivity = .on,
    handler: @escaping Runtime.Handler = { _, _ in }, failure: @escaping Runtime.Failure = { _, _ in nil }
  ) {
    self.init(clock: clock, exhaustivity: exhaustivity) { clock, inspector in
      Runtime(table, context: context, clock: clock, handler: handler, failure: failure, inspector: inspector)
    }
  }

  /// The state the last asserted step left.
  public var state: State { log.known.state }
  /// The context the last asserted step left.
  public var context: Context { log.known.context }

  /// Performs the initial state's entry effects (timers, work), as ``Store/start()`` does;
  /// their events then wait to be received.
  public func start() async {
    store.start()
    await clock.settle()
  }

  /// Sends `event` and asserts its step: the machine is then in `state` (by default the
  /// state it was in), `change` applied to the previous context gives the new context, and
  /// the step emitted exactly `effects` (by default none).
  public func send(
    _ event: Event, to state: State? = nil, effects: [Effect]? = nil,
    file: StaticString = #fileID, line: UInt = #line,
    _ change: ((inout Context) throws -> Void)? = nil
  ) async throws {
    let unasserted = log.takeAllReceived()
    if exhaustivity == .on, !unasserted.isEmpty {
      throw TestStoreFailure(
        "sent \(event) while \(unasserted.count) received event(s) were not asserted: "
          + unasserted.map { "\($0.event)" }.joined(separator: ", "), file: file, line: line)
    }
    if let last = unasserted.last { log.know(last.to, last.context) }
    if case .rejected(let reason) = store.send(event) {
      throw TestStoreFailure("the store did not accept \(event): \(reason)", file: file, line: line)
    }
    await clock.settle()
    guard let step = log.takeNext() else {
      throw TestStoreFailure("no step was recorded for \(event)", file: file, line: line)
    }
    try check(step, "sent", event: event, state: state, effects: effects, change: change, file: file, line: line)
  }

  /// Asserts that the next event an effect or timer sent is `event`, and its step as in
  /// ``send(_:to:effects:file:line:_:)``. Advance the clock first for the effect to run.
  public func receive(
    _ event: Event, to state: State? = nil, effects: [Effect]? = nil,
    file: StaticString = #fileID, line: UInt = #line,
    _ change: ((inout Context) throws -> Void)? = nil
  ) async throws {
    await clock.settle()
    while let step = log.takeNext() {
      if step.event == event {
        try check(step, "received", event: event, state: state, effects: effects, change: change, file: file, line: line)
        return
      }
      if exhaustivity == .on {
        throw TestStoreFailure("expected to receive \(event), but received \(step.event)", file: file, line: line)
      }
      log.know(step.to, step.context)
    }
    throw TestStoreFailure(
      "expected to receive \(event), but no event arrived (advance the clock for effects and timers to run?)",
      file: file, line: line)
  }

  /// Moves the clock forward; effects and timers due on the way run, and the events they send
  /// wait to be received.
  public func advance(by duration: Duration) async {
    await clock.advance(by: duration)
  }

  /// Ends the test: when exhaustive, fails if a received event was not asserted or an effect or
  /// timer is still running. Always stops the store.
  public func finish(file: StaticString = #fileID, line: UInt = #line) async throws {
    await clock.settle()
    let unasserted = log.takeAllReceived()
    let running = log.running
    await store.finish()
    guard exhaustivity == .on else { return }
    if !unasserted.isEmpty {
      throw TestStoreFailure(
        "the test ended with \(unasserted.count) received event(s) not asserted: "
          + unasserted.map { "\($0.event)" }.joined(separator: ", "), file: file, line: line)
    }
    if !running.isEmpty {
      throw TestStoreFailure(
        "the test ended with effects still running: " + running.joined(separator: ", ")
          + " (cancel them, let them finish, or use exhaustivity: .off)", file: file, line: line)
    }
  }

  private func check(
    _ step: StoreStep<State, Event, Context, Effect>, _ verb: String, event: Event, state: State?, effects: [Effect]?,
    change: ((inout Context) throws -> Void)?, file: StaticString, line: UInt
  ) throws {
    let before = log.known
    defer { log.know(step.to, step.context) }
    // Exhaustive: the state is as stated, or unchanged. Not exhaustive: only a stated state is checked.
    if let expectedState = state ?? (exhaustivity == .on ? before.state : nil), step.to != expectedState {
      throw TestStoreFailure(
        "\(verb) \(event): expected the state \(expectedState), got \(step.to) (from \(step.from))", file: file, line: line)
    }
    var expected = exhaustivity == .on ? before.context : step.context
    if let change { try change(&expected) }
    if expected != step.context {
      throw TestStoreFailure(
        "\(verb) \(event): the context differs:\n" + difference(expected: expected, actual: step.context),
        file: file, line: line)
    }
    guard exhaustivity == .on || effects != nil else { return }
    let (expectedEffects, actual) = (effects ?? [], Array(step.effects))
    if expectedEffects != actual {
      let show = { (list: [Effect]) in list.isEmpty ? "none" : list.map { "\($0)" }.joined(separator: ", ") }
      throw TestStoreFailure(
        "\(verb) \(event): expected the effects [\(show(expectedEffects))], got [\(show(actual))]", file: file, line: line)
    }
  }
}
