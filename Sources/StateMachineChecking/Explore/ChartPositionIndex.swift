public import StateMachine

/// The configurations an explorer has reached, numbered in the order they were reached, and an
/// open-addressing table of them by a hash that costs no `Hasher` for the configuration's words
/// and reuses the context's hash when a step left the context as it was (most steps of a
/// chart whose context is a few collections: hashing them again on every step was a third of
/// the search).
///
/// Positions are told apart by their configuration and a key of their context: the context
/// itself, or what an abstraction keeps of it (``ChartExplorer/abstracting(_:)``).
@usableFromInline
struct ChartPositionIndex<Keying: ContextKeying> {
  @usableFromInline typealias Context = Keying.Context
  @usableFromInline typealias Key = Keying.Key
  @usableFromInline typealias Position = _ChartPosition<Context>

  /// How a context's key is made.
  @usableFromInline let keying: Keying
  /// Every position reached, by number.
  @usableFromInline var positions: [Position] = []
  /// Each position's context key's hash, by number.
  @usableFromInline var contextHashes: [Int] = []
  /// Each position's hash (``_ChartPosition/_hash(contextHash:)``), by number.
  @usableFromInline var hashes: [Int] = []
  /// Position numbers, or -1 for an empty slot; its count is a power of two, at most half full.
  @usableFromInline var slots: [Int32]

  @inlinable
  init(capacity: Int, keying: Keying) {
    self.keying = keying
    var size = 16
    while size < 2 * capacity { size <<= 1 }
    slots = Array(repeating: -1, count: size)
  }

  @inlinable var count: Int { positions.count }

  @inlinable
  subscript(_ number: Int) -> Position { positions[number] }

  /// The hash of `key`, taken from position `near`'s when the two keys are equal (a step that
  /// changed nothing in the context leaves one that compares equal quickly: its collections
  /// share their storage).
  @inlinable
  func contextHash(of key: Key, near: Int) -> Int {
    near >= 0 && keying.key(of: positions[near].context) == key ? contextHashes[near] : key.hashValue
  }

  /// Files `position` (whose context's key is `key`, hashing to `contextHash`) unless a
  /// position of the same configuration and key is filed already; returns its number and
  /// whether it is new.
  @inlinable
  mutating func file(_ position: Position, key: Key, contextHash: Int) -> (number: Int, new: Bool) {
    let hash = position._hash(contextHash: contextHash)
    let mask = slots.count - 1
    var slot = hash & mask
    while true {
      let number = Int(slots[slot])
      if number < 0 { break }
      if hashes[number] == hash, positions[number]._sameConfiguration(as: position), keying.key(of: positions[number].context) == key {
        return (number, false)
      }
      slot = (slot + 1) & mask
    }
    let number = positions.count
    positions.append(position)
    contextHashes.append(contextHash)
    hashes.append(hash)
    slots[slot] = Int32(truncatingIfNeeded: number)
    if 2 * positions.count > slots.count { grow() }
    return (number, true)
  }

  /// Forgets the position filed last (one found over the limit).
  @inlinable
  mutating func removeLast() {
    guard let hash = hashes.last else { return }
    let number = positions.count - 1
    let mask = slots.count - 1
    var slot = hash & mask
    while Int(slots[slot]) != number { slot = (slot + 1) & mask }
    // The last position filed is the last in its probe run: nothing after it moves.
    slots[slot] = -1
    positions.removeLast()
    contextHashes.removeLast()
    hashes.removeLast()
  }

  @usableFromInline
  mutating func grow() {
    slots = Array(repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    for (number, hash) in hashes.enumerated() {
      var slot = hash & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(truncatingIfNeeded: number)
    }
  }
}
