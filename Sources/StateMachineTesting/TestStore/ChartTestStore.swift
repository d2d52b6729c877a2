public import StateMachine

/// A `ChartStore` for tests, as ``TestStore`` is for tables: send events one at a time and
/// assert the configuration each macrostep leaves (the active atomic states, in document
/// order), the context change and the effects; advance the clock and receive what effects and
/// timers send; finish with nothing unasserted and nothing running.
///
/// ```swift
/// let store = try ChartTestStore(uploadChart, context: Progress()) { work, send in ... }
/// await store.start()
/// try await store.send(.pick, to: [.uploading], effects: [.perform(.upload, id: "upload", scope: .state)])
/// try await store.send(.progress(40)) { $0.percent = 40 }
/// try await store.send(.cancel, to: [.idle])
/// try await store.finish()
/// ```
public final class ChartTestStore<ID, Event, Context, Work>: Sendable
where ID: Hashable & Sendable, Event: Sendable & Equatable, Context: Sendable & Equatable, Work: Sendable & Equatable {
  /// The commands the chart emits.
  public typealias Effect = Command<Event, Work>
  /// The store under test.
  public typealias Runtime = ChartStore<ID, Event, Context, Work>

  /// The clock the store runs on.
  public var clock: ManualClock { driver.clock }
  /// How strictly steps are checked.
  public var exhaustivity: Exhaustivity { driver.exhaustivity }
  private let store: Runtime
  private let driver: TestStoreDriver<ChartStoreStep<ID, Event, Context, Work>>

  /// A test store around the chart store `makeStore` builds with the clock and inspector it is given.
  ///
  /// A failed assertion is recorded where it was made — a Swift Testing issue, or an XCTest
  /// failure — and thrown as a ``TestStoreFailure`` (which stops the test). With
  /// `reportsFailures: false` it is only thrown: for tests that assert the failures themselves.
  public init(
    clock: ManualClock = ManualClock(), exhaustivity: Exhaustivity = .on, reportsFailures: Bool = true,
    _ makeStore: (ManualClock, @escaping Runtime.Inspector) throws -> Runtime
  ) rethrows {
    let journal = Journal<ChartStoreStep<ID, Event, Context, Work>>()
    let store = try makeStore(clock) { journal.record($0.sighting) }
    journal.know(store.configuration, store.context)
    self.store = store
    driver = TestStoreDriver(
      clock: clock, exhaustivity: exhaustivity, journal: journal, reportsFailures: reportsFailures, noun: "configuration", show: { "[" + $0.map { "\($0)" }.joined(separator: ", ") + "]" }, sendEvent: { store.send($0) },
      finishStore: { await store.finish() })
  }

  /// A test store running `chart` with `handler` performing its work.
  ///
  /// - Throws: `ChartRunError` when the chart's first macrostep does not settle.
  public convenience init(
    _ chart: Chart<ID, Event, Context, Effect>, context: Context, clock: ManualClock = ManualClock(),
    exhaustivity: Exhaustivity = .on, reportsFailures: Bool = true, handler: @escaping Runtime.Handler = { _, _ in },
    failure: @escaping Runtime.Failure = { _, _ in nil }
  ) throws {
    try self.init(clock: clock, exhaustivity: exhaustivity, reportsFailures: reportsFailures) { clock, inspector in
      try Runtime(chart, context: context, clock: clock, handler: handler, failure: failure, inspector: inspector)
    }
  }

  /// The configuration the last asserted step left.
  public var configuration: [ID] { driver.journal.known.state }
  /// The context the last asserted step left.
  public var context: Context { driver.journal.known.context }

  /// Performs what the initial configuration's content asked for; the events it causes then
  /// wait to be received.
  public func start() async {
    store.start()
    await clock.settle()
  }

  /// Sends `event` and asserts its macrostep: the chart is then in `configuration` (by default
  /// the one it was in), `change` applied to the previous context gives the new context, and
  /// the step emitted exactly `effects` (by default none).
  public func send(
    _ event: Event, to configuration: [ID]? = nil, effects: [Effect]? = nil,
    file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ change: ((inout Context) throws -> Void)? = nil
  ) async throws {
    try await driver.send(event, to: configuration, effects: effects, at: .init(file: file, filePath: filePath, line: line, column: column), change)
  }

  /// Asserts that the next event an effect, timer or delayed send delivered is `event`, and its
  /// macrostep as in ``send(_:to:effects:file:filePath:line:column:_:)``.
  public func receive(
    _ event: Event, to configuration: [ID]? = nil, effects: [Effect]? = nil,
    file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ change: ((inout Context) throws -> Void)? = nil
  ) async throws {
    try await driver.receive(event, to: configuration, effects: effects, at: .init(file: file, filePath: filePath, line: line, column: column), change)
  }

  /// Moves the clock forward; what falls due on the way runs.
  public func advance(by duration: Duration) async {
    await clock.advance(by: duration)
  }

  /// Ends the test as ``TestStore/finish(file:filePath:line:column:)`` does. Always stops the store.
  public func finish(
    file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws {
    try await driver.finish(at: .init(file: file, filePath: filePath, line: line, column: column))
  }
}
