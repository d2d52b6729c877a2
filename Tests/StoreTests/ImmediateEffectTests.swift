import StateMachine
import Testing

/// A perform handler starts on the thread that stepped and runs there until it suspends.
@Suite("Effects start immediately")
struct ImmediateEffectTests {
  @Test("work that never suspends has ended, and its event been handled, before send returns")
  func synchronousWork() async {
    let log = Guarded<[String]>([])
    let ledger = EffectLedger()
    let store = Store(Countdown.table, context: .init()) { _, send in
      log.withLock { $0.append("handler") }
      send(.codeSent)
    } inspector: { ledger.record($0) }
    store.send(.tap)
    log.withLock { $0.append("send returned") }
    #expect(log.withLock { $0 } == ["handler", "send returned"])
    #expect(store.state == .counting)
    #expect(ledger.all.contains("finished requestCode (in state)"))
    await store.finish()
    #expect(ledger.unbalanced == [])
  }

  @Test("work that suspends continues concurrently; the sender goes on")
  func suspendingWork() async {
    let gate = Gate()
    let store = Store(Countdown.table, context: .init()) { _, send in
      await gate.wait()
      send(.codeSent)
    }
    store.send(.tap)
    #expect(store.state == .requesting)
    #expect(store.runningEffectCount == 2)  // the request and its timeout
    gate.open()
    await store.settle()
    #expect(store.state == .counting)
    await store.finish()
  }
}
