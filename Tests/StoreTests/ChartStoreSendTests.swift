import Foundation
import StateMachine
import Testing

@Suite("ChartStore: delayed sends, cancel by id, done events, effects of passing states")
struct ChartStoreSendTests {
  typealias Flow = Chart<String, UpEvent, UpContext, Command<UpEvent, UpWork>>

  static func flow() throws -> Flow {
    try Flow(name: "flow", states: [
      .atomic("waiting", transitions: [
        .on(.ping, to: "reminded"),
        .on(.cancel, do: [.cancel("reminder")]),
        .on(.pick, to: "passing"),
        .on(.again, to: "form"),
      ], onEntry: [.send(.ping, after: .seconds(2), id: "reminder")]),
      .atomic("reminded", transitions: [.on(.pick, to: "waiting")]),
      // Entered and left in one macrostep: its state-scoped work never starts, its global work does.
      .atomic("passing", transitions: [.always(to: "waiting")], onEntry: [
        .effect(.perform(.upload, id: "scoped", scope: .state)), .effect(.perform(.upload, id: "global")),
      ]),
      .parallel("form", regions: [
        .compound("name", children: [.atomic("typing", transitions: [.on(.beat, to: "named")]), .final("named")]),
        .compound("file", children: [
          .atomic("choosing", transitions: [.on(.finished, to: "chosen")], onEntry: [.send(.finished, after: .zero, id: nil)]),
          .final("chosen"),
        ]),
      ], transitions: [.onDone(of: "form", to: "sent")]),
      .atomic("sent"),
    ])
  }

  static func store(clock: ManualClock, ledger: Guarded<[String]>) throws -> Store<Chart<String, UpEvent, UpContext, Command<UpEvent, UpWork>>> {
    try Store(try flow(), context: UpContext(), clock: clock) { _, _ in } inspector: { event in
      switch event {
      case .effectStarted(let id, _): ledger.withLock { $0.append("start \(id.map { "\($0)" } ?? "-")") }
      case .effectFinished(let id, _): ledger.withLock { $0.append("finished \(id.map { "\($0)" } ?? "-")") }
      case .effectCancelled(let id, _): ledger.withLock { $0.append("cancelled \(id.map { "\($0)" } ?? "-")") }
      default: break
      }
    }
  }

  @Test("a delayed send fires on the clock; cancel by id stops it")
  func delayedSend() async throws {
    let (clock, ledger) = (ManualClock(), Guarded<[String]>([]))
    let store = try Self.store(clock: clock, ledger: ledger)
    store.start()
    await clock.advance(by: .seconds(2))
    #expect(store.configuration == ["reminded"])
    store.send(.pick)  // back to waiting: a new reminder
    store.send(.cancel)
    await clock.advance(by: .seconds(5))
    #expect(store.configuration == ["waiting"])
    #expect(ledger.withLock { $0 } == ["start reminder", "finished reminder", "start reminder", "cancelled reminder"])
    await store.finish()
  }

  @Test("a state entered and left in one macrostep starts its global effects, never its state-scoped ones")
  func passingState() async throws {
    let (clock, ledger) = (ManualClock(), Guarded<[String]>([]))
    let store = try Self.store(clock: clock, ledger: ledger)
    store.start()
    store.send(.pick)
    await store.settle()
    #expect(store.configuration == ["waiting"])
    // waiting → passing → waiting: the reminder is a global send, replaced by the new one.
    #expect(ledger.withLock { $0 } == ["start reminder", "cancelled reminder", "start global", "start reminder", "finished global"])
    await store.finish()
  }

  @Test("a send without delay is handled after the macrostep; both regions final raise the parallel's done event")
  func doneEvent() async throws {
    let (clock, ledger) = (ManualClock(), Guarded<[String]>([]))
    let store = try Self.store(clock: clock, ledger: ledger)
    store.start()
    store.send(.again)
    await store.settle()
    #expect(store.configuration == ["typing", "chosen"], "the zero-delay finished was handled after entering the form")
    store.send(.beat)
    await store.settle()
    #expect(store.configuration == ["sent"])
    #expect(store.stepCount == 3)
    await store.finish()
  }
}
