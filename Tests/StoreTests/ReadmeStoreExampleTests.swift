import Foundation
import StateMachine
import Testing

// The README's store example, kept compiling and true.
@Test("README store example")
func readmeStoreExample() async throws {
  enum Phase: Hashable, Discriminated { case idle, requesting, counting }
  enum Input: Hashable, Discriminated { case tap, codeSent, tick, reset }
  enum Work: Hashable, Sendable { case requestCode }

  let captcha = try TransitionTable<Phase, Input, Int, Command<Input, Work>>(
    initial: .idle,
    states: [
      .state(.idle),
      .state(.requesting, entry: [.perform(.requestCode, id: "request", scope: .state)]),
      .state(.counting, entry: [.every(.seconds(1), send: .tick, id: "ticker", scope: .state)]),
    ],
    rows: [
      .transition(from: .idle, on: .tap, to: .requesting),
      .transition(from: .requesting, on: .codeSent, to: .counting).update { left, _ in left = 60 },
      .stay(in: .counting, on: .tick).when("left > 1") { left, _ in left > 1 }.update { left, _ in left -= 1 },
      .transition(from: .counting, on: .tick, to: .idle),
      .fromAny(on: .reset, to: .idle),
    ])

  let clock = ManualClock()
  let store = Store(captcha, context: 0, clock: clock) { work, send in
    try await clock.sleep(for: .seconds(1))
    send(.codeSent)
  }
  store.send(.tap)
  await clock.advance(by: .seconds(31))
  print(store.state, store.context)
  #expect("\(store.state) \(store.context)" == "counting 30")
  await clock.advance(by: .seconds(60))
  #expect(store.state == .idle)
  await store.finish()

  // "Stability": an inspector's switch over StoreEvent, with @unknown default.
  let seen = Seen()
  let watched = Store(captcha, context: 0, clock: clock, handler: { _, _ in }, inspector: { event in
      switch event {
      case .step(let step): print(step.sequence, step.from, "->", step.to)
      case .effectFailed(let description, let error, _): print("failed:", description, error)
      case .effectStarted, .effectFinished, .effectCancelled, .lateEventDropped, .eventRejected, .queuedEventDropped, .childStep: break
      @unknown default: break
      }
      if case .step(let step) = event { seen.add("\(step.sequence) \(step.from) -> \(step.to)") }
  })
  watched.send(.tap)
  await watched.finish()
  #expect(seen.lines == ["1 idle -> requesting"])
}

/// Lines an inspector saw (from any thread).
private final class Seen: @unchecked Sendable {  // safe: `stored` is only touched under `lock`
  private let lock = NSLock()
  private var stored: [String] = []
  func add(_ line: String) { lock.withLock { stored.append(line) } }
  var lines: [String] { lock.withLock { stored } }
}
