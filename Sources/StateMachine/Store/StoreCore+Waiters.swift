/// Those waiting on the store (``Rare/idle``, ``Rare/finish``, ``Rare/space``, ``Rare/endsTold``):
/// which to resume as the store changes, collected under its lock and resumed outside it.
extension StoreCore {
  /// Continuations to resume now that the store may be idle or have room. Asked under every
  /// lock a drainer takes, and nearly always none: that answer is inlined, the rest is not.
  @inlinable @inline(__always)
  mutating func waitersToResume() -> [CheckedContinuation<Void, Never>] {
    guard let rare, rare.hasWaiters else { return [] }
    return someWaitersToResume(rare)
  }

  @usableFromInline
  func someWaitersToResume(_ rare: Rare) -> [CheckedContinuation<Void, Never>] {
    var resume: [CheckedContinuation<Void, Never>] = []
    if !draining, !rare.finish.isEmpty {
      resume += rare.finish
      rare.finish = []
    }
    if !rare.idle.isEmpty {
      for (index, waiter) in rare.idle.enumerated().reversed() where isIdle(besides: waiter.besides) {
        resume.append(waiter.continuation)
        rare.idle.remove(at: index)
      }
    }
    while !rare.space.isEmpty, !isFull || finished {
      resume.append(rare.space.removeFirst())
      if !finished { break }
    }
    return resume
  }

  /// Every waiter, when the store finishes.
  @inlinable
  mutating func drainWaiters() -> [CheckedContinuation<Void, Never>] {
    guard let rare else { return [] }
    defer { (rare.idle, rare.space) = ([], []) }
    return rare.idle.map(\.continuation) + rare.space
  }
}
