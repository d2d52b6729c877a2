extension Array {
  /// Removes every element and keeps the storage: element by element when there are a few
  /// (the common case of a step's buffers), since `removeAll(keepingCapacity:)` moves the
  /// elements after the removed ones with a `memmove` call even when there are none. An empty
  /// array (most steps' buffers) costs a load and a test where it is called.
  @inlinable @inline(__always)
  mutating func clear() {
    if isEmpty { return }
    clearSome()
  }

  /// ``clear()`` of an array with elements.
  @inlinable
  mutating func clearSome() {
    if count <= 4 {
      for _ in 0..<count { removeLast() }
    } else {
      removeAll(keepingCapacity: true)
    }
  }
}
