/// Coverage gathered over many steps, as bits: the transitions ever taken and the states ever
/// entered, with what was covered for the first time since it was last kept or dropped (a step
/// that failed covers nothing). What both kinds' explorers gather: a chart's machine in its
/// accumulating trace, a table's explorer directly.
@usableFromInline
struct CoverageBits: Sendable {
  @usableFromInline var takenBits: [UInt64]
  @usableFromInline var enteredBits: [UInt64]
  /// States entered, and transitions taken, for the first time since the last keep or drop.
  @usableFromInline var fresh: [Int] = []
  @usableFromInline var freshTaken: [Int] = []

  /// Nothing covered yet, of `states` states and `transitions` transitions.
  @usableFromInline
  init(states: Int, transitions: Int) {
    enteredBits = [UInt64](repeating: 0, count: (states + 63) / 64)
    takenBits = [UInt64](repeating: 0, count: (transitions + 63) / 64)
  }

  /// Transition `t` was taken.
  @inlinable
  mutating func took(_ t: Int) {
    if Self.insert(t, into: &takenBits) { freshTaken.append(t) }
  }

  /// State `s` was entered.
  @inlinable
  mutating func enter(_ s: Int) {
    if Self.insert(s, into: &enteredBits) { fresh.append(s) }
  }

  /// Sets bit `i` of `bits`; whether it was clear.
  @inlinable @inline(__always)
  static func insert(_ i: Int, into bits: inout [UInt64]) -> Bool {
    let bit: UInt64 = 1 << UInt64(i & 63)
    guard bits[i >> 6] & bit == 0 else { return false }
    bits[i >> 6] |= bit
    return true
  }

  /// Whether anything was covered for the first time since it was last kept or dropped.
  @inlinable
  var grew: Bool { !fresh.isEmpty || !freshTaken.isEmpty }

  /// Keeps what was covered since the last keep or drop; returns the states first entered.
  @inlinable
  mutating func keep() -> [Int] {
    let entered = fresh
    fresh.removeAll(keepingCapacity: true)
    freshTaken.removeAll(keepingCapacity: true)
    return entered
  }

  /// Takes back what was covered since the last keep or drop.
  @inlinable
  mutating func drop() {
    for s in fresh { enteredBits[s >> 6] &= ~(1 << UInt64(s & 63)) }
    for t in freshTaken { takenBits[t >> 6] &= ~(1 << UInt64(t & 63)) }
    fresh.removeAll(keepingCapacity: true)
    freshTaken.removeAll(keepingCapacity: true)
  }

  /// The transitions ever taken, in increasing order.
  var taken: [Int] {
    var taken: [Int] = []
    for (w, word) in takenBits.enumerated() where word != 0 {
      for b in 0..<64 where word & (1 << UInt64(b)) != 0 { taken.append(w << 6 | b) }
    }
    return taken
  }
}
