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
  /// Each position's context key, by number.
  @usableFromInline var keys: [Key] = []
  /// Each position's context key's hash, by number.
  @usableFromInline var contextHashes: [Int] = []
  /// Each position's hash (``_ChartConfiguration/_hash(contextHash:)``), by number.
  @usableFromInline var hashes: [Int] = []
  /// Position numbers, or -1 for an empty slot; its count is a power of two, at most half full.
  @usableFromInline var slots: [Int32]

  @inlinable
  init(capacity: Int, keying: Keying) {
    self.keying = keying
    var size = 16
    while size < 2 * capacity { size <<= 1 }
    slots = Array(repeating: -1, count: size)
    positions.reserveCapacity(capacity)
    keys.reserveCapacity(capacity)
    contextHashes.reserveCapacity(capacity)
    hashes.reserveCapacity(capacity)
  }

  @inlinable var count: Int { positions.count }

  @inlinable
  subscript(_ number: Int) -> Position { positions[number] }

  /// The hash of `key`, taken from position `near`'s when the two keys are equal (a step that
  /// changed nothing in the context leaves one that compares equal quickly: its collections
  /// share their storage).
  @inlinable
  func contextHash(of key: Key, near: Int) -> Int {
    near >= 0 && keys[near] == key ? contextHashes[near] : key.hashValue
  }

  /// The number of the position filed with `configuration` and a context whose key is `key`
  /// (`hash` is their ``_ChartConfiguration/_hash(contextHash:)``), or -1 with the slot a new
  /// one goes in (for ``add(_:key:contextHash:hash:slot:)``, before anything else is filed).
  @inlinable
  func find(_ configuration: _ChartConfiguration, key: Key, hash: Int) -> (number: Int, slot: Int) {
    let mask = slots.count - 1
    var slot = hash & mask
    while true {
      let number = Int(slots[slot])
      if number < 0 { return (-1, slot) }
      if hashes[number] == hash, keys[number] == key, positions[number]._configuration == configuration { return (number, slot) }
      slot = (slot + 1) & mask
    }
  }

  /// Files a position that ``find(_:key:hash:)`` did not find, in the slot it gave; returns its
  /// number.
  @inlinable
  mutating func add(_ position: consuming Position, key: consuming Key, contextHash: Int, hash: Int, slot: Int) -> Int {
    let number = positions.count
    positions.append(position)
    keys.append(key)
    contextHashes.append(contextHash)
    hashes.append(hash)
    slots[slot] = Int32(truncatingIfNeeded: number)
    if 2 * positions.count > slots.count { grow() }
    return number
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
