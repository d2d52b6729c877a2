import StateMachine
import Synchronization
import Testing

@Suite("Store effects, errors, shutdown")
struct EffectTests {
  typealias S = Countdown.State
  typealias E = Countdown.Event

  @Test("a cancelled effect's late result is dropped, and the inspector says so")
  func lateResultDropped() async {
    let clock = ManualClock()
    let recorder = Recorder()
    let gate = Gate()
    let store = Store(Countdown.table, context: .init(), clock: clock) { _, send in
      await gate.wait()  // ignores cancellation: the answer comes late
      send(.codeSent)
    } inspector: { recorder.record($0) }
    store.send(.tap)
    store.send(.reset)  // leaves requesting: the request is cancelled
    gate.open()
    await store.settle()
    #expect(store.state == .idle)
    #expect(recorder.all.contains("cancelled request"))
    #expect(recorder.all.contains("dropped codeSent from requestCode (in state)"))
    #expect(recorder.steps() == ["step tap: idle -> requesting", "step reset: requesting -> idle"])
    await store.finish()
  }

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    let label: String
    let mapsTo: E?
    let state: S
    var testDescription: String { label }
  }

  @Test("a thrown error becomes the event the failure closure names", arguments: [
    ErrorCase(label: "mapped to requestFailed", mapsTo: .requestFailed("boom"), state: .failed),
    ErrorCase(label: "mapped to nothing: dropped, the timeout still guards", mapsTo: nil, state: .requesting),
  ])
  func errorMapping(_ c: ErrorCase) async {
    struct Boom: Error {}
    let recorder = Recorder()
    let store = Store(Countdown.table, context: .init(), clock: ManualClock()) { _, _ in throw Boom() } failure: { _, _ in
      c.mapsTo
    } inspector: { recorder.record($0) }
    store.send(.tap)
    await store.settle()
    #expect(store.state == c.state)
    #expect(recorder.all.contains { $0.hasPrefix("failed Boom()") })
    await store.finish()
  }

  @Test("finish() cancels and awaits every effect; nothing outlives the store")
  func shutdown() async {
    let clock = ManualClock()
    let cancelled = Mutex(0)
    let store = Store(Countdown.table, context: .init(), clock: clock) { _, _ in
      do { try await clock.sleep(for: .seconds(3600)) } catch { cancelled.withLock { $0 += 1 } }
    }
    store.send(.tap)
    await store.settle()
    #expect(store.runningEffectCount == 2, "the request and its timeout")
    #expect(clock.pendingCount == 2)
    await store.finish()
    #expect(store.runningEffectCount == 0)
    #expect(cancelled.withLock { $0 } == 1, "the handler saw the cancellation before finish() returned")
    #expect(clock.pendingCount == 0, "no sleeper or timer left on the clock")
    #expect(store.send(.tap) == .rejected(.finished))
    var count = 0
    for await _ in store.states { count += 1 }
    #expect(count == 1, "a subscription after finish gets the current state and ends")
  }

  @Test("any number of consumers see every state and every step")
  func observation() async {
    let clock = ManualClock()
    let store = Store(Countdown.table, context: .init(), clock: clock) { _, send in send(.codeSent) }
    let a = store.states
    let b = store.states
    let steps = store.steps
    store.send(.tap)
    await clock.advance(by: .seconds(3))
    await store.finish()
    var seenA: [S] = []
    for await s in a { seenA.append(s) }
    var seenB: [S] = []
    for await s in b { seenB.append(s) }
    var events: [String] = []
    for await step in steps { events.append("\(step.sequence):\(step.event)") }
    #expect(seenA == [.idle, .requesting, .counting, .idle])
    #expect(seenB == seenA)
    #expect(events == ["1:tap", "2:codeSent", "3:tick", "4:tick", "5:tick"])
  }
}
