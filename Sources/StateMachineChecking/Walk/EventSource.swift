public import StateMachine

/// Where a random walk gets its events: for each step it picks one of the event cases the
/// current state handles (by weight), or, with probability `unhandledShare`, one it does not
/// handle, and makes an event of that case.
public struct EventSource<Event: Discriminated>: Sendable {
  @usableFromInline let make: @Sendable (Event.Discriminant, inout SplitMix64) -> Event?
  let shrinker: @Sendable (Event) -> [Event]
  /// Relative weights of event cases (1 when absent).
  public var weights: [Event.Discriminant: Double]
  /// The share of steps that send an event the current state does not handle (to test rejection).
  public var unhandledShare: Double

  /// Events made by `make` for a case (`nil`: skip this case), shrunk by `shrink`.
  public init(
    weights: [Event.Discriminant: Double] = [:], unhandledShare: Double = 0,
    shrink: @escaping @Sendable (Event) -> [Event] = { _ in [] },
    make: @escaping @Sendable (Event.Discriminant, inout SplitMix64) -> Event?
  ) {
    self.make = make
    shrinker = shrink
    self.weights = weights
    self.unhandledShare = min(1, max(0, unhandledShare))
  }

  /// Simpler events to try in place of `event`.
  public func shrink(_ event: Event) -> [Event] { shrinker(event) }

  /// An event for one step, given the cases the current state handles and does not; `nil`
  /// when no case can be made.
  @inlinable
  func next(handled: [Event.Discriminant], unhandled: [Event.Discriminant], using rng: inout SplitMix64) -> Event? {
    var pool = handled
    if unhandledShare > 0, !unhandled.isEmpty, Double(rng.next() >> 11) / Double(1 << 53) < unhandledShare {
      pool = unhandled
    }
    if weights.isEmpty {
      guard !pool.isEmpty else { return nil }
      return make(pool[Int(rng.next() % UInt64(pool.count))], &rng)
    }
    guard !pool.isEmpty else { return nil }
    let total = pool.reduce(0.0) { $0 + (weights[$1] ?? 1) }
    var pick = Double(rng.next() >> 11) / Double(1 << 53) * total
    for kind in pool {
      pick -= weights[kind] ?? 1
      if pick <= 0 { return make(kind, &rng) ?? nil }
    }
    return make(pool[pool.count - 1], &rng)
  }
}

extension EventSource where Event.Discriminant == Event {
  /// Events that are their own case (no payload): any case the table names.
  public static var cases: EventSource { EventSource { kind, _ in kind } }
}
