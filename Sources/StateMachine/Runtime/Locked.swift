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
  @usableFromInline let region: LockedRegion<Value>

  @usableFromInline
  init(_ value: Value) { region = LockedRegion(value) }

  deinit { region.deallocate() }

  /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
  @inlinable
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result { try region.withLock(body) }
}

/// A mutex and a value in one allocation, owned by whoever made it (who calls
/// ``deallocate()`` once): what ``Locked`` holds, and what an object that is already a
/// reference (a store's runtime) embeds to save the extra object.
@usableFromInline
struct LockedRegion<Value>: @unchecked Sendable {
  // Safe to share: `value` is only touched inside `withLock`, which holds `mutex`. Both live
  // behind pointers, so access is not checked dynamically for exclusivity on every call.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let value: UnsafeMutablePointer<Value>

  /// Where the value starts in the allocation: after the mutex, aligned for any value.
  static var valueOffset: Int {
    let size = MemoryLayout<pthread_mutex_t>.stride
    let alignment = max(MemoryLayout<Value>.alignment, 16)
    return (size + alignment - 1) / alignment * alignment
  }

  @usableFromInline
  init(_ value: Value) {
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: Self.valueOffset + max(MemoryLayout<Value>.size, 1),
      alignment: max(MemoryLayout<Value>.alignment, MemoryLayout<pthread_mutex_t>.alignment, 16))
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
    self.value = (raw + Self.valueOffset).bindMemory(to: Value.self, capacity: 1)
    self.value.initialize(to: value)
  }

  /// Destroys the value and frees the memory; the region must not be used afterwards.
  func deallocate() {
    value.deinitialize(count: 1)
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    UnsafeMutableRawPointer(mutex).deallocate()
  }

  /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
  @inlinable
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
