extension Array {
  /// Removes every element and keeps the storage: element by element when there are a few
  /// (the common case of a step's buffers), since `removeAll(keepingCapacity:)` moves the
  /// elements after the removed ones with a `memmove` call even when there are none.
  @inlinable
  mutating func clear() {
    switch count {
    case 0: return
    case 1...4: for _ in 0..<count { removeLast() }
    default: removeAll(keepingCapacity: true)
    }
  }
}
