extension StoreCore {
  /// What a store rarely has, kept behind its lock in an object made the first time it has
  /// any (a store without them carries one empty word: an idle store's size is most of what it
  /// costs): the callers waiting on it, and the perform effects whose end is deferred.
  ///
  /// (Its fields are read and written only under the store's lock, so their exclusivity needs
  /// no check at run time.)
  @usableFromInline
  final class Waiting {
    /// ``Store/settle()`` calls waiting for the store to be idle.
    @exclusivity(unchecked) @usableFromInline var idle: [CheckedContinuation<Void, Never>] = []
    /// ``Store/finish()`` calls waiting for the drainer's last step to be reported.
    @exclusivity(unchecked) @usableFromInline var finish: [CheckedContinuation<Void, Never>] = []
    /// Senders waiting for room in a bounded mailbox.
    @exclusivity(unchecked) @usableFromInline var space: [CheckedContinuation<Void, Never>] = []
    /// Perform effects cancelled by a step their own event led to while their work was still
    /// inside `send`, by token.
    @exclusivity(unchecked) @usableFromInline var deferred: [UInt64: Deferred] = [:]

    @inlinable
    init() {}

    /// Whether anyone waits.
    @inlinable var hasWaiters: Bool { !idle.isEmpty || !finish.isEmpty || !space.isEmpty }
  }

  /// The store's ``Waiting``, made now if needed.
  @inlinable
  mutating func makeWaiting() -> Waiting {
    if waiting == nil { waiting = Waiting() }
    return waiting!
  }
}
