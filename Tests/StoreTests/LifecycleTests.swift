import Dispatch
import Foundation
import StateMachine
import Synchronization
import Testing

/// A machine whose `go` step blocks until the test lets it go: idle --go--> busy.
enum Blocking {
  enum State: Hashable, Sendable, Discriminated { case idle, busy }
  enum Event: Hashable, Sendable, Discriminated {
    case go, other(Int)
    enum Kind: Hashable, Sendable { case go, other }
    var discriminant: Kind {
      switch self {
      case .go: .go
      case .other: .other
      }
    }
  }

  static func table(hold: @escaping @Sendable () -> Void) -> TransitionTable<State, Event, Int, Command<Event, Never>> {
    try! TransitionTable(
      initial: .idle,
      rows: [
        .transition(from: .idle, on: .go, to: .busy).update { _, _ in hold() },
        .stayInAny(on: .other).update { count, _ in count += 1 },
      ],
      policy: .ignore)
  }
}

/// A value behind an `NSLock`: ThreadSanitizer sees it (on Linux it cannot see `Mutex`'s futex,
/// so contended `Mutex`es in these tests would be reported as races).
final class Guarded<Value>: @unchecked Sendable {  // safe: `value` is only touched under `lock`
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}

/// Waits for `semaphore` on a thread of Dispatch's, not of the concurrency pool (which a test
/// may hold threads of).
func waitOffThePool(for semaphore: DispatchSemaphore) async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    DispatchQueue.global().async {
      semaphore.wait()
      done.resume()
    }
  }
}

/// Every effect start and end an inspector saw, to check each start ends exactly once.
final class EffectLedger: Sendable {
  private let entries = Guarded<[String]>([])

  func record<S, E, C, W>(_ event: StoreEvent<S, E, C, W>) {
    let line: String? =
      switch event {
      case .effectStarted(_, let d): "start \(d)"
      case .effectFinished(_, let d): "finished \(d)"
      case .effectCancelled(_, let d): "cancelled \(d)"
      case .effectFailed(let d, _, _): "failed \(d)"
      default: nil
      }
    if let line { entries.withLock { $0.append(line) } }
  }

  var all: [String] { entries.withLock { $0 } }

  /// Descriptions started and not ended, and ends without a start (each once per occurrence).
  var unbalanced: [String] {
    var open: [String: Int] = [:]
    var problems: [String] = []
    for line in all {
      let (kind, description) = (line.prefix(while: { $0 != " " }), String(line.drop(while: { $0 != " " }).dropFirst()))
      if kind == "start" {
        open[description, default: 0] += 1
      } else if (open[description] ?? 0) > 0 {
        open[description]! -= 1
      } else {
        problems.append("\(kind) without a start: \(description)")
      }
    }
    return problems + open.filter { $0.value > 0 }.map { "never ended: \($0.key)" }
  }
}

@Suite("Store lifecycle: finish() loses nothing, every effect ends exactly once")
struct LifecycleTests {
  @Test("finish() waits for the running step, reports it, and reports the queued events it drops")
  func finishWaitsForTheRunningStep() async {
    let inside = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let reports = Guarded<[String]>([])
    let store = Store(Blocking.table { inside.signal(); release.wait() }, context: 0) { (_: Never, _) in } inspector: { event in
      switch event {
      case .step(let step): reports.withLock { $0.append("step \(step.event)") }
      case .queuedEventDropped(let e): reports.withLock { $0.append("dropped \(e)") }
      default: break
      }
    }
    let drainer = Thread { store.send(.go) }
    drainer.start()
    inside.wait()  // the drainer is inside the go step's update
    #expect(store.send(.other(1)) == .accepted)
    #expect(store.send(.other(2)) == .accepted)
    let finished = ManagedFlag()
    let finishing = Task {
      await store.finish()
      finished.set()
    }
    try? await Task.sleep(for: .milliseconds(50))
    #expect(!finished.get(), "finish() does not return while a step is running")
    release.signal()
    await finishing.value
    #expect(store.state == .busy)
    #expect(store.stepCount == 1)
    #expect(reports.withLock { $0 } == ["step go", "dropped other(1)", "dropped other(2)"])
    #expect(store.send(.other(3)) == .rejected(.finished))
    try? await Task.sleep(for: .milliseconds(20))
    #expect(reports.withLock { $0.count } == 3, "nothing is reported after finish() returned")
  }

  @Test("finish() waits for the work of an effect a step cancelled before, and reports what it sends late")
  func finishWaitsForWorkCancelledBefore() async {
    // The work waits on a gate that does not heed cancellation, then sends: its effect was
    // cancelled by `reset` (it leaves `requesting`), so what it sends is dropped, and reported.
    let gate = Guarded<(open: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    let lines = Guarded<[String]>([])
    let store = Store(Countdown.table, context: .init(), clock: ContinuousClock()) { _, send in
      await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
        let open = gate.withLock { gate -> Bool in
          if !gate.open { gate.waiter = waiter }
          return gate.open
        }
        if open { waiter.resume() }
      }
      send(.codeSent)
    } inspector: { report in
      switch report {
      case .effectCancelled(_, let d): lines.withLock { $0.append("cancelled \(d)") }
      case .lateEventDropped(let event, let effect): lines.withLock { $0.append("late \(event) from \(effect)") }
      default: break
      }
    }
    store.send(.tap)
    store.send(.reset)
    let finished = ManagedFlag()
    let finishing = Task {
      await store.finish()
      finished.set()
    }
    try? await Task.sleep(for: .milliseconds(50))
    #expect(!finished.get(), "finish() does not return while the work of a cancelled effect runs")
    gate.withLock { gate in
      gate.open = true
      gate.waiter?.resume()
    }
    await finishing.value
    #expect(lines.withLock { $0 } == [
      "cancelled requestCode (in state)", "cancelled after 5 s: timeout (in state)", "late codeSent from requestCode (in state)",
    ])
  }

  /// A call the store's own effect work awaits, and whether a step cancelled that effect before.
  struct OwnWorkCase: Sendable, CustomTestStringConvertible {
    let label: String
    let finishes: Bool
    let cancelledBefore: Bool
    var testDescription: String { label }
  }

  static let ownWorkCases = [
    OwnWorkCase(label: "finish() from a running effect's work", finishes: true, cancelledBefore: false),
    OwnWorkCase(label: "finish() from the work of an effect a step cancelled", finishes: true, cancelledBefore: true),
    OwnWorkCase(label: "settle() from a running effect's work", finishes: false, cancelledBefore: false),
    OwnWorkCase(label: "settle() from the work of an effect a step cancelled", finishes: false, cancelledBefore: true),
  ]

  @Test("finish() and settle() awaited from the store's own effect work return (they do not wait for that work)", arguments: ownWorkCases)
  func awaitedFromItsOwnWork(_ test: OwnWorkCase) async throws {
    // The work calls its own store after a suspension (so its task is attached), while its
    // effect still runs, or after a step cancelled it (`reset` leaves `requesting`).
    let box = Guarded<Store<TransitionTable<Countdown.State, Countdown.Event, Countdown.Context, Countdown.Effect>>?>(nil)
    let (started, proceed) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let (returned, ledger) = (ManagedFlag(), EffectLedger())
    let store = Store(Countdown.table, context: .init(), clock: ContinuousClock()) { _, _ in
      started.signal()
      try? await Task.sleep(for: .milliseconds(1))
      await waitOffThePool(for: proceed)
      guard let store = box.withLock({ $0 }) else { return }
      if test.finishes { await store.finish() } else { await store.settle() }
      returned.set()
    } inspector: { ledger.record($0) }
    box.withLock { $0 = store }
    store.send(.tap)
    started.wait()
    if test.cancelledBefore { store.send(.reset) }
    proceed.signal()
    for _ in 0..<200 where !returned.get() { try await Task.sleep(for: .milliseconds(10)) }
    #expect(returned.get(), "\(test.label) did not return within 2 s")
    #expect(store.send(.reset) == (test.finishes ? .rejected(.finished) : .accepted))
    await store.finish()
    #expect(ledger.unbalanced.isEmpty, "\(ledger.unbalanced)")
  }

  @Test("8 producers, finish() mid-stream: every accepted event was handled or reported dropped", arguments: [1, 2, 3])
  func finishUnderLoad(_ round: Int) async {
    let counts = Guarded([String: Int]())
    let store = Store(Tally.table(), context: .init()) { (_: Never, _) in } inspector: { event in
      // Sends after finish() are rejected and say so; no step or drop may come after it.
      switch event {
      case .step:
        if counts.withLock({ $0["done"] != nil }) { counts.withLock { $0["afterFinish", default: 0] += 1 } }
        counts.withLock { $0["handled", default: 0] += 1 }
      case .queuedEventDropped:
        if counts.withLock({ $0["done"] != nil }) { counts.withLock { $0["afterFinish", default: 0] += 1 } }
        counts.withLock { $0["dropped", default: 0] += 1 }
      default: break
      }
    }
    let pause = Duration.milliseconds(5 * round)
    await withTaskGroup(of: Void.self) { group in
      for p in 0..<8 {
        group.addTask {
          var mine = 0
          for s in 0..<20_000 where store.send(.add(producer: p, sequence: s)) == .accepted { mine += 1 }
          counts.withLock { [mine] in $0["accepted", default: 0] += mine }
        }
      }
      group.addTask {
        try? await Task.sleep(for: pause)
        await store.finish()
        counts.withLock { $0["done"] = 1 }
      }
    }
    let (total, handled, dropped) = counts.withLock { ($0["accepted", default: 0], $0["handled", default: 0], $0["dropped", default: 0]) }
    #expect(total > 0)
    #expect(handled + dropped == total, "accepted \(total), handled \(handled), dropped \(dropped)")
    #expect(store.stepCount == handled)
    #expect(counts.withLock { $0["afterFinish", default: 0] } == 0)
  }

  @Test("a one-shot timer reports finished when it fires; TestStore-style accounting balances")
  func oneShotTimerFinishes() async {
    typealias E = Countdown.Event
    let table = try! TransitionTable<Countdown.State, E, Countdown.Context, Countdown.Effect>(
      initial: .idle,
      rows: [
        .stay(in: .idle, on: .tap, effects: .send(.ping(1), after: .seconds(1), id: "backoff")),
        .stayInAny(on: .ping).update { c, e in if case .ping(let n) = e { c.pings.append(n) } },
      ],
      policy: .ignore)
    let clock = ManualClock()
    let ledger = EffectLedger()
    let store = Store(table, context: .init(), clock: clock) { _, _ in } inspector: { ledger.record($0) }
    store.send(.tap)
    await clock.advance(by: .seconds(1))
    #expect(store.context.pings == [1])
    #expect(ledger.all == ["start after 1 s: ping(1)", "finished after 1 s: ping(1)"])
    #expect(store.runningEffectCount == 0)
    await store.finish()
    #expect(ledger.unbalanced.isEmpty)
  }

  @Test("an effect whose result leaves its state, and which then returns, is finished, not cancelled")
  func selfCancelledEffectFinishes() async {
    let clock = ManualClock()
    let ledger = EffectLedger()
    let store = Store(Countdown.table, context: .init(), clock: clock) { _, send in send(.codeSent) } inspector: { ledger.record($0) }
    store.send(.tap)  // requesting: the request sends codeSent, which leaves requesting
    await store.settle()
    #expect(store.state == .counting)
    #expect(ledger.all.contains("finished requestCode (in state)"))
    #expect(!ledger.all.contains("cancelled requestCode (in state)"))
    #expect(ledger.all.contains("cancelled after 5 s: timeout (in state)"), "the state's timeout did not fire: cancelled")
    await store.finish()
    #expect(ledger.unbalanced.isEmpty, "\(ledger.unbalanced)")
  }

  @Test("an effect whose first result leaves its state and that sends again is cancelled (its later result dropped)")
  func selfCancelledEffectThatGoesOn() async {
    let clock = ManualClock()
    let ledger = EffectLedger()
    let store = Store(Countdown.table, context: .init(), clock: clock) { _, send in
      send(.codeSent)
      send(.codeSent)  // dropped: its state is gone
    } inspector: { ledger.record($0) }
    store.send(.tap)
    await store.settle()
    #expect(ledger.all.contains("cancelled requestCode (in state)"))
    #expect(!ledger.all.contains("finished requestCode (in state)"))
    await store.finish()
    #expect(ledger.unbalanced.isEmpty, "\(ledger.unbalanced)")
  }

  @Test("a failed effect is reported failed only, not also finished")
  func failedIsNotFinished() async {
    struct Boom: Error {}
    let ledger = EffectLedger()
    let store = Store(Countdown.table, context: .init(), clock: ManualClock()) { _, _ in throw Boom() } failure: { _, _ in
      .requestFailed("boom")
    } inspector: { ledger.record($0) }
    store.send(.tap)
    await store.settle()
    #expect(store.state == .failed)
    #expect(ledger.all.filter { $0.hasSuffix("requestCode (in state)") } == ["start requestCode (in state)", "failed requestCode (in state)"])
    await store.finish()
    #expect(ledger.unbalanced.isEmpty, "\(ledger.unbalanced)")
  }

  @Test("random sessions: every started effect ends with exactly one of finished, cancelled or failed", arguments: [UInt64(1), 2, 3, 4])
  func everyEffectEndsOnce(_ seed: UInt64) async {
    struct Boom: Error {}
    var random = SplitMix64(seed: seed)
    let clock = ManualClock()
    let ledger = EffectLedger()
    let outcomes = Guarded(SplitMix64(seed: seed &+ 99))
    let store = Store(Countdown.table, context: .init(), clock: clock) { _, send in
      let choice = outcomes.withLock { $0.next() % 4 }
      switch choice {
      case 0: send(.codeSent)
      case 1: throw Boom()
      case 2: try await clock.sleep(for: .seconds(2))
        send(.codeSent)
      default: try await clock.sleep(for: .seconds(10))  // outlived by the timeout
      }
    } failure: { _, _ in .requestFailed("boom") } inspector: { ledger.record($0) }
    for _ in 0..<200 {
      switch random.next() % 5 {
      case 0, 1: store.send(.tap)
      case 2: store.send(.reset)
      default: await clock.advance(by: .milliseconds(Int64(random.next() % 3000)))
      }
    }
    await store.finish()
    #expect(ledger.all.count > 50)
    #expect(ledger.unbalanced.isEmpty, "seed \(seed): \(ledger.unbalanced)")
  }
}

@Suite("Store steps carry their clock time")
struct StepTimeTests {
  @Test("on a manual clock, each step's time is the virtual time it was taken at")
  func timeline() async {
    let clock = ManualClock()
    let times = Guarded<[String]>([])
    let store = Store(Countdown.table, context: .init(), clock: clock) { _, send in
      try await clock.sleep(for: .seconds(2))
      send(.codeSent)
    } inspector: { report in
      if case .step(let step) = report { times.withLock { $0.append("\(step.time) \(step.event)") } }
    }
    await clock.advance(by: .milliseconds(500))
    store.send(.tap)
    await clock.advance(by: .seconds(4))
    #expect(times.withLock { $0 } == ["0.5 seconds tap", "2.5 seconds codeSent", "3.5 seconds tick", "4.5 seconds tick"])
    await store.finish()
  }
}
