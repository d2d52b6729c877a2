extension Dictionary {
  /// Up to how many keys a lookup compares one by one instead of hashing the key: a few short
  /// ids compare for less than one hash (a store's children and running effects by id, the
  /// synchronous system's children).
  @inlinable static var scannedCount: Int { 8 }

  /// Whether a lookup compares the keys one by one (``scannedCount``): the map holds a few, and
  /// has not held many. (A dictionary keeps its buckets when it shrinks, and a walk over its
  /// entries visits every bucket: one that held 10,000 children and holds 8 was walked through
  /// some 16,000 buckets at each lookup.)
  @inlinable var scans: Bool { count <= Self.scannedCount && capacity <= 4 * Self.scannedCount }

  /// Where `key` is: compared with each key in turn when the map ``scans`` (no hash, and no
  /// value copied), hashed otherwise.
  @inlinable
  func scanningIndex(forKey key: Key) -> Index? {
    guard scans else { return index(forKey: key) }
    var index = startIndex
    while index != endIndex {
      if keys[index] == key { return index }
      formIndex(after: &index)
    }
    return nil
  }
}
