/// A set of state indices as bits: the configuration, hashable so it can key a cache. Charts
/// of up to 64 states keep it in one word, without reference counting.
@usableFromInline
struct StateBits: Hashable, Sendable {
  @usableFromInline var small: UInt64 = 0
  @usableFromInline var large: [UInt64]?

  @usableFromInline
  init(count: Int) { if count > 64 { large = [UInt64](repeating: 0, count: (count + 63) / 64) } }

  /// Written out (not derived) so that it inlines: a chart of up to 64 states compares one word.
  @inlinable
  static func == (a: StateBits, b: StateBits) -> Bool {
    guard a.small == b.small else { return false }
    if a.large == nil, b.large == nil { return true }
    return a.large == b.large
  }

  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(small)
    if let large { hasher.combine(large) }
  }

  @inlinable
  subscript(_ s: Int) -> Bool {
    get {
      guard let large else { return small & (1 << UInt64(s)) != 0 }
      return large[s >> 6] & (1 << UInt64(s & 63)) != 0
    }
    set {
      if large == nil {
        if newValue { small |= 1 << UInt64(s) } else { small &= ~(1 << UInt64(s)) }
      } else if newValue {
        large![s >> 6] |= 1 << UInt64(s & 63)
      } else {
        large![s >> 6] &= ~(1 << UInt64(s & 63))
      }
    }
  }
}
