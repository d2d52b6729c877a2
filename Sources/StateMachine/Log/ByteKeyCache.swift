import Foundation

/// Where a JSON text's decoded value is, found by the text's raw bytes: no `String` is made
/// and no `Hasher` runs to find it. It maps bytes to a position in the caller's own array of
/// values and is not generic, so code that runs unspecialized (a chart's log replay) looks up
/// no type metadata either. Direct-mapped (a colliding text replaces the slot's), so a miss
/// only means the caller takes its slower path, which fills the slot again.
@usableFromInline
struct ByteKeyIndex {
  @usableFromInline
  struct Slot {
    @usableFromInline let hash: UInt64
    @usableFromInline let key: [UInt8]
    @usableFromInline let position: Int

    @inlinable
    init(hash: UInt64, key: [UInt8], position: Int) { (self.hash, self.key, self.position) = (hash, key, position) }
  }

  @usableFromInline static var capacity: Int { 256 }
  /// Made on the first insert, so a scanner that never caches costs nothing.
  @usableFromInline var slots: [Slot?] = []

  @inlinable init() {}

  /// FNV-1a over the bytes: a few cycles a byte for the short texts logs repeat.
  @inlinable
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }

  /// The position remembered for exactly these bytes, if any.
  @inlinable
  func position(of bytes: UnsafeRawBufferPointer) -> Int? {
    guard !slots.isEmpty else { return nil }
    let hash = Self.hash(bytes)
    return slots.withUnsafeBufferPointer { slots -> Int? in
      guard let slot = slots[Int(truncatingIfNeeded: hash) & (Self.capacity - 1)], slot.hash == hash,
        slot.key.count == bytes.count
      else { return nil }
      let same = slot.key.withUnsafeBytes { key in bytes.isEmpty || memcmp(key.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
      return same ? slot.position : nil
    }
  }

  /// Remembers `position` for `key`'s bytes.
  @inlinable
  mutating func insert(_ position: Int, for key: [UInt8]) {
    if slots.isEmpty { slots = Array(repeating: nil, count: Self.capacity) }
    let hash = key.withUnsafeBytes { Self.hash($0) }
    slots[Int(truncatingIfNeeded: hash) & (Self.capacity - 1)] = Slot(hash: hash, key: key, position: position)
  }
}

/// Values decoded from JSON texts, found by the texts' bytes (see ``ByteKeyIndex``).
@usableFromInline
struct ByteKeyCache<Value> {
  @usableFromInline var index = ByteKeyIndex()
  @usableFromInline var values: [Value] = []

  @inlinable init() {}

  /// The value cached for exactly these bytes, if any.
  @inlinable
  func value(for bytes: UnsafeRawBufferPointer) -> Value? {
    index.position(of: bytes).map { values[$0] }
  }

  /// Remembers `value` for `key`'s bytes (the caller bounds how many it inserts).
  @inlinable
  mutating func insert(_ value: Value, for key: [UInt8]) {
    values.append(value)
    index.insert(values.count - 1, for: key)
  }
}
