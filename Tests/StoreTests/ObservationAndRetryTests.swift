import Observation
import StateMachine
import Testing

@Suite("Observation adapter and retry policy")
struct ObservationAndRetryTests {
  @MainActor
  @Test("ObservedStore follows the store and notifies Observation")
  func observed() async {
    let clock = ManualClock()
    let store = Store(Countdown.table, context: .init(), clock: clock) { _, send in send(.codeSent) }
    let model = ObservedStore(store)
    #expect(model.state == .idle)
    let changed = Flag()
    withObservationTracking { _ = model.state } onChange: { changed.set() }
    model.send(.tap)
    await clock.advance(by: .seconds(1))
    while model.state != .counting { await Task.yield() }
    #expect(changed.isSet)
    #expect(model.context.remaining == 2)
    await store.finish()
  }

  @MainActor
  @Test("ObservedChartStore follows a chart store's configuration and context")
  func observedChart() async throws {
    let clock = ManualClock()
    let store = try Store(try ChartStoreTests.upload(), context: UpContext(), clock: clock) { _, send in
      try await clock.sleep(for: .seconds(1))
      send(.progress(30))
    }
    let model = ObservedStore(store)
    #expect(model.configuration == [.idle])
    let changed = Flag()
    withObservationTracking { _ = model.configuration } onChange: { changed.set() }
    model.send(.pick)
    while model.configuration != [.uploading] { await Task.yield() }
    #expect(changed.isSet)
    #expect(model.isActive(.uploading))
    await clock.advance(by: .seconds(1))
    while model.context.percent != 30 { await Task.yield() }
    #expect(model.configuration == [.uploading], "a targetless update changes the context only")
    await store.finish()
  }

  struct RetryCase: Sendable, CustomTestStringConvertible {
    let label: String
    let policy: RetryPolicy
    let delays: [Duration]
    var testDescription: String { label }
  }

  @Test("backoff delays", arguments: [
    RetryCase(label: "doubling", policy: RetryPolicy(maxAttempts: 4, initialDelay: .seconds(1)),
              delays: [.seconds(1), .seconds(2), .seconds(4), .seconds(8)]),
    RetryCase(label: "capped", policy: RetryPolicy(maxAttempts: 5, initialDelay: .seconds(1), multiplier: 3, maxDelay: .seconds(5)),
              delays: [.seconds(1), .seconds(3), .seconds(5), .seconds(5)]),
    RetryCase(label: "constant", policy: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(250), multiplier: 1),
              delays: [.milliseconds(250), .milliseconds(250), .milliseconds(250), .milliseconds(250)]),
  ])
  func backoff(_ c: RetryCase) {
    #expect((1...4).map { c.policy.delay(forAttempt: $0) } == c.delays)
  }

  @Test("jitter is seeded: the same seed gives the same waits, within bounds")
  func jitter() {
    let a = RetryPolicy(maxAttempts: 5, initialDelay: .seconds(2), jitter: 0.5, seed: 42)
    let b = RetryPolicy(maxAttempts: 5, initialDelay: .seconds(2), jitter: 0.5, seed: 42)
    let c = RetryPolicy(maxAttempts: 5, initialDelay: .seconds(2), jitter: 0.5, seed: 43)
    let da = (1...4).map { a.delay(forAttempt: $0) }
    #expect(da == (1...4).map { b.delay(forAttempt: $0) })
    #expect(da != (1...4).map { c.delay(forAttempt: $0) })
    for (i, d) in da.enumerated() {
      let full = Duration.seconds(2) * (1 << i)
      #expect(d <= full && d >= full / 2, "attempt \(i + 1): \(d)")
    }
    #expect(a.allowsRetry(after: 4) && !a.allowsRetry(after: 5))
  }

  /// A loader whose retries are rows: a guard on the attempt count and a delayed re-send.
  enum Loader {
    enum State: Hashable, Sendable, CaseIterable, Discriminated { case idle, loading, waiting, loaded, failed }
    enum Event: Hashable, Sendable, CaseIterable, Discriminated { case load, succeeded, failed, retryNow }
    enum Work: Hashable, Sendable { case fetch }
    struct Context: Hashable, Sendable { var attempts = 0 }
    static let retry = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1))
    static let table = try! TransitionTable<State, Event, Context, Command<Event, Work>>(
      name: "retrying-loader", initial: .idle,
      states: [.state(.idle), .state(.loading, entry: [.perform(.fetch, id: "fetch", scope: .state)]),
               .state(.waiting), .final(.loaded), .final(.failed)],
      rows: [
        .transition(from: [.idle, .waiting], on: .load, to: .loading).update { c, _ in c.attempts += 1 },
        .transition(from: .loading, on: .succeeded, to: .loaded),
        .transition(from: .loading, on: .failed, to: .waiting)
          .when("canRetry") { c, _ in retry.allowsRetry(after: c.attempts) }
          .emit("retry after backoff") { c, _ in .send(.load, after: retry.delay(forAttempt: c.attempts)) },
        .transition(from: .loading, on: .failed, to: .failed),
      ])
  }

  struct LoaderCase: Sendable, CustomTestStringConvertible {
    let label: String
    let failures: Int
    let final: Loader.State
    let attempts: Int
    let seconds: Int
    var testDescription: String { label }
  }

  @Test("retries are rows: guard on the attempt count, delayed re-send", arguments: [
    LoaderCase(label: "first try works", failures: 0, final: .loaded, attempts: 1, seconds: 0),
    LoaderCase(label: "two failures, then success after 1 s + 2 s", failures: 2, final: .loaded, attempts: 3, seconds: 3),
    LoaderCase(label: "always failing: gives up after 3 attempts", failures: 99, final: .failed, attempts: 3, seconds: 3),
  ])
  func retries(_ c: LoaderCase) async {
    let clock = ManualClock()
    let calls = Counter()
    let store = Store(Loader.table, context: .init(), clock: clock) { _, send in
      send(calls.next() <= c.failures ? .failed : .succeeded)
    }
    store.send(.load)
    await clock.advance(by: .seconds(c.seconds) - .milliseconds(1))
    if c.seconds > 0 { #expect(store.state != c.final, "not before \(c.seconds) s") }
    await clock.advance(by: .milliseconds(1))
    #expect(store.state == c.final)
    #expect(store.context.attempts == c.attempts)
    #expect(Loader.table.mermaid().contains("loading --> waiting : failed [canRetry] / retry after backoff"))
    await store.finish()
  }
}

final class Flag: Sendable {
  private let value = ManagedFlag()
  func set() { value.set() }
  var isSet: Bool { value.get() }
}

final class Counter: Sendable {
  private let value = ManagedCounter()
  func next() -> Int { value.increment() }
}
