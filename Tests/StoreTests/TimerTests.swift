import StateMachine
import Testing

@Suite("Store timers on the manual clock")
struct TimerTests {
  typealias S = Countdown.State

  /// A store whose request effect answers after `answerAfter` of clock time (or never).
  static func makeStore(
    clock: ManualClock, answerAfter: Duration? = .seconds(1), fail: Bool = false, recorder: Recorder = Recorder()
  ) -> Store<TransitionTable<S, Countdown.Event, Countdown.Context, Command<Countdown.Event, Countdown.Work>>> {
    Store(Countdown.table, context: .init(), clock: clock) { work, send in
      guard let answerAfter else {
        try await clock.sleep(for: .seconds(3600))
        return
      }
      try await clock.sleep(for: answerAfter)
      if fail { throw TestFailure.network }
      send(.codeSent)
    } failure: { _, error in .requestFailed("\(error)") } inspector: { recorder.record($0) }
  }

  enum TestFailure: Error { case network }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let answerAfter: Duration?
    let fail: Bool
    /// (advance by, state after, remaining after)
    let script: [(Duration, S, Int)]
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    .init(label: "after: no answer, the 5 s state timeout fires", answerAfter: nil, fail: false,
          script: [(.seconds(4), .requesting, 0), (.seconds(1), .failed, 0)]),
    .init(label: "every: answer at 1 s, then a tick each second down to idle", answerAfter: .seconds(1), fail: false,
          script: [(.milliseconds(999), .requesting, 0), (.milliseconds(1), .counting, 3), (.seconds(1), .counting, 2),
                   (.seconds(1), .counting, 1), (.seconds(1), .idle, 0), (.seconds(10), .idle, 0)]),
    .init(label: "state scope: leaving requesting cancels its timeout", answerAfter: .seconds(4), fail: false,
          script: [(.seconds(4), .counting, 3), (.seconds(1), .counting, 2)]),
    .init(label: "error mapping: a thrown error becomes requestFailed", answerAfter: .seconds(2), fail: true,
          script: [(.seconds(2), .failed, 0), (.seconds(10), .failed, 0)]),
  ]

  @Test("timer rules", arguments: cases)
  func rules(_ c: Case) async {
    let clock = ManualClock()
    let store = Self.makeStore(clock: clock, answerAfter: c.answerAfter, fail: c.fail)
    store.send(.tap)
    await store.settle()
    for (i, (step, state, remaining)) in c.script.enumerated() {
      await clock.advance(by: step)
      #expect(store.state == state, "after step \(i + 1) (t = \(clock.now))")
      #expect(store.context.remaining == remaining, "after step \(i + 1)")
    }
    await store.finish()
    #expect(store.runningEffectCount == 0)
  }

  @Test("re-entering a state restarts its state-scoped timer from zero")
  func reentryRestarts() async {
    let clock = ManualClock()
    let recorder = Recorder()
    let store = Self.makeStore(clock: clock, recorder: recorder)
    store.send(.tap)
    await clock.advance(by: .seconds(1))  // counting, ticker started at t=1
    await clock.advance(by: .milliseconds(500))
    store.send(.reset)  // leaves counting at t=1.5: the ticker is cancelled
    store.send(.tap)
    await clock.advance(by: .seconds(1))  // code again at t=2.5: a new ticker, first tick at t=3.5
    #expect(store.state == .counting)
    await clock.advance(by: .milliseconds(900))
    #expect(store.context.remaining == 3, "no tick from the old ticker at t=2, 3")
    await clock.advance(by: .milliseconds(100))
    #expect(store.context.remaining == 2, "the new ticker's first tick at t=3.5")
    #expect(recorder.all.filter { $0 == "cancelled ticker" }.count == 1)
    await store.finish()
  }

  @Test("timers due at the same instant deliver in the order they were scheduled")
  func sameInstantOrder() async {
    typealias E = Countdown.Event
    let table = try! TransitionTable<S, E, Countdown.Context, Countdown.Effect>(
      initial: .idle,
      rows: [
        .stay(in: .idle, on: .tap, effects: .send(.ping(1), after: .seconds(2)), .send(.ping(2), after: .seconds(1)),
              .send(.ping(3), after: .seconds(2)), .send(.ping(4), after: .seconds(1))),
        .stayInAny(on: .ping).update { c, e in if case .ping(let n) = e { c.pings.append(n) } },
      ],
      policy: .ignore)
    let clock = ManualClock()
    let store = Store(table, context: .init(), clock: clock) { _, _ in }
    store.send(.tap)
    await clock.advance(by: .seconds(5))
    #expect(store.context.pings == [2, 4, 1, 3])
    await store.finish()
  }

  @Test("cancel by ID stops a periodic timer")
  func cancelByID() async {
    let clock = ManualClock()
    let recorder = Recorder()
    let store = Self.makeStore(clock: clock, recorder: recorder)
    store.send(.tap)
    await clock.advance(by: .seconds(2))
    #expect(store.context.remaining == 2)
    store.send(.tap)  // in counting: cancel("ticker")
    await clock.advance(by: .seconds(10))
    #expect(store.state == .counting)
    #expect(store.context.remaining == 2)
    #expect(recorder.all.contains("cancelled ticker"))
    #expect(clock.pendingCount == 0)
    await store.finish()
  }

  @Test("start() performs the initial state's entry effects")
  func startRunsEntryEffects() async {
    let table = try! TransitionTable<S, Countdown.Event, Countdown.Context, Countdown.Effect>(
      initial: .counting, states: Countdown.table.declaredStates, rows: Countdown.table.rows, policy: .ignore)
    let clock = ManualClock()
    let store = Store(table, context: .init(remaining: 2), clock: clock) { _, _ in }
    await clock.advance(by: .seconds(3))
    #expect(store.context.remaining == 2, "nothing runs before start()")
    store.start()
    await clock.advance(by: .seconds(1))
    #expect(store.context.remaining == 1)
    await store.finish()
  }

  @Test("the task-based timer path (any other clock) delivers too")
  func otherClock() async {
    let store = Store(Countdown.table, context: .init(), clock: ImmediateClock()) { _, send in send(.codeSent) }
    var states: [S] = []
    for await state in store.states {
      states.append(state)
      if state == .idle, states.count == 1 { store.send(.tap) }
      if states.count == 4 { break }
    }
    #expect(states == [.idle, .requesting, .counting, .idle])
    await store.finish()
  }
}
