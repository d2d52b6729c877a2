public import StateMachine

/// The positions an explorer has reached (a place and a context), numbered in the order they
/// were reached, and an open-addressing table of them by a hash that costs no `Hasher` for the
/// place and reuses the context's hash when a step left the context as it was (most steps of a
/// machine whose context is a few collections: hashing them again on every step was a third of
/// the search).
///
/// Positions are told apart by their place and a key of their context: the context itself, or
/// what an abstraction keeps of it (``Explorer/abstracting(_:)``).
@usableFromInline
struct PositionIndex<Machine: _MachineExplorer, Keying: ContextKeying> where Keying.Context == Machine.Definition.Context {
  @usableFromInline typealias Context = Keying.Context
  @usableFromInline typealias Key = Keying.Key

  /// How a context's key is made.
  @usableFromInline let keying: Keying
  /// Every position reached, by number: its place, context, and whether the machine had halted.
  @usableFromInline var places: [Machine.Place] = []
  @usableFromInline var contexts: [Context] = []
  @usableFromInline var halted: [Bool] = []
  /// Each position's context key, by number.
  @usableFromInline var keys: [Key] = []
  /// Each position's context key's hash, by number.
  @usableFromInline var contextHashes: [Int] = []
  /// Each position's hash (``_MachineExplorer/placeHash(contextHash:)``), by number.
  @usableFromInline var hashes: [Int] = []
  /// Position numbers, or -1 for an empty slot; its count is a power of two, at most half full.
  @usableFromInline var slots: [Int32]

  @inlinable
  init(capacity: Int, keying: Keying) {
    self.keying = keying
    var size = 16
    while size < 2 * capacity { size <<= 1 }
    slots = Array(repeating: -1, count: size)
    places.reserveCapacity(capacity)
    contexts.reserveCapacity(capacity)
    halted.reserveCapacity(capacity)
    keys.reserveCapacity(capacity)
    contextHashes.reserveCapacity(capacity)
    hashes.reserveCapacity(capacity)
  }

  @inlinable var count: Int { places.count }

  /// The hash of `key`, taken from position `near`'s when the two keys are equal (a step that
  /// changed nothing in the context leaves one that compares equal quickly: its collections
  /// share their storage).
  @inlinable
  func contextHash(of key: Key, near: Int) -> Int {
    near >= 0 && keys[near] == key ? contextHashes[near] : key.hashValue
  }

  /// The number of the position filed where `machine` is, with a context whose key is `key`
  /// (`hash` is their ``_MachineExplorer/placeHash(contextHash:)``), or -1 with the slot a new
  /// one goes in (for ``add(_:context:halted:key:contextHash:hash:slot:)``, before anything else
  /// is filed).
  @inlinable
  func find(_ machine: Machine, key: Key, hash: Int) -> (number: Int, slot: Int) {
    let mask = slots.count - 1
    var slot = hash & mask
    while true {
      let number = Int(slots[slot])
      if number < 0 { return (-1, slot) }
      if hashes[number] == hash, keys[number] == key, machine.isAt(places[number]) { return (number, slot) }
      slot = (slot + 1) & mask
    }
  }

  /// Files a position that ``find(_:key:hash:)`` did not find, in the slot it gave; returns its
  /// number.
  @inlinable
  mutating func add(
    _ place: consuming Machine.Place, context: consuming Context, halted: Bool, key: consuming Key, contextHash: Int, hash: Int,
    slot: Int
  ) -> Int {
    let number = places.count
    places.append(place)
    contexts.append(context)
    self.halted.append(halted)
    keys.append(key)
    contextHashes.append(contextHash)
    hashes.append(hash)
    slots[slot] = Int32(truncatingIfNeeded: number)
    if 2 * places.count > slots.count { grow() }
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
