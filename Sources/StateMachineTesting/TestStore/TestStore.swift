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
///
/// A chart's store is tested the same way, its configuration (the active atomic states, in
/// document order) asserted where a table's state is:
///
/// ```swift
/// let store = try TestStore(uploadChart, context: Progress()) { work, send in ... }
/// await store.start()
/// try await store.send(.pick, to: [.uploading], effects: [.perform(.upload, id: "upload", scope: .state)])
/// try await store.send(.progress(40)) { $0.percent = 40 }
/// try await store.send(.cancel, to: [.idle])
/// try await store.finish()
/// ```
public final class TestStore<Definition: StoreDefinition>: Sendable
where
  Definition.Configuration: Sendable & Equatable, Definition.Event: Equatable, Definition.Context: Sendable & Equatable,
  Definition.Effect.Work: Equatable
{
  /// The events the machine handles.
  public typealias Event = Definition.Event
  /// The machine's context.
  public typealias Context = Definition.Context
  /// Where the machine is: a table's state, a chart's active atomic states.
  public typealias Configuration = Definition.Configuration
  /// The commands the machine emits.
  public typealias Effect = Command<Event, Definition.Effect.Work>
  /// The store under test.
  public typealias Runtime = Store<Definition>

  /// The clock the store runs on.
  public var clock: ManualClock { driver.clock }
  /// How strictly steps are checked.
  public var exhaustivity: Exhaustivity { driver.exhaustivity }
  private let store: Runtime
  private let driver: TestStoreDriver<Definition>

  /// A test store around the store `makeStore` builds with the clock and inspector it is given.
  ///
  /// A failed assertion is recorded where it was made — a Swift Testing issue, or an XCTest
  /// failure — and thrown as a ``TestStoreFailure`` (which stops the test). With
  /// `reportsFailures: false` it is only thrown: for tests that assert the failures themselves.
  public init<Failure: Error>(
    clock: ManualClock = ManualClock(), exhaustivity: Exhaustivity = .on, reportsFailures: Bool = true,
    _ makeStore: (ManualClock, @escaping Runtime.Inspector) throws(Failure) -> Runtime
  ) throws(Failure) {
    let journal = Journal<Definition>()
    let store = try makeStore(clock) { journal.record($0.sighting()) }
    // (A context held by a reference, a session, is known as a copy: later steps change the
    // store's own.)
    journal.know(store.configuration, keptContext(store.context))
    self.store = store
    let isChart = Definition.Configuration.self is any ShownAsList.Type
    driver = TestStoreDriver(
      clock: clock, exhaustivity: exhaustivity, journal: journal, reportsFailures: reportsFailures,
      noun: isChart ? "configuration" : "state", show: { ($0 as? any ShownAsList)?.shownAsList ?? "\($0)" },
      sendEvent: { store.send($0) }, finishStore: { await store.finish() })
  }

  /// Where the last asserted step left the machine: a table's state, a chart's configuration.
  public var configuration: Configuration { driver.journal.known.state }
  /// The context the last asserted step left.
  public var context: Context { driver.journal.known.context }

  /// Performs what the start asked for (a table's initial entry effects, timers and work; a
  /// chart's initial configuration's content), as the store's `start()` does; the events
  /// they cause then wait to be received.
  public func start() async {
    store.start()
    await clock.settle()
  }

  /// Sends `event` and asserts its step: the machine is then in `configuration` (a table's
  /// state; by default where it was), `change` applied to the previous context gives the new
  /// context, and the step emitted exactly `effects` (by default none).
  public func send(
    _ event: Event, to configuration: Configuration? = nil, effects: [Effect]? = nil, file: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column, _ change: ((inout Context) throws -> Void)? = nil
  ) async throws {
    try await driver.send(event, to: configuration, effects: effects, at: .init(file: file, filePath: filePath, line: line, column: column), change)
  }

  /// Asserts that the next event an effect, timer or delayed send delivered is `event`, and its
  /// step as in ``send(_:to:effects:file:filePath:line:column:_:)``. Advance the clock first for
  /// the effect to run.
  public func receive(
    _ event: Event, to configuration: Configuration? = nil, effects: [Effect]? = nil, file: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column, _ change: ((inout Context) throws -> Void)? = nil
  ) async throws {
    try await driver.receive(event, to: configuration, effects: effects, at: .init(file: file, filePath: filePath, line: line, column: column), change)
  }

  /// Asserts the next step of the child machine at `path` (an id, or a path through its
  /// children: see `Command.invoke(_:id:scope:)`): its event reads `event` and, when given, it
  /// left the child where `configuration` reads (a table's state; a chart's active states,
  /// joined by `, `). Children have types of their own, so their steps are asserted as text.
  ///
  /// When exhaustive, a child's steps must be asserted as received events are: a `send` or
  /// `finish` with a child step not asserted fails.
  public func receiveChildStep(
    at path: String, _ event: String, to configuration: String? = nil, file: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws {
    try await driver.receiveChild(at: path, event, to: configuration, at: .init(file: file, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next effect that failed with no event for the machine reads as `effect`
  /// and, when given, that its error reads `error`. Such a failure is otherwise seen by no step:
  /// a message refused at delivery (no running child has its target, or it is not one of the
  /// child's events), work whose `failure` maps its error to `nil`, a child that could not start.
  /// (A failure mapped to an event is asserted by receiving that event.)
  ///
  /// ```swift
  /// let ping = Command<Event, Work>.message(MachineMessage(Worker.Event.ping, to: "worker"))
  /// try await store.send(.check, effects: [ping])   // no child "worker" runs now
  /// try await store.receiveFailure(of: ping, error: "no running child machine has that id")
  /// ```
  ///
  /// Failures are asserted as received events are: in the order they happened, before the
  /// next `send`. When exhaustive, a `send` or `finish` with one not asserted fails. When not,
  /// failures before the one asserted are skipped, and a `send` drops those not asserted.
  public func receiveFailure(
    of effect: Effect, error: String? = nil, file: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async throws {
    try await driver.receiveFailure(of: effect, error: error, at: .init(file: file, filePath: filePath, line: line, column: column))
  }

  /// Moves the clock forward; effects and timers due on the way run, and the events they send
  /// wait to be received.
  public func advance(by duration: Duration) async {
    await clock.advance(by: duration)
  }

  /// Ends the test: when exhaustive, fails if a received event, a child's step or a failed
  /// effect was not asserted, or an effect or timer is still running. Always stops the store.
  public func finish(
    file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws {
    try await driver.finish(at: .init(file: file, filePath: filePath, line: line, column: column))
  }
}

extension TestStore {
  /// A test store running `definition` (a table or a chart) with `handler` performing its work.
  ///
  /// - Throws: What the machine's start throws: nothing for a table (call it without `try`);
  ///   `ChartRunError` when a chart's first macrostep does not settle.
  public convenience init(
    _ definition: Definition, context: Context, clock: ManualClock = ManualClock(), exhaustivity: Exhaustivity = .on,
    reportsFailures: Bool = true, handler: @escaping Runtime.Handler = { _, _ in },
    failure: @escaping Runtime.Failure = { _, _ in nil }
  ) throws(Definition.Instance.Failure) {
    try self.init(clock: clock, exhaustivity: exhaustivity, reportsFailures: reportsFailures) { clock, inspector throws(Definition.Instance.Failure) in
      try Runtime(definition, context: context, clock: clock, handler: handler, failure: failure, inspector: inspector)
    }
  }
}

extension TestStore where Definition: _TableStoreDefinition {
  /// The state the last asserted step left.
  public var state: Configuration { configuration }
}

/// A chart's test store: ``TestStore`` of a chart.
@available(*, deprecated, message: "Use TestStore<Chart<ID, Event, Context, Command<Event, Work>>>: one test store for every kind of machine")
public typealias ChartTestStore<ID: Hashable & Sendable, Event: Sendable & Equatable, Context: Sendable & Equatable, Work: Sendable & Equatable> =
  TestStore<Chart<ID, Event, Context, Command<Event, Work>>>

/// A chart's configuration, which failure messages show as `[a, b]`.
protocol ShownAsList {
  var shownAsList: String { get }
}

extension Array: ShownAsList {
  var shownAsList: String { "[" + map { "\($0)" }.joined(separator: ", ") + "]" }
}
