#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex_t`.
///
/// The runtime uses this rather than `Synchronization.Mutex`: on Linux that one waits with raw
/// futex calls that ThreadSanitizer cannot see, so every access under it is reported as a race,
/// and the TSan pass would prove nothing. A pthread mutex is intercepted by TSan.
@usableFromInline
final class Locked<Value>: @unchecked Sendable {
  // Safe to share: the value is only touched inside `withLock`, which holds the mutex.
  @usableFromInline let region: LockedRegion<Value, Void>

  @usableFromInline
  init(_ value: Value) { region = LockedRegion(value, side: ()) }

  deinit { region.deallocate() }

  /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
  @inlinable
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result { try region.withLock(body) }
}

/// A mutex, a value behind it and a side value, in one allocation owned by whoever made it
/// (who calls ``deallocate()`` once): what ``Locked`` holds, and what an object that is already
/// a reference (a store's runtime) embeds to save the extra object.
///
/// The side value is not behind the mutex: its owner decides who may touch it, and when (a
/// store's drainer keeps its engine there, see ``StoreRuntime``).
@usableFromInline
struct LockedRegion<Value, Side>: @unchecked Sendable {
  // Safe to share: `value` is only touched inside `withLock`, which holds `mutex`; `side` only
  // as its owner's documented discipline allows. All three live behind one pointer (the others
  // are at fixed offsets from it: a region costs its owner one word), so access is not checked
  // dynamically for exclusivity on every call.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Rounds `offset` up to a multiple of `alignment` (a power of two).
  @inlinable
  static func aligned(_ offset: Int, _ alignment: Int) -> Int { (offset &+ alignment &- 1) & ~(alignment &- 1) }
  @inlinable
  static var valueOffset: Int { aligned(MemoryLayout<pthread_mutex_t>.stride, MemoryLayout<Value>.alignment) }
  @inlinable
  static var sideOffset: Int { aligned(valueOffset &+ MemoryLayout<Value>.size, max(MemoryLayout<Side>.alignment, 1)) }

  /// The value behind the mutex.
  @inlinable
  var value: UnsafeMutablePointer<Value> {
    (UnsafeMutableRawPointer(mutex) + Self.valueOffset).assumingMemoryBound(to: Value.self)
  }
  /// The side value, not behind the mutex.
  @inlinable
  var side: UnsafeMutablePointer<Side> {
    (UnsafeMutableRawPointer(mutex) + Self.sideOffset).assumingMemoryBound(to: Side.self)
  }

  @inlinable
  init(_ value: Value, side: Side) {
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: Self.sideOffset + max(MemoryLayout<Side>.size, 1),
      alignment: max(MemoryLayout<Value>.alignment, MemoryLayout<Side>.alignment, MemoryLayout<pthread_mutex_t>.alignment))
    mutex = raw.bindMemory(to: pthread_mutex_t.self, capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    #if canImport(Glibc)
      // Adaptive: a thread that finds the lock taken spins briefly before sleeping. The runtime
      // holds it for a few hundred nanoseconds at most, so a waiter usually gets it without a
      // futex sleep and the context switch that follows (the store's effects were dominated by them).
      var attributes = pthread_mutexattr_t()
      pthread_mutexattr_init(&attributes)
      pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
      pthread_mutex_init(mutex, &attributes)
      pthread_mutexattr_destroy(&attributes)
    #else
      pthread_mutex_init(mutex, nil)
    #endif
    (raw + Self.valueOffset).bindMemory(to: Value.self, capacity: 1).initialize(to: value)
    (raw + Self.sideOffset).bindMemory(to: Side.self, capacity: 1).initialize(to: side)
  }

  /// Destroys the values and frees the memory; the region must not be used afterwards.
  func deallocate() {
    side.deinitialize(count: 1)
    value.deinitialize(count: 1)
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    UnsafeMutableRawPointer(mutex).deallocate()
  }

  /// Takes the lock and returns the value behind it, for a critical section that a closure
  /// would make copy what it reads; ``unlock()`` ends it. Prefer ``withLock(_:)``.
  @inlinable
  func lock() -> UnsafeMutablePointer<Value> {
    pthread_mutex_lock(mutex)
    return value
  }

  /// Ends the critical section ``lock()`` began.
  @inlinable
  func unlock() { pthread_mutex_unlock(mutex) }

  /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
  @inlinable
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
