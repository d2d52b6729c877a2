import StateMachine
import Testing

/// What generic code sees of a store session, whatever the machine's kind.
struct Session<Configuration: Equatable & Sendable>: Sendable, Equatable {
  var moves: [String]
  var configurations: [Configuration]
  var last: Configuration
  var stepCount: Int
}

/// Sends `events` to any store through its generic members only, and reads what every store has.
func drive<Definition>(_ store: Store<Definition>, _ events: [Definition.Event], clock: ManualClock) async -> Session<Definition.Configuration>
where Definition.Configuration: Equatable, Definition.Event: Sendable {
  let steps = store.steps
  let reader = Task {
    var seen: [StoreStep<Definition>] = []
    for await step in steps { seen.append(step) }
    return seen
  }
  store.start()
  for event in events {
    #expect(store.send(event) == .accepted)
    await clock.settle()
  }
  await store.settle()
  let (last, count) = (store.configuration, store.stepCount)
  await store.finish()
  let seen = await reader.value
  return Session(
    moves: seen.map { "\($0.sequence): \($0.event) \($0.from) -> \($0.to), effects \($0.effects.count)" },
    configurations: seen.map(\.to), last: last, stepCount: count)
}

/// Sends `events` to any store and reads `property` of each step it reports.
func drive<Definition, Value: Sendable>(
  _ store: Store<Definition>, _ events: [Definition.Event], clock: ManualClock, reading property: @escaping @Sendable (StoreStep<Definition>) -> Value
) async -> [Value] where Definition.Event: Sendable {
  let steps = store.steps
  let reader = Task { await steps.reduce(into: []) { $0.append(property($1)) } }
  for event in events { store.send(event) }
  await store.finish()
  return await reader.value
}

@Suite("One store for every kind of machine")
struct OneStoreTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let run: @Sendable () async throws -> [String]
    let expected: [String]
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(
      label: "a table's store, through generic code",
      run: {
        let clock = ManualClock()
        let store = Store(Countdown.table, context: .init(), clock: clock) { _, send in send(.codeSent) }
        let session = await drive(store, [.tap, .reset], clock: clock)
        return session.moves + ["last \(session.last), \(session.stepCount) steps"]
      },
      expected: [
        "1: tap idle -> requesting, effects 2", "2: codeSent requesting -> counting, effects 1", "3: reset counting -> idle, effects 0",
        "last idle, 3 steps",
      ]),
    Case(
      label: "a chart's store, through generic code",
      run: {
        let clock = ManualClock()
        let store = try Store(try ChartStoreTests.upload(), context: UpContext(), clock: clock) { _, send in send(.finished) }
        let session = await drive(store, [.pick, .close], clock: clock)
        // (An array of enum cases prints them with their module's name.)
        return (session.moves + ["last \(session.last), \(session.stepCount) steps"]).map { $0.replacing("StoreTests.Up.", with: "") }
      },
      expected: [
        "1: pick [idle] -> [uploading], effects 1", "2: finished [uploading] -> [done], effects 0",
        "3: close [done] -> [closed], effects 0", "last [closed], 3 steps",
      ]),
  ]

  @Test("generic code drives a table's and a chart's store alike", arguments: cases)
  func genericCode(_ testCase: Case) async throws {
    let got = try await testCase.run()
    #expect(got == testCase.expected, "\(got)")
  }

  @Test("a store's kind members and its generic members agree")
  func kindMembers() async throws {
    let table = Store(Countdown.table, context: .init(), clock: ManualClock()) { _, _ in }
    table.send(.tap)
    #expect(table.state == .requesting && table.configuration == table.state)
    let chart = try Store(try ChartStoreTests.upload(), context: UpContext(), clock: ManualClock()) { _, _ in }
    chart.send(.pick)
    #expect(chart.configuration == [.uploading] && chart.snapshot.configuration == chart.configuration)
    #expect(chart.activeStates == [.session, .uploading] && chart.isActive(.session) && !chart.isHalted)
    // Generic code reads through the erased runtime, a kind's members specialised: the same.
    func read<Definition>(_ store: Store<Definition>) -> (Definition.Configuration, Definition.Context) { (store.configuration, store.context) }
    #expect(read(table).0 == table.configuration && read(table).1 == table.context)
    #expect(read(chart).0 == chart.configuration && read(chart).1 == chart.context)
    // A halted chart's store refuses through either path.
    chart.send(.close)
    let generic: @Sendable (Store<UpChart>, UpEvent) -> SendResult = { $0.send($1) }
    #expect(generic(chart, .pick) == .rejected(.halted))
    await table.finish()
    await chart.finish()
  }

  @Test("every store's step says whether the event was handled, ignored or rejected")
  func responses() async throws {
    let strict = try TransitionTable<Countdown.State, Countdown.Event, Countdown.Context, Countdown.Effect>(
      name: "strict", initial: .idle, states: [.state(.idle), .state(.requesting)],
      rows: [.transition(from: .idle, on: .tap, to: .requesting)], policy: .reject)
    let table = Store(strict, context: .init(), clock: ManualClock()) { _, _ in }
    let chart = try Store(try ChartStoreTests.upload(), context: UpContext(), clock: ManualClock()) { _, _ in }
    let tableSteps = await drive(table, [.tick, .tap], clock: ManualClock(), reading: { $0.response })
    let chartSteps = await drive(chart, [.finished, .pick], clock: ManualClock(), reading: { $0.response })
    #expect(tableSteps == [.rejected(Rejection.undeclared.description), .handled])
    #expect(chartSteps == [.ignored, .handled])
  }

  @available(*, deprecated, message: "exercises the deprecated names")
  @Test("the chart store's old names still compile and name the one store")
  func oldNames() async throws {
    #expect(ChartStore<Up, UpEvent, UpContext, UpWork>.self == Store<UpChart>.self)
    #expect(ChartStoreStep<Up, UpEvent, UpContext, UpWork>.self == StoreStep<UpChart>.self)
    #expect(ObservedChartStore<Up, UpEvent, UpContext, UpWork>.self == ObservedStore<UpChart>.self)
    let store = try ChartStore(try ChartStoreTests.upload(), context: UpContext(), clock: ManualClock()) { _, _ in }
    #expect(store.configuration == [.idle])
    await store.finish()
  }
}
