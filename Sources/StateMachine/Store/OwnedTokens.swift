/// The running state-scoped effects of one state, by token, in the order they started (a
/// store's tokens grow, so in increasing order): what leaving the state cancels, in that order.
///
/// Most states run one such effect (a child, a timer), kept inline: a `Set` allocated storage
/// for each, and leaving the state sorted it into an array, two allocations and as many hashes
/// on every start and stop of a state-scoped child.
@usableFromInline
struct OwnedTokens: Sendable {
  /// The earliest token.
  @usableFromInline var first: UInt64
  /// The later ones, in increasing order (empty for most states: no allocation).
  @usableFromInline var more: [UInt64]

  @inlinable
  init(_ token: UInt64) { (first, more) = (token, []) }

  /// Adds `token`, started after every token here.
  @inlinable
  mutating func append(_ token: UInt64) {
    assert(token > (more.last ?? first), "invalid state: tokens are owned in the order they start")
    more.append(token)
  }

  /// Removes `token` (if here); returns whether any token is left.
  @inlinable
  mutating func remove(_ token: UInt64) -> Bool {
    if token == first {
      guard !more.isEmpty else { return false }
      first = more.removeFirst()
    } else if let index = more.firstIndex(of: token) {
      more.remove(at: index)
    }
    return true
  }

  /// Every token, in the order they started.
  @inlinable
  var all: [UInt64] { [first] + more }
}
