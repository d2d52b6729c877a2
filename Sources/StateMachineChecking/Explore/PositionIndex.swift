public import StateMachine

/// The positions an explorer has reached (a place and a context), numbered in the order they
/// were reached, and an open-addressing table of them by a hash that costs no `Hasher`.
///
/// Positions are told apart by their place and a key of their context: the context itself, or
/// what an abstraction keeps of it (``Explorer/abstracting(_:)``). Each distinct key is filed
/// once, in a ``ContextTable``, and a position holds its key's number: a position is found by
/// comparing numbers, never contexts, and a step that wrote no context (most steps of a machine
/// whose context is a few collections) keeps its position's number without hashing the context
/// again (hashing it on every step was a third of the search).
@usableFromInline
struct PositionIndex<Machine: _MachineExplorer, Keying: ContextKeying> where Keying.Context == Machine.Definition.Context {
  @usableFromInline typealias Context = Keying.Context
  @usableFromInline typealias Key = Keying.Key

  /// Every distinct context key reached, numbered.
  @usableFromInline var keys: ContextTable<Keying>
  /// How many events the alphabet has.
  @usableFromInline let events: Int
  /// Per event (a position in the alphabet), the number of the key its last step ended with
  /// (-1: none yet).
  @usableFromInline var lastKeys: [Int32]
  /// Per key number and event (`key * events + event`, below ``followerSlots``), the number of
  /// the key the last step on that event from a position with that key ended with (-1: none
  /// yet).
  @usableFromInline var followers: [Int32] = []
  /// Every position reached, by number: its place, context (the one it was first reached
  /// with), the number of its context's key, and whether the machine had halted.
  @usableFromInline var places: [Machine.Place] = []
  @usableFromInline var contexts: [Context] = []
  @usableFromInline var keyNumbers: [Int32] = []
  @usableFromInline var halted: [Bool] = []
  /// Each position's hash (``_MachineExplorer/placeHash(contextHash:)`` of its key's number),
  /// by number.
  @usableFromInline var hashes: [Int] = []
  /// Position numbers, or -1 for an empty slot; its count is a power of two, at most half full.
  @usableFromInline var slots: [Int32]

  @inlinable
  init(capacity: Int, events: Int, keying: Keying) {
    keys = ContextTable(capacity: min(capacity, 32), keying: keying)
    self.events = events
    lastKeys = Array(repeating: -1, count: events)
    var size = 16
    while size < 2 * capacity { size <<= 1 }
    slots = Array(repeating: -1, count: size)
    places.reserveCapacity(capacity)
    contexts.reserveCapacity(capacity)
    keyNumbers.reserveCapacity(capacity)
    halted.reserveCapacity(capacity)
    hashes.reserveCapacity(capacity)
    // Room for the followers of the first keys: grown an event at a time, it was copied again
    // and again in a small machine's search.
    followers.reserveCapacity(min(min(capacity, 32) * events, Self.followerSlots))
  }

  @inlinable var count: Int { places.count }

  /// The number of the key of `machine`'s context, filed now when it is new; `near` is the
  /// position the machine stepped from (-1: none), whose key is taken without hashing when the
  /// machine says its context was not written since it was put back there, or when the two
  /// keys compare equal (a context written with what it held compares equal quickly: its
  /// collections share their storage).
  ///
  /// Failing those, the key is compared before it is hashed (comparing a context, its short
  /// strings two words at a time, costs a fraction of hashing it) with the one the same event
  /// (`event`, a position in the alphabet) led to from the same key before (an event does to a
  /// context what it did before, whatever the state: a chart's context is written by its
  /// transitions, which most states share), then with the one the last step on that event
  /// ended with (a reset, a page loaded: the same context wherever they are taken).
  ///
  /// (`machine` is `inout`, though nothing changes it, so that it is passed by its address:
  /// passed as a value, the whole machine was copied on every step.)
  @inlinable
  mutating func keyNumber(of machine: inout Machine, near: Int, event: Int) -> Int32 {
    if near >= 0, !machine.contextMayHaveChanged { return keyNumbers[near] }
    let key = keys.keying.key(of: machine.context)
    guard near >= 0, event >= 0 else { return keys.number(of: key) }
    let from = keyNumbers[near]
    if keys.keys[Int(from)] == key { return from }
    // (Remembered for the first keys only: at most `followerSlots` numbers, 4 MB.)
    let slot = Int(from) &* events &+ event
    let remembered = slot < Self.followerSlots
    var known: Int32 = -1
    if remembered {
      if slot >= followers.count {
        let size = min(max(slot + 1, 2 * followers.count), Self.followerSlots)
        followers += repeatElement(-1, count: size - followers.count)
      }
      known = followers[slot]
      if known >= 0, keys.keys[Int(known)] == key { return known }
    }
    let last = lastKeys[event]
    let number = last >= 0 && last != known && keys.keys[Int(last)] == key ? last : keys.number(of: key)
    lastKeys[event] = number
    if remembered { followers[slot] = number }
    return number
  }

  /// The most key numbers ``followers`` holds (key × event), so that it stays small beside the
  /// positions however many contexts an exploration reaches.
  @inlinable static var followerSlots: Int { 1 << 20 }

  /// The number of the position filed where `machine` is, with a context whose key's number is
  /// `key` (`hash` is their ``_MachineExplorer/placeHash(contextHash:)``), or -1 with the slot a
  /// new one goes in (for ``add(_:context:halted:key:hash:slot:)``, before anything else is
  /// filed). (`machine` is `inout` to pass it by its address, as for ``keyNumber(of:near:event:)``.)
  @inlinable
  func find(_ machine: inout Machine, key: Int32, hash: Int) -> (number: Int, slot: Int) {
    let mask = slots.count - 1
    var slot = hash & mask
    while true {
      let number = Int(slots[slot])
      if number < 0 { return (-1, slot) }
      if hashes[number] == hash, keyNumbers[number] == key, machine.isAt(places[number]) { return (number, slot) }
      slot = (slot + 1) & mask
    }
  }

  /// Files a position that ``find(_:key:hash:)`` did not find, in the slot it gave; returns its
  /// number.
  @inlinable
  mutating func add(_ place: consuming Machine.Place, context: consuming Context, halted: Bool, key: Int32, hash: Int, slot: Int) -> Int {
    let number = places.count
    places.append(place)
    contexts.append(context)
    keyNumbers.append(key)
    self.halted.append(halted)
    hashes.append(hash)
    slots[slot] = Int32(truncatingIfNeeded: number)
    if 2 * places.count > slots.count { grow() }
    return number
  }

  @usableFromInline
  mutating func grow() { slots = refiled(hashes, size: slots.count * 2) }
}

/// The distinct context keys an explorer has reached, numbered in the order they were reached,
/// in an open-addressing table by their hash.
@usableFromInline
struct ContextTable<Keying: ContextKeying> {
  @usableFromInline typealias Key = Keying.Key

  /// How a context's key is made.
  @usableFromInline let keying: Keying
  /// Every key, by number, and its hash.
  @usableFromInline var keys: [Key] = []
  @usableFromInline var hashes: [Int] = []
  /// Key numbers, or -1 for an empty slot; its count is a power of two, at most half full.
  @usableFromInline var slots: [Int32]

  @inlinable
  init(capacity: Int, keying: Keying) {
    self.keying = keying
    var size = 16
    while size < 2 * capacity { size <<= 1 }
    slots = Array(repeating: -1, count: size)
    keys.reserveCapacity(capacity)
    hashes.reserveCapacity(capacity)
  }

  /// The number of `key`, filed now when it is new.
  @inlinable
  mutating func number(of key: Key) -> Int32 {
    let hash = key.hashValue
    let mask = slots.count - 1
    var slot = hash & mask
    while true {
      let number = slots[slot]
      if number < 0 { break }
      if hashes[Int(number)] == hash, keys[Int(number)] == key { return number }
      slot = (slot + 1) & mask
    }
    let number = Int32(truncatingIfNeeded: keys.count)
    keys.append(key)
    hashes.append(hash)
    slots[slot] = number
    if 2 * keys.count > slots.count { grow() }
    return number
  }

  @usableFromInline
  mutating func grow() { slots = refiled(hashes, size: slots.count * 2) }
}

/// Open-addressing slots of `size` (a power of two) holding the numbers of `hashes`: what a
/// table that grows refiles.
@usableFromInline
func refiled(_ hashes: [Int], size: Int) -> [Int32] {
  var slots = [Int32](repeating: -1, count: size)
  let mask = size - 1
  for (number, hash) in hashes.enumerated() {
    var slot = hash & mask
    while slots[slot] >= 0 { slot = (slot + 1) & mask }
    slots[slot] = Int32(truncatingIfNeeded: number)
  }
  return slots
}
