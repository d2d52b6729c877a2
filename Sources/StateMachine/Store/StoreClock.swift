/// A clock and the instant something started on it (a store, a log recording), in one
/// existential: for the usual clocks both fit its inline buffer, so a store carries 40 bytes for
/// them, not 80 and a box.
@usableFromInline
protocol StoreClock: Sendable {
  /// The time since the start.
  var elapsed: Duration { get }
  /// The clock, when it is a ``ManualClock`` (timers are then scheduled on it).
  var manual: ManualClock? { get }
  /// Sleeps on the clock.
  func sleep(for duration: Duration) async throws
  /// The clock itself.
  var base: any Clock<Duration> { get }
  /// The same clock, started now (a child machine's store runs on its parent's clock).
  func restarted() -> any StoreClock
}

/// A ``StoreClock`` over any clock.
@usableFromInline
struct ClockSinceStart<C: Clock<Duration>>: StoreClock {
  @usableFromInline let clock: C
  @usableFromInline var start: C.Instant

  @inlinable
  init(_ clock: C) { (self.clock, start) = (clock, clock.now) }

  @usableFromInline var elapsed: Duration { start.duration(to: clock.now) }
  /// Compares types before casting: a store asks for every effect it starts, and a dynamic cast
  /// of a clock that is not a manual one was a few percent of what an effect cost.
  @usableFromInline var manual: ManualClock? { C.self == ManualClock.self ? clock as? ManualClock : nil }
  @usableFromInline func sleep(for duration: Duration) async throws { try await clock.sleep(for: duration) }
  @usableFromInline var base: any Clock<Duration> { clock }
  /// (A copy with its start set anew: it runs unspecialised, and made with `init`, it looked the
  /// generic type up on every child's start to find where the start goes.)
  @usableFromInline func restarted() -> any StoreClock {
    var restarted = self
    restarted.start = clock.now
    return restarted
  }
}

/// The store clock of `clock` (opened from the existential the stores take).
@inlinable
func storeClock<C: Clock<Duration>>(_ clock: C) -> any StoreClock { ClockSinceStart(clock) }
