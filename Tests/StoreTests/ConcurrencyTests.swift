import Dispatch
import Foundation
import StateMachine
import Synchronization
import Testing

/// Counts events per producer and notes any that arrive out of order.
enum Tally {
  enum State: Hashable, Sendable, Discriminated { case open }
  enum Event: Hashable, Sendable, Discriminated {
    case add(producer: Int, sequence: Int), hold
    enum Kind: Hashable, Sendable, CaseIterable { case add, hold }
    var discriminant: Kind {
      switch self {
      case .add: .add
      case .hold: .hold
      }
    }
  }
  struct Context: Sendable {
    var next = [Int](repeating: 0, count: 8)
    var total = 0
    var outOfOrder = 0
  }

  static func table(hold: @escaping @Sendable () -> Void = {}) -> TransitionTable<State, Event, Context, Command<Event, Never>> {
    try! TransitionTable(
      initial: .open,
      rows: [
        .stay(in: .open, on: .add).update { c, e in
          guard case .add(let p, let s) = e else { return }
          if c.next[p] != s { c.outOfOrder += 1 }
          c.next[p] = s + 1
          c.total += 1
        },
        .stay(in: .open, on: .hold).update { _, _ in hold() },
      ])
  }
}

@Suite("Store under concurrent producers")
struct ConcurrencyTests {
  @Test("8 producers: every event handled exactly once, each producer's in its order", arguments: [1_000, 20_000])
  func producers(_ perProducer: Int) async {
    let store = Store(Tally.table(), context: .init()) { (_: Never, _) in }
    await withTaskGroup(of: Void.self) { group in
      for p in 0..<8 {
        group.addTask {
          for s in 0..<perProducer {
            store.send(.add(producer: p, sequence: s))
            if s % 8 == p { usleep(20) }  // let the mailbox run dry now and then
          }
        }
      }
    }
    await store.settle()
    #expect(store.context.total == 8 * perProducer)
    #expect(store.context.outOfOrder == 0)
    #expect(store.context.next == [Int](repeating: perProducer, count: 8))
    #expect(store.stepCount == 8 * perProducer)
    await store.finish()
  }

  /// A store whose `hold` step blocks until the test lets it go, so the test can fill the mailbox.
  static func heldStore(capacity: Int) -> (Store<TransitionTable<Tally.State, Tally.Event, Tally.Context, Command<Tally.Event, Never>>>, DispatchSemaphore, DispatchSemaphore) {
    let inside = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let table = Tally.table { inside.signal(); release.wait() }
    let store = Store(table, context: .init(), mailbox: .bounded(capacity: capacity)) { (_: Never, _) in }
    return (store, inside, release)
  }

  @Test("bounded mailbox, reject policy: a send to a full mailbox is rejected and says so")
  func boundedReject() async {
    let (store, inside, release) = Self.heldStore(capacity: 2)
    let drainer = Thread { store.send(.hold) }
    drainer.start()
    inside.wait()  // the drainer is inside the hold step
    #expect(store.send(.add(producer: 0, sequence: 0)) == .accepted)
    #expect(store.send(.add(producer: 0, sequence: 1)) == .accepted)
    #expect(store.send(.add(producer: 0, sequence: 2)) == .rejected(.mailboxFull))
    release.signal()
    while store.stepCount < 3 { await Task.yield() }
    await store.settle()
    #expect(store.context.total == 2)
    #expect(store.context.outOfOrder == 0)
    await store.finish()
  }

  @Test("bounded mailbox, suspend: send(waitingForRoom:) waits for room, loses nothing")
  func boundedSuspend() async {
    let (store, inside, release) = Self.heldStore(capacity: 1)
    let drainer = Thread { store.send(.hold) }
    drainer.start()
    inside.wait()
    #expect(store.send(.add(producer: 0, sequence: 0)) == .accepted)
    let waiting = Task { await store.send(waitingForRoom: .add(producer: 0, sequence: 1)) }
    release.signal()
    #expect(await waiting.value == .accepted)
    await store.settle()
    #expect(store.context.total == 2)
    #expect(store.context.outOfOrder == 0)
    await store.finish()
  }
}

@Suite("Step reports keep the order of the steps")
struct ReportOrderTests {
  /// Producers each send one event at a time (so the mailbox is often empty and another
  /// thread takes over the draining): the inspector and `steps` must still see the steps in
  /// sequence order, and every step's effects after the step itself.
  @Test("the inspector sees steps 1, 2, 3, … under contention", arguments: [1, 2, 3] as [Int])
  func inspectorOrder(round: Int) async {
    let seen = Guarded<[Int]>([])
    let store = Store(Tally.table(), context: Tally.Context(), handler: { _, _ in }, inspector: { report in
      guard case .step(let step) = report else { return }
      // A slow inspector now and then widens the moment between a step and its report.
      if step.sequence % 64 == 0 { usleep(200) }
      seen.withLock { $0.append(step.sequence) }
    })
    let perProducer = 3_000
    await withTaskGroup(of: Void.self) { group in
      for p in 0..<4 {
        group.addTask {
          for s in 0..<perProducer {
            store.send(.add(producer: p, sequence: s))
            if s % 8 == p { usleep(20) }  // let the mailbox run dry now and then
          }
        }
      }
    }
    await store.finish()
    let sequences = seen.withLock { $0 }
    #expect(sequences.count == 4 * perProducer)
    let firstOutOfOrder = zip(sequences, sequences.dropFirst()).first { $0.1 != $0.0 + 1 }
    #expect(firstOutOfOrder == nil, "round \(round): step \(firstOutOfOrder.map { "\($0.1) reported after \($0.0)" } ?? "")")
  }
}
