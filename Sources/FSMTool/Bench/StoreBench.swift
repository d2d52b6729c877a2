import FSMCommand
import Dispatch
import Foundation
import StateMachine


/// Store variants of the `loader` workload, and the concurrent-producers workload.
enum StoreBench {
  typealias State = LoaderBench.State
  typealias Event = LoaderBench.Event
  enum Work: Hashable, Sendable { case noop }

  static func table(effects: Bool) -> TransitionTable<State, Event, NoContext, Command<Event, Work>> {
    typealias R = Row<State, Event, NoContext, Command<Event, Work>>
    func row(_ from: [State], _ event: Event, _ to: State) -> R {
      effects ? .transition(from: from, on: event, to: to, effects: .perform(.noop)) : .transition(from: from, on: event, to: to)
    }
    return try! TransitionTable(
      name: effects ? "loader-store-effects" : "loader-store",
      initial: .idle,
      rows: [
        row([.idle, .success, .retry], .load, .loading),
        row([.loading], .succeeded, .success),
        row([.loading], .failed, .failure),
        row([.failure], .retryTapped, .retry),
        row([.success, .failure, .retry], .reset, .idle),
      ])
  }

  /// Sends every event from this thread; the checksum sums the states, like the switch's.
  static func sendAll(_ events: [Event], to store: Store<TransitionTable<State, Event, NoContext, Command<Event, Work>>>) -> Int {
    var sum = 0
    for event in events {
      store.send(event)
      sum &+= Int(store.state.rawValue)
    }
    return sum
  }

  /// Variants added to the `loader` workload.
  static func loaderVariants(events: [Event]) -> [BenchVariant] {
    let plain = table(effects: false)
    return [
      BenchVariant(name: "store.send, no effects") {
        sendAll(events, to: Store(plain, context: NoContext()) { _, _ in })
      },
    ]
  }

  /// One `perform` effect per event: each is a task that runs the (empty) handler.
  static func effectsWorkload(count: Int) -> BenchWorkload {
    let events = LoaderBench.events(count: count, seed: 0x5EED)
    let withEffects = table(effects: true)
    return BenchWorkload(
      name: "store-effects", events: count,
      variants: [
        LoaderBench.switchVariant(events: events),
      BenchVariant(name: "store.send, one effect per event") {
        let store = Store(withEffects, context: NoContext()) { _, _ in }
        let sum = sendAll(events, to: store)
        finishSynchronously(store)
        return sum
      },
      ])
  }

  /// 8 producers send their share of the events into one store at once.
  static func producersWorkload(perProducer: Int) -> BenchWorkload {
    let producers = 8
    let events = LoaderBench.events(count: producers * perProducer, seed: 0x5EED)
    let plain = table(effects: false)
    return BenchWorkload(
      name: "store-8-producers", events: events.count,
      variants: [
        LoaderBench.countingSwitchVariant("switch, 1 thread (reference)", events: events),
        BenchVariant(name: "store.send, 8 producers") {
          let store = Store(plain, context: NoContext()) { _, _ in }
          runConcurrently(producers) { p in
            for i in stride(from: p, to: events.count, by: producers) { store.send(events[i]) }
          }
          return store.stepCount
        },
      ])
  }

  /// Bytes per idle store: growth of the resident set over `count` stores, divided by `count`
  /// (Linux: `/proc/self/statm`; elsewhere not measured).
  /// With `stepped`, each store is started and handles one event first. The stores are kept in
  /// `kept` when given (so that a measurement made after this one does not reuse their memory).
  static func bytesPerIdleStore(count: Int, stepped: Bool = false, kept: inout [Any]) -> Double {
    let plain = table(effects: false)
    var stores: [Store<TransitionTable<State, Event, NoContext, Command<Event, Work>>>] = []
    stores.reserveCapacity(count)
    guard let before = residentBaseline() else { return .nan }
    for _ in 0..<count {
      let store = Store(plain, context: NoContext()) { _, _ in }
      if stepped {
        store.start()
        store.send(.load)
      }
      stores.append(store)
    }
    guard let after = residentBytes() else { return .nan }
    kept.append(stores)
    return Double(after - before) / Double(count)
  }

  static func bytesPerIdleStore(count: Int) -> Double {
    var kept: [Any] = []
    return bytesPerIdleStore(count: count, kept: &kept)
  }

  /// The resident set before a growth is measured: glibc's free heap memory is given back to
  /// the system first (`malloc_trim`), so that what is made next takes new pages instead of
  /// pages an earlier workload freed, which read as no growth at all (0 bytes per store).
  static func residentBaseline() -> Int? {
    #if canImport(Glibc)
      typealias Trim = @convention(c) (Int) -> Int32
      if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") { _ = unsafeBitCast(trim, to: Trim.self)(0) }
    #endif
    return residentBytes()
  }

  static func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// Finishes a store from synchronous code (the benchmark's closures are synchronous).
  static func finishSynchronously<Definition>(_ store: Store<Definition>) {
    wait { await store.finish() }
  }

  /// Runs `body` on a task and blocks this thread until it is done.
  static func wait(_ body: @escaping @Sendable () async -> Void) {
    let done = Semaphore()
    Task {
      await body()
      done.signal()
    }
    done.wait()
  }
}

/// Runs `body(0..<count)` on `count` threads at once and returns when all are done.
func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let done = Semaphore()
  for p in 0..<count {
    let thread = Thread {
      body(p)
      done.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  for _ in 0..<count { done.wait() }
}

/// A counting semaphore for the benchmark's synchronous code.
final class Semaphore: @unchecked Sendable {
  // DispatchSemaphore is thread-safe; the class only wraps it.
  private let semaphore = DispatchSemaphore(value: 0)
  func signal() { semaphore.signal() }
  func wait() { semaphore.wait() }
}
