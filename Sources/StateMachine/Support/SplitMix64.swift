/// SplitMix64: a small seeded generator that gives the same sequence on every platform, for
/// jitter, benchmarks and reproducible random walks.
///
/// ```swift
/// var generator = SplitMix64(seed: 42)
/// let roll = Int.random(in: 1...6, using: &generator)
/// ```
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
  /// The current state; a generator with the same state continues the same sequence.
  public private(set) var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { state = seed }

  /// A new generator with an independent sequence, derived from this one (which advances).
  /// Give each walk, thread or sub-generator its own split, and one seed still fixes them all.
  public mutating func split() -> SplitMix64 {
    SplitMix64(seed: next() ^ 0x5851_F42D_4C95_7F2D)
  }

  /// The next 64 random bits of the sequence.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
