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

  enum Phase: Hashable, Sendable, Discriminated { case idle, busy }
  enum Go: Hashable, Sendable, Discriminated { case go }
  enum Job: Hashable, Sendable { case a, b, c }

  @Test("a step's effects start in the order its row lists them", arguments: [1, 2, 3])
  func startOrder(count: Int) async throws {
    typealias R = Row<Phase, Go, NoContext, Command<Go, Job>>
    let jobs = Array([Job.a, .b, .c].prefix(count))
    let row: R =
      switch count {
      case 1: .transition(from: .idle, on: .go, to: .busy, effects: .perform(.a))
      case 2: .transition(from: .idle, on: .go, to: .busy, effects: .perform(.a), .perform(.b))
      default: .transition(from: .idle, on: .go, to: .busy, effects: .perform(.a), .perform(.b), .perform(.c))
      }
    let table = try TransitionTable<Phase, Go, NoContext, Command<Go, Job>>(initial: .idle, rows: [row])
    let started = Guarded<[Job]>([])
    let store = Store(table, context: NoContext()) { job, _ in started.withLock { $0.append(job) } }
    store.send(.go)
    #expect(started.withLock { $0 } == jobs)
    await store.finish()
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
