import Foundation

/// Values already decoded from JSON texts, found by the text's raw bytes: no `String` is made
/// and no `Hasher` runs to find one. Direct-mapped (a colliding text replaces the slot's), so a
/// miss only means the caller takes its slower path, which fills the slot again.
@usableFromInline
struct ByteKeyCache<Value> {
  @usableFromInline
  struct Slot {
    @usableFromInline let hash: UInt64
    @usableFromInline let key: [UInt8]
    @usableFromInline let value: Value

    @inlinable
    init(hash: UInt64, key: [UInt8], value: Value) { (self.hash, self.key, self.value) = (hash, key, value) }
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

  /// The value cached for exactly these bytes, if any.
  @inlinable
  func value(for bytes: UnsafeRawBufferPointer) -> Value? {
    guard !slots.isEmpty else { return nil }
    let hash = Self.hash(bytes)
    return slots.withUnsafeBufferPointer { slots -> Value? in
      guard let slot = slots[Int(truncatingIfNeeded: hash) & (Self.capacity - 1)], slot.hash == hash,
        slot.key.count == bytes.count
      else { return nil }
      let same = slot.key.withUnsafeBytes { key in bytes.isEmpty || memcmp(key.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
      return same ? slot.value : nil
    }
  }

  /// Remembers `value` for `key`'s bytes.
  @inlinable
  mutating func insert(_ value: Value, for key: [UInt8]) {
    if slots.isEmpty { slots = Array(repeating: nil, count: Self.capacity) }
    let hash = key.withUnsafeBytes { Self.hash($0) }
    slots[Int(truncatingIfNeeded: hash) & (Self.capacity - 1)] = Slot(hash: hash, key: key, value: value)
  }
}
