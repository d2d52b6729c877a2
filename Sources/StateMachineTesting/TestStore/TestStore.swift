public import StateMachine
import Foundation

/// A `Store` for tests: send events one at a time and assert the exact state, context change
/// and effects of each step; advance the `ManualClock` and receive the events that effects
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
  /// The commands the table emits.
  public typealias Effect = Command<Event, Work>
  /// The store under test.
  public typealias Runtime = Store<State, Event, Context, Work>

  /// The clock the store runs on.
  public var clock: ManualClock { driver.clock }
  /// How strictly steps are checked.
  public var exhaustivity: Exhaustivity { driver.exhaustivity }
  private let store: Runtime
  private let driver: TestStoreDriver<StoreStep<State, Event, Context, Effect>>

  /// A test store around the store `makeStore` builds with the clock and inspector it is given.
  ///
  /// A failed assertion is recorded where it was made — a Swift Testing issue, or an XCTest
  /// failure — and thrown as a ``TestStoreFailure`` (which stops the test). With
  /// `reportsFailures: false` it is only thrown: for tests that assert the failures themselves.
  public init(
    clock: ManualClock = ManualClock(), exhaustivity: Exhaustivity = .on, reportsFailures: Bool = true,
    _ makeStore: (ManualClock, @escaping Runtime.Inspector) -> Runtime
  ) {
    let journal = Journal<StoreStep<State, Event, Context, Effect>>()
    let store = makeStore(clock) { journal.record($0.sighting) }
    journal.know(store.state, store.context)
    self.store = store
    driver = TestStoreDriver(
      clock: clock, exhaustivity: exhaustivity, journal: journal, reportsFailures: reportsFailures, noun: "state", show: { "\($0)" }, sendEvent: { store.send($0) },
      finishStore: { await store.finish() })
  }

  /// A test store running `table` with `handler` performing its work.
  public convenience init(
    _ table: Runtime.Table, context: Context, clock: ManualClock = ManualClock(), exhaustivity: Exhaustivity = .on,
    reportsFailures: Bool = true,
    handler: @escaping Runtime.Handler = { _, _ in }, failure: @escaping Runtime.Failure = { _, _ in nil }
  ) {
    self.init(clock: clock, exhaustivity: exhaustivity, reportsFailures: reportsFailures) { clock, inspector in
      Runtime(table, context: context, clock: clock, handler: handler, failure: failure, inspector: inspector)
    }
  }

  /// The state the last asserted step left.
  public var state: State { driver.journal.known.state }
  /// The context the last asserted step left.
  public var context: Context { driver.journal.known.context }

  /// Performs the initial state's entry effects (timers, work), as `start()` does;
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
    file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ change: ((inout Context) throws -> Void)? = nil
  ) async throws {
    try await driver.send(event, to: state, effects: effects, at: .init(file: file, filePath: filePath, line: line, column: column), change)
  }

  /// Asserts that the next event an effect or timer sent is `event`, and its step as in
  /// ``send(_:to:effects:file:filePath:line:column:_:)``. Advance the clock first for the effect to run.
  public func receive(
    _ event: Event, to state: State? = nil, effects: [Effect]? = nil,
    file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ change: ((inout Context) throws -> Void)? = nil
  ) async throws {
    try await driver.receive(event, to: state, effects: effects, at: .init(file: file, filePath: filePath, line: line, column: column), change)
  }

  /// Moves the clock forward; effects and timers due on the way run, and the events they send
  /// wait to be received.
  public func advance(by duration: Duration) async {
    await clock.advance(by: duration)
  }

  /// Ends the test: when exhaustive, fails if a received event was not asserted or an effect or
  /// timer is still running. Always stops the store.
  public func finish(
    file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws {
    try await driver.finish(at: .init(file: file, filePath: filePath, line: line, column: column))
  }
}
