/// A state of at most eight plain bytes (an enum without payloads, a small trivial struct) as
/// one machine word, so a store can publish it in an atomic and ``Store/state`` can read it
/// without taking the store's lock. Other states are read under the lock.
@usableFromInline
enum StateWord<State> {
  /// Whether `State` fits: trivially copyable (no references to count) and at most 8 bytes.
  @inlinable
  static var fits: Bool { _isPOD(State.self) && MemoryLayout<State>.size <= MemoryLayout<UInt64>.size }

  /// The bytes of `state` in a word (only when ``fits``).
  @inlinable
  static func word(_ state: State) -> UInt64 {
    var word: UInt64 = 0
    withUnsafeMutableBytes(of: &word) { $0.storeBytes(of: state, as: State.self) }
    return word
  }

  /// The state whose bytes `word` holds (made by ``word(_:)``).
  @inlinable
  static func state(_ word: UInt64) -> State {
    withUnsafeBytes(of: word) { $0.load(as: State.self) }
  }
}
