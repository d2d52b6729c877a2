import StateMachine
import Synchronization

/// A captcha-like machine: request a code (an effect with a 5 s state timeout), then count
/// down with a periodic tick; reset from anywhere.
enum Countdown {
  enum State: String, Hashable, Sendable, CaseIterable, Discriminated { case idle, requesting, counting, failed }

  enum Event: Hashable, Sendable, Discriminated, CustomStringConvertible {
    case tap, codeSent, requestFailed(String), tick, reset, timeout, ping(Int)
    enum Kind: Hashable, Sendable, CaseIterable { case tap, codeSent, requestFailed, tick, reset, timeout, ping }
    var discriminant: Kind {
      switch self {
      case .tap: .tap
      case .codeSent: .codeSent
      case .requestFailed: .requestFailed
      case .tick: .tick
      case .reset: .reset
      case .timeout: .timeout
      case .ping: .ping
      }
    }
    var description: String {
      switch self {
      case .tap: "tap"
      case .codeSent: "codeSent"
      case .requestFailed(let m): "requestFailed(\(m))"
      case .tick: "tick"
      case .reset: "reset"
      case .timeout: "timeout"
      case .ping(let n): "ping(\(n))"
      }
    }
  }

  enum Work: Hashable, Sendable { case requestCode }

  struct Context: Hashable, Sendable {
    var remaining = 0
    var pings: [Int] = []
  }

  typealias Effect = Command<Event, Work>

  static let table = try! TransitionTable<State, Event, Context, Effect>(
    name: "countdown",
    initial: .idle,
    states: [
      .state(.idle),
      .state(.requesting, entry: [.perform(.requestCode, id: "request", scope: .state),
                                  .send(.timeout, after: .seconds(5), id: "timeout", scope: .state)]),
      .state(.counting, entry: [.every(.seconds(1), send: .tick, id: "ticker", scope: .state)]),
      .state(.failed),
    ],
    rows: [
      .transition(from: .idle, on: .tap, to: .requesting),
      .transition(from: .requesting, on: .codeSent, to: .counting).update { c, _ in c.remaining = 3 },
      .transition(from: .requesting, on: .requestFailed, to: .failed),
      .transition(from: .requesting, on: .timeout, to: .failed),
      .stay(in: .counting, on: .tick).when("remaining > 1") { c, _ in c.remaining > 1 }.update { c, _ in c.remaining -= 1 },
      .transition(from: .counting, on: .tick, to: .idle).update { c, _ in c.remaining = 0 },
      .stay(in: .counting, on: .tap, effects: .cancel("ticker")),
      .fromAny(on: .reset, to: .idle),
      .stayInAny(on: .ping).update { c, e in if case .ping(let n) = e { c.pings.append(n) } },
    ],
    policy: .ignore)
}

/// What an inspector saw, in order.
final class Recorder: Sendable {
  private let lines = Mutex<[String]>([])
  func record(_ event: StoreEvent<Countdown.State, Countdown.Event, Countdown.Context, Countdown.Work>) {
    let line: String
    switch event {
    case .step(let step): line = "step \(step.event): \(step.from) -> \(step.to)"
    case .effectStarted(let id, let d): line = "started \(id.map { "\($0)" } ?? "-") \(d)"
    case .effectFinished(let id, _): line = "finished \(id.map { "\($0)" } ?? "-")"
    case .effectCancelled(let id, _): line = "cancelled \(id.map { "\($0)" } ?? "-")"
    case .effectFailed(_, let error, let e): line = "failed \(error) -> \(e.map { "\($0)" } ?? "nil")"
    case .lateEventDropped(let e, let effect): line = "dropped \(e) from \(effect)"
    case .eventRejected(let e, let r): line = "rejected \(e): \(r)"
    case .queuedEventDropped(let e): line = "queued \(e) dropped"
    case .childStep(let step): line = "child \(step)"
    }
    lines.withLock { $0.append(line) }
  }
  var all: [String] { lines.withLock { $0 } }
  func steps() -> [String] { all.filter { $0.hasPrefix("step ") } }
}

/// An async gate a test opens by hand, that ignores task cancellation (to produce late results).
final class Gate: Sendable {
  private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
  func wait() async {
    await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
      let open = state.withLock { s -> Bool in
        if s.open { return true }
        s.waiters.append(c)
        return false
      }
      if open { c.resume() }
    }
  }
  func open() {
    let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
      s.open = true
      defer { s.waiters = [] }
      return s.waiters
    }
    for w in waiters { w.resume() }
  }
}

/// A clock whose sleeps return at once: runs the store's task-based timer path without waiting.
struct ImmediateClock: Clock {
  struct Instant: InstantProtocol {
    var offset: Duration
    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }
  var now: Instant { Instant(offset: .zero) }
  var minimumResolution: Duration { .zero }
  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    await Task.yield()
  }
}

final class ManagedFlag: Sendable {
  private let state = Mutex(false)
  func set() { state.withLock { $0 = true } }
  func get() -> Bool { state.withLock { $0 } }
}

final class ManagedCounter: Sendable {
  private let state = Mutex(0)
  func increment() -> Int { state.withLock { $0 += 1; return $0 } }
}
