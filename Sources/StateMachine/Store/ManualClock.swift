/// A clock that moves only when a test says so: ``advance(by:)`` runs everything that falls
/// due, in deadline order (and, for the same instant, in the order it was scheduled: a sleep in
/// a store's effect as of when the store started the effect, so effects started one after
/// another resume one after another, however their tasks raced to their sleeps), and returns
/// when every store using the clock has settled. No test sleeps for real.
///
/// ```swift
/// let clock = ManualClock()
/// let store = Store(table, context: .init(), clock: clock, handler: handler)
/// store.send(.sendCode)
/// await clock.advance(by: .seconds(60))   // 60 ticks, delivered one by one
/// ```
public final class ManualClock: Clock, Sendable {
  /// A point in manual time: an offset from the clock's start.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// Time since the clock started.
    public var offset: Duration
    /// The instant `offset` after the clock's start.
    public init(offset: Duration) { self.offset = offset }
    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    public var description: String { "t+\(Command<Never, Never>.format(offset))" }
  }

  enum Action {
    case callback(@Sendable () -> Void)
    case resume(CheckedContinuation<Void, any Error>, owner: (any ManualClockParticipant)?)
  }

  struct Entry {
    let deadline: Instant
    let sequence: UInt64
    /// Its place among the entries due at the same instant: its sequence, or for a sleep in a
    /// store's effect, the effect's start (``ticket()``).
    let order: UInt64
    let action: Action
  }

  struct State {
    var now = Instant(offset: .zero)
    var sequence: UInt64 = 0
    var entries: [UInt64: Entry] = [:]
    var cancelledBeforeRegistration: Set<UInt64> = []
    var participants: [ObjectIdentifier: WeakParticipant] = [:]
  }

  struct WeakParticipant: @unchecked Sendable {
    // Only read under the clock's lock; the participant itself is Sendable.
    weak var participant: (any ManualClockParticipant)?
  }

  let state = Locked(State())

  /// A clock at `t+0 s`.
  public init() {}

  /// The clock's current instant: it moves only when advanced.
  public var now: Instant { state.withLock { $0.now } }
  /// The smallest step the clock tells apart: one nanosecond.
  public var minimumResolution: Duration { .zero }

  /// How many sleepers and timers are waiting for a future instant.
  public var pendingCount: Int { state.withLock { $0.entries.count } }

  /// Suspends until ``advance(by:)`` reaches `deadline`; throws `CancellationError` when the
  /// task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    if deadline <= now { return }
    let owner = ManualClockContext.participant
    let order = ManualClockContext.order
    let id = ticket()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let registered = state.withLock { state -> Bool in
          if state.cancelledBeforeRegistration.remove(id) != nil { return false }
          state.entries[id] = Entry(deadline: deadline, sequence: id, order: order ?? id, action: .resume(continuation, owner: owner))
          return true
        }
        if registered { owner?.sleeperStarted() } else { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let entry = state.withLock { state -> Entry? in
        guard let entry = state.entries.removeValue(forKey: id) else {
          state.cancelledBeforeRegistration.insert(id)
          return nil
        }
        return entry
      }
      if case .resume(let continuation, let owner)? = entry?.action {
        owner?.sleeperWoke()
        continuation.resume(throwing: CancellationError())
      }
    }
  }

  /// Moves the clock forward by `duration`, running everything due on the way in order, and
  /// waits after each for the stores using this clock to settle.
  public func advance(by duration: Duration) async {
    // Effects started since the last advance first run up to their sleeps.
    await settle()
    let target = now.advanced(by: duration)
    while let entry = takeNext(until: target) {
      switch entry.action {
      case .callback(let callback): callback()
      case .resume(let continuation, let owner):
        owner?.sleeperWoke()
        continuation.resume()
      }
      await settle()
    }
    state.withLock { $0.now = max($0.now, target) }
    await settle()
  }

  /// Waits until every store using this clock has no event queued and no effect running that
  /// is not asleep on this clock.
  public func settle() async {
    let participants = state.withLock { $0.participants.values.compactMap(\.participant) }
    for participant in participants { await participant.waitUntilIdle() }
  }

  private func takeNext(until target: Instant) -> Entry? {
    state.withLock { state in
      guard
        let (id, entry) = state.entries.filter({ $0.value.deadline <= target })
          .min(by: { ($0.value.deadline, $0.value.order, $0.value.sequence) < ($1.value.deadline, $1.value.order, $1.value.sequence) })
      else { return nil }
      state.entries.removeValue(forKey: id)
      state.now = max(state.now, entry.deadline)
      return entry
    }
  }

  /// Runs `callback` when the clock reaches `now + delay`; returns a token for ``cancelScheduled(_:)``.
  func schedule(after delay: Duration, _ callback: @escaping @Sendable () -> Void) -> UInt64 {
    state.withLock { state in
      state.sequence += 1
      state.entries[state.sequence] = Entry(
        deadline: state.now.advanced(by: delay), sequence: state.sequence, order: state.sequence, action: .callback(callback))
      return state.sequence
    }
  }

  /// The next number of the clock's one sequence: a sleep's, and the place a store's effect
  /// takes among what falls due at the same instant, taken when the store starts it
  /// (synchronously, in the order its step asked for them): the effect's sleeps keep it,
  /// whenever its task gets to them.
  func ticket() -> UInt64 {
    state.withLock { state in
      state.sequence += 1
      return state.sequence
    }
  }

  func cancelScheduled(_ token: UInt64) {
    _ = state.withLock { $0.entries.removeValue(forKey: token) }
  }

  @usableFromInline
  func register(_ participant: any ManualClockParticipant) {
    state.withLock { $0.participants[ObjectIdentifier(participant)] = WeakParticipant(participant: participant) }
  }

  @usableFromInline func unregister(_ participant: any ManualClockParticipant) {
    _ = state.withLock { $0.participants.removeValue(forKey: ObjectIdentifier(participant)) }
  }
}

/// Something whose work a manual clock waits for (a store).
@usableFromInline
protocol ManualClockParticipant: AnyObject, Sendable {
  func sleeperStarted()
  func sleeperWoke()
  func waitUntilIdle() async
}

/// Which participant the current task works for, so a manual sleep is counted as its own.
enum ManualClockContext {
  @TaskLocal static var participant: (any ManualClockParticipant)?
  /// The place of this task's sleeps among those due at the same instant: its effect's start
  /// (``ManualClock/ticket()``); `nil` outside a store's effect.
  @TaskLocal static var order: UInt64?
}
