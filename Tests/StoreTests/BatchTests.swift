import Dispatch
import Foundation
import StateMachine
import Synchronization
import Testing

/// A drainer that finds events queued behind its step takes them all at once and steps the
/// quiet ones without a lock each (nobody listens, nothing starts or is cancelled). These tests
/// fill the mailbox while the drainer is held inside a step, so the batch is certain, and check
/// what must not change: order, state-scoped effects ended when their state is left, and no
/// event handled once `finish()` has begun.
@Suite("Store: batches of queued events")
struct BatchTests {
  enum State: Hashable, Sendable, Discriminated { case idle, busy }
  enum Event: Hashable, Sendable, Discriminated {
    case add(Int), work, leave, hold
    enum Kind: Hashable, Sendable, CaseIterable { case add, work, leave, hold }
    var discriminant: Kind {
      switch self {
      case .add: .add
      case .work: .work
      case .leave: .leave
      case .hold: .hold
      }
    }
  }
  enum Work: Hashable, Sendable { case wait }
  struct Context: Sendable { var added: [Int] = [] }

  /// What the `wait` effect saw: cancelled, or not within two seconds.
  enum Ending: Sendable, Equatable { case cancelled, notCancelled }

  /// `hold` blocks the drainer until the test releases it; `work` starts a state-scoped wait
  /// in `busy`, which `leave` leaves.
  final class Harness: Sendable {
    let inside = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let endings = Guarded<[Ending]>([])
    let store: Store<TransitionTable<State, Event, Context, Command<Event, Work>>>

    init() {
      let (inside, release, endings) = (inside, release, endings)
      let table = try! TransitionTable<State, Event, Context, Command<Event, Work>>(
        initial: .idle,
        rows: [
          .stay(in: [.idle, .busy], on: .add).update { context, event in
            if case .add(let n) = event { context.added.append(n) }
          },
          .transition(from: .idle, on: .work, to: .busy, effects: .perform(.wait, scope: .state)),
          .transition(from: .busy, on: .leave, to: .idle),
          .stay(in: [.idle, .busy], on: .hold).update { _, _ in
            inside.signal()
            release.wait()
          },
        ])
      store = Store(table, context: Context()) { _, _ in
        for _ in 0..<200 {
          if Task.isCancelled {
            endings.withLock { $0.append(.cancelled) }
            return
          }
          try? await Task.sleep(for: .milliseconds(10))
        }
        endings.withLock { $0.append(.notCancelled) }
      }
    }

    /// Sends `hold` from another thread and returns once that thread drains, inside the step.
    func holdDrainer() {
      let drainer = Thread { [store] in store.send(.hold) }
      drainer.start()
      inside.wait()
    }
  }

  @Test("a state-scoped effect started inside a batch ends when a later event of the batch leaves its state")
  func scopedEffectInBatch() async {
    let h = Harness()
    h.holdDrainer()
    for event: Event in [.add(0), .add(1), .work, .add(2), .leave, .add(3)] { #expect(h.store.send(event) == .accepted) }
    h.release.signal()
    while h.store.stepCount < 7 { await Task.yield() }
    await h.store.settle()
    #expect(h.store.context.added == [0, 1, 2, 3])
    #expect(h.store.state == .idle)
    #expect(h.endings.withLock { $0 } == [.cancelled])
    await h.store.finish()
  }

  @Test("events queued behind the drainer are handled in the order they were sent", arguments: [1, 10, 1_000])
  func order(count: Int) async {
    let h = Harness()
    h.holdDrainer()
    for n in 0..<count { h.store.send(.add(n)) }
    h.release.signal()
    while h.store.stepCount < count + 1 { await Task.yield() }
    #expect(h.store.context.added == Array(0..<count))
    await h.store.finish()
  }

  @Test("once finish() has begun, no event of a batch in hand is handled")
  func finishStopsBatch() async {
    let h = Harness()
    h.holdDrainer()
    // The drainer takes these at once when the first hold ends, and stops in the second.
    for event: Event in [.add(0), .hold] + (1...9).map(Event.add) { h.store.send(event) }
    h.release.signal()
    h.inside.wait()
    let finished = Task { await h.store.finish() }
    while h.store.send(.add(-1)) != .rejected(.finished) { await Task.yield() }
    h.release.signal()
    await finished.value
    #expect(h.store.context.added == [0])
    #expect(h.store.stepCount == 3)
  }
}
