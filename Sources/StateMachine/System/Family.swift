/// A store's children, kept behind the store's lock: the running ones by id, for messages, and
/// those whose stores are still finishing, for ``Store/finish()`` to wait for. Made on the first
/// child a store starts (a store without children carries one empty word for it).
@usableFromInline
final class Family {
  /// The running children by id (attached: their stores started).
  @usableFromInline var running: [String: any RunningChild] = [:]
  /// Children cancelled or done whose stores are still finishing.
  @usableFromInline var stopping: [ObjectIdentifier: any RunningChild] = [:]

  @inlinable
  init() {}
}

extension StoreCore {
  /// The family, made now if needed.
  @inlinable
  mutating func makeFamily() -> Family {
    if let family { return family }
    let made = Family()
    family = made
    return made
  }

  /// Attaches the started `child` to the effect `token`; `false` when that effect was cancelled
  /// (or ended) meanwhile.
  @inlinable
  mutating func attach(child: any RunningChild, to token: UInt64) -> Bool {
    guard let id = running[token]?.id, attach(.child(child), to: token) else { return false }
    makeFamily().running[id.name] = child
    return true
  }

  /// A child whose store is finishing.
  @inlinable
  mutating func stopping(_ child: any RunningChild) { makeFamily().stopping[ObjectIdentifier(child)] = child }
}
