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
  // Safe to share: `value` is only touched inside `withLock`, which holds `mutex`. It lives
  // behind a pointer so that access is not checked dynamically for exclusivity on every call.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let value: UnsafeMutablePointer<Value>

  @usableFromInline
  init(_ value: Value) {
    self.value = .allocate(capacity: 1)
    self.value.initialize(to: value)
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
    value.deinitialize(count: 1)
    value.deallocate()
  }

  /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
  @inlinable
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
