import Dispatch
import Foundation
import StateMachine
import Testing

/// An effect that ends on its own is forgotten under the store's lock and reported to the
/// inspector after it. `finish()` and `settle()` return only once that report is made: a
/// `finish()` or `settle()` that comes in between waits for it. (Serialized: each case holds a
/// thread of the pool for up to 300 ms.)
@Suite("Store: finish() and settle() wait for the report of an effect that ended meanwhile", .serialized)
struct EffectEndReportTests {
  enum Kind: String, Sendable {
    /// A perform effect whose work returns.
    case perform
    /// A one-shot timer that fires.
    case timer
    /// A delayed message to a child that falls due.
    case message
  }

  enum Waiting: String, Sendable { case finish, settle }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let kind: Kind
    let waiting: Waiting
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "finish() after a perform effect returned", kind: .perform, waiting: .finish),
    Case(label: "settle() after a perform effect returned", kind: .perform, waiting: .settle),
    Case(label: "finish() after a one-shot timer fired", kind: .timer, waiting: .finish),
    Case(label: "settle() after a one-shot timer fired", kind: .timer, waiting: .settle),
    Case(label: "finish() after a delayed message fell due", kind: .message, waiting: .finish),
    Case(label: "settle() after a delayed message fell due", kind: .message, waiting: .settle),
  ]

  /// The ended effect's report, as the inspector holds it.
  static func ending(_ kind: Kind) -> String {
    switch kind {
    case .perform: "finished requestCode"
    case .timer: "finished after 50 ms: ping(1)"
    case .message: "finished after 20 ms: send pause to job"
    }
  }

  /// A table whose `tap` performs `requestCode`, whose `reset` pings it in 50 ms, and whose
  /// `tick` step calls `hold`.
  static func table(hold: @escaping @Sendable () -> Void) -> TransitionTable<
    Countdown.State, Countdown.Event, Countdown.Context, Countdown.Effect
  > {
    try! TransitionTable(
      initial: .idle,
      rows: [
        .stay(in: .idle, on: .tap, effects: .perform(.requestCode)),
        .stay(in: .idle, on: .reset, effects: .send(.ping(1), after: .milliseconds(50))),
        .stay(in: .idle, on: .tick).update { _, _ in hold() },
        .stayInAny(on: .ping).update { c, e in if case .ping(let n) = e { c.pings.append(n) } },
      ],
      policy: .ignore)
  }

  /// The store under test, on a real clock, as three closures: what leads to the effect's
  /// end, run on a thread of its own, and the store's `finish()` and `settle()`. None of the
  /// ends is reported by a thread that drains the store, which `finish()` and `settle()` wait
  /// for anyway:
  /// - the perform effect's work returns after a suspension, on a thread of the pool;
  /// - the timer fires while another thread drains, in a step that `hold` holds, so its event
  ///   is queued for that thread (which steps it, and may stop draining before the report);
  /// - the delayed message is delivered to the child by its timer's thread.
  static func store(
    _ kind: Kind, hold: @escaping @Sendable () -> Void, inspector: @escaping @Sendable (String) -> Void
  ) throws -> (trigger: @Sendable () -> Void, finish: @Sendable () async -> Void, settle: @Sendable () async -> Void) {
    switch kind {
    case .perform, .timer:
      let store = Store(table(hold: hold), context: .init(), clock: ContinuousClock()) { _, _ in
        try await Task.sleep(for: .milliseconds(1))
      } inspector: { report in
        if let line = line(report) { inspector(line) }
      }
      let trigger: @Sendable () -> Void = {
        if kind == .perform {
          store.send(.tap)
        } else {
          store.send(.reset)
          store.send(.tick)
        }
      }
      return (trigger, { await store.finish() }, { await store.settle() })
    case .message:
      let store = try Store(
        DelayedMessageTests.parent(), context: [], clock: ContinuousClock(), handler: { _, _ in },
        inspector: { report in if let line = line(report) { inspector(line) } })
      store.start()
      store.send("start")
      return ({ store.send("soon") }, { await store.finish() }, { await store.settle() })
    }
  }

  static func line<Event, Step>(_ report: StoreReport<Event, Step>) -> String? {
    switch report {
    case .effectStarted(_, let d): "start \(d)"
    case .effectFinished(_, let d): "finished \(d)"
    case .effectCancelled(_, let d): "cancelled \(d)"
    case .effectFailed(let d, let error, _): "failed \(d): \(error)"
    default: nil
    }
  }

  @Test("the effect's end is reported before finish() or settle() returns", arguments: cases)
  func waitsForTheReport(_ test: Case) async throws {
    let lines = Guarded<[String]>([])
    let (ended, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let (stepHeld, triggered) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let awaited = Self.ending(test.kind)
    let store = try Self.store(test.kind, hold: { _ = stepHeld.wait(timeout: .now() + .seconds(5)) }) { line in
      if line == awaited {
        ended.signal()
        // Long enough for `finish()` or `settle()` to return here if it does not wait.
        _ = release.wait(timeout: .now() + .milliseconds(300))
      }
      lines.withLock { $0.append(line) }
    }
    Thread {
      store.trigger()
      triggered.signal()
    }.start()
    // The end is being reported: the held step (if any) goes on, and its thread stops draining.
    await waitOffThePool(for: ended)
    stepHeld.signal()
    await waitOffThePool(for: triggered)
    switch test.waiting {
    case .finish: await store.finish()
    case .settle: await store.settle()
    }
    #expect(lines.withLock { $0 }.contains(awaited), "\(test.waiting)() returned before the end was reported")
    release.signal()
    if test.waiting == .settle { await store.finish() }
  }
}
