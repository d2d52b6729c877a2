import Synchronization

/// A reference set at most once, read without a lock: what `AtomicLazyReference` does, over a
/// concrete `Atomic<UInt>`. `AtomicLazyReference.load()` is not inlined into a caller's
/// specialisation, and looked up its generic metadata on every call: a store that records or
/// is observed paid that several times a step.
@usableFromInline
struct OnceReference<Object: AnyObject>: ~Copyable, @unchecked Sendable {
  // Safe to share: the address is written once, with a compare-and-exchange that publishes the
  // object (releasing), and read with acquiring loads; the object is retained while stored.
  @usableFromInline let address = Atomic<UInt>(0)

  @inlinable
  init() {}

  deinit { stored?.release() }

  /// The object stored, unmanaged (its retain is this reference's); `nil` before it is.
  @inlinable
  var stored: Unmanaged<Object>? {
    let bits = address.load(ordering: .acquiring)
    return bits == 0 ? nil : Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
  }

  /// The object, once stored.
  @inlinable
  func load() -> Object? { stored?.takeUnretainedValue() }

  /// What `body` makes of the object, once stored, borrowed: not retained for the call. Only for
  /// a reference whose owner outlives the call (it releases the object when it goes).
  @inlinable
  func withLoaded<Result>(_ body: (Object) -> Result) -> Result? { stored?._withUnsafeGuaranteedRef(body) }

  /// Stores `object` unless one is stored already; returns the one stored.
  @inlinable
  func storeIfNil(_ object: Object) -> Object {
    let retained = Unmanaged.passRetained(object)
    let bits = UInt(bitPattern: retained.toOpaque())
    let (exchanged, original) = address.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
    if exchanged { return object }
    retained.release()
    return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: original)!).takeUnretainedValue()
  }
}
