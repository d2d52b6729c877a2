import StateMachine
import StateMachineExamples
import StateMachineTesting
import Synchronization
import Testing

/// Each example machine's invariants, over seeded random walks and a bounded exhaustive
/// exploration (the same models `fsm explore` uses).
@Suite("Example machine properties")
struct PropertyTests {
  struct Model: Sendable, CustomTestStringConvertible {
    let label: String
    let walks: @Sendable () throws -> Void
    let explore: @Sendable () -> (violations: [String], rowsHit: Int, rows: Int)
    var testDescription: String { label }

    init<ID, E, C, Effect>(_ model: MachineModel<Chart<ID, E, C, Effect>>) {
      label = model.definition.name
      walks = { _ = try model.propertyCheck.run(walks: 300, length: 60, seed: 20261121) }
      explore = {
        let result = model.explorer.explore(depth: 14, limit: 200_000)
        let transitions = model.definition.declaredTransitions.count
        return (result.violations.map { "\($0.property): \($0.message)" }, transitions - result.coverage.transitionsNeverTaken.count, transitions)
      }
    }

    init<S, E, C, Effect>(_ model: MachineModel<TransitionTable<S, E, C, Effect>>) {
      label = model.definition.name
      walks = { _ = try model.propertyCheck.run(walks: 300, length: 60, seed: 20261121) }
      explore = {
        let result = model.explorer.explore(depth: 14, limit: 200_000)
        return (result.violations.map { "\($0.property): \($0.message)" }, result.coverage.transitionsTaken.count, model.definition.rows.count)
      }
    }
  }

  static let models = [
    Model(Login.model), Model(Loader.model), Model(Captcha.model), Model(Registration.model), Model(PhoneLogin.model),
    Model(Radio.model),
  ]

  @Test(arguments: models) func randomWalksKeepTheInvariants(_ model: Model) throws {
    try model.walks()
  }

  @Test(arguments: models) func exhaustiveExplorationFindsNoViolation(_ model: Model) {
    let result = model.explore()
    #expect(result.violations.isEmpty, "\(result.violations)")
    // Every row (or transition) but the countdowns' last tick (60 ticks deep) is reached within 14 events.
    #expect(result.rowsHit >= result.rows - 1, "\(model.label): \(result.rowsHit)/\(result.rows) rows")
  }

  /// The loader in the store, driven by seeded random users, network failures and clock
  /// advances: never two fetches in flight, and the list only grows by whole pages in order.
  @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
  func theLoaderNeverFetchesTwiceAtOnce(seed: UInt64) async {
    var random = SplitMix64(seed: seed)
    let clock = ManualClock()
    let server = FakeUserServer(clock: clock)
    // A fetch is in flight from its start until its result is handled (a `loaded` or `failed`
    // step) or it is cancelled; its task may take a moment longer to return (and then report).
    let fetches = Mutex((running: 0, most: 0))
    let store = Loader.store(
      services: LoaderServices(fetchPage: server.fetchPage, cache: InMemoryUserCache { Double(clock.now.offset.components.seconds) }),
      clock: clock
    ) { report in
      switch report {
      case .effectStarted(let id, _) where id == "fetch": fetches.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
      case .step(let step) where [.loaded, .failed].contains(step.event.discriminant):
        fetches.withLock { $0.running -= 1 }
      case .effectCancelled(let id, _) where id == "fetch": fetches.withLock { $0.running -= 1 }
      default: break
      }
    }
    for _ in 0..<120 {
      switch random.next() % 8 {
      case 0, 1, 2: store.send(.load)
      case 3: store.send(.retry)
      case 4: store.send(.reset)
      case 5: server.queue([.networkFailure, .emptyPage, .garbage][Int(random.next() % 3)])
      default: await clock.advance(by: .milliseconds(Int64(random.next() % 2500)))
      }
      let context = store.context
      let expected = (0..<context.pages.count).flatMap { page in FakeUserServer.users(page: page + 1).map { "\($0.first) \($0.last)" } }
      #expect(context.users == expected, "seed \(seed): pages in order, each once")
    }
    #expect(fetches.withLock { $0.most } <= 1, "seed \(seed): two fetches were in flight at once")
    await store.finish()
  }
}
