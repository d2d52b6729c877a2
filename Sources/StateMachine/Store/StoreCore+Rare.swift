/// What a store rarely has, kept behind its lock in one object made the first time it has any
/// of it (a store without any carries one empty word: an idle store's size is most of what it
/// costs): the callers waiting on it, the perform effects whose end is deferred, and its
/// children (``Family``).
///
/// (Its fields are read and written only under the store's lock, so their exclusivity needs no
/// check at run time.)
@usableFromInline
final class Rare {
  /// ``Store/settle()`` calls waiting for the store to be idle, but for `besides` perform tasks
  /// (the work that waits, if it is one: see ``StoreCore/isIdle(besides:)``).
  @exclusivity(unchecked) @usableFromInline var idle: [(continuation: CheckedContinuation<Void, Never>, besides: Int32)] = []
  /// ``Store/finish()`` calls waiting for the drainer's last step to be reported.
  @exclusivity(unchecked) @usableFromInline var finish: [CheckedContinuation<Void, Never>] = []
  /// Senders waiting for room in a bounded mailbox.
  @exclusivity(unchecked) @usableFromInline var space: [CheckedContinuation<Void, Never>] = []
  /// Perform effects cancelled by a step their own event led to while their work was still
  /// inside `send`, by token.
  @exclusivity(unchecked) @usableFromInline var deferred: [UInt64: DeferredEnd] = [:]
  /// The store's child machines (``Command/invoke(_:id:scope:)``), once it has started one.
  @exclusivity(unchecked) @usableFromInline var family: Family?
  /// An invoked chart's store: what takes its messages to `#_parent` that no step reports, those
  /// of its start and the delayed ones (see ``StoreRuntime/saidToParent(_:starting:)``).
  @exclusivity(unchecked) @usableFromInline var parentSink: (@Sendable (MachineMessage.Content) -> SendResult)?
  /// Effects that ended on their own, forgotten under the lock, whose end is still being told
  /// outside it (see ``StoreCore/endPending()``): the store is not idle, nor has it finished,
  /// until they have been.
  @exclusivity(unchecked) @usableFromInline var pendingEnds = 0
  /// ``Store/finish()`` calls waiting for those ends to be told.
  @exclusivity(unchecked) @usableFromInline var endsTold: [CheckedContinuation<Void, Never>] = []
  /// The tasks of perform effects a step cancelled whose work has not returned yet, by token:
  /// `finish()` waits for them, and knows its caller among them (see ``StoreCore/runsTask(_:)``).
  @exclusivity(unchecked) @usableFromInline var cancelledTasks: [UInt64: Task<Void, Never>] = [:]

  @inlinable
  init() {}

  /// Whether anyone waits.
  @inlinable var hasWaiters: Bool { !idle.isEmpty || !finish.isEmpty || !space.isEmpty }
}

/// A perform effect cancelled by a step its own event led to, while its work was still inside
/// `send`: how it ends is known only when its work returns.
@usableFromInline
struct DeferredEnd {
  @usableFromInline var task: Task<Void, Never>?
  /// Something it sent after the cancellation was dropped.
  @usableFromInline var dropped = false

  @inlinable
  init(task: Task<Void, Never>?) { self.task = task }
}

extension StoreCore {
  /// The store's ``Rare``, made now if needed.
  @inlinable
  mutating func makeRare() -> Rare {
    if rare == nil { rare = Rare() }
    return rare!
  }

  /// An effect that ended on its own is forgotten now, and its end is told outside the lock
  /// (reported to the inspector, or a delayed message delivered): until ``endTold()``, the
  /// store is not idle, and `finish()` waits for it.
  @inlinable
  mutating func endPending() { makeRare().pendingEnds += 1 }

  /// The end of ``endPending()`` has been told: the waiters to resume, if it was the last.
  @inlinable
  mutating func endTold() -> [CheckedContinuation<Void, Never>] {
    guard let rare, rare.pendingEnds > 0 else { preconditionFailure("invalid state: an end told that was not pending") }
    rare.pendingEnds -= 1
    guard rare.pendingEnds == 0 else { return [] }
    defer { rare.endsTold = [] }
    return rare.endsTold + waitersToResume()
  }

  /// Whether an ended effect's end is still being told (see ``endPending()``).
  @inlinable var endsPending: Bool { (rare?.pendingEnds ?? 0) > 0 }

  /// Registers `waiter` to resume once every pending end is told; `false` when none is.
  @inlinable
  mutating func waitsForEndsTold(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
    guard let rare, rare.pendingEnds > 0 else { return false }
    rare.endsTold.append(waiter)
    return true
  }

  /// Whether the task whose hash is `task` (``StoreRuntime/currentTask``) is the work of one of
  /// the store's perform effects: running, cancelled by a step, or with its end deferred.
  @inlinable
  func runsTask(_ task: Int?) -> Bool {
    guard let task else { return false }
    for entry in running.values { if case .task(let running) = entry.handle, running.hashValue == task { return true } }
    guard let rare else { return false }
    return rare.deferred.values.contains { $0.task?.hashValue == task } || rare.cancelledTasks.values.contains { $0.hashValue == task }
  }

  /// Files the tasks of the perform effects a step cancelled (``Rare/cancelledTasks``), in the
  /// lock that forgot them: none has ended yet (its end would have forgotten it first), and its
  /// end takes it out again. (A timer's task is not filed: it ends with no word to the store.)
  /// One whose task was not attached yet is not filed.
  @inlinable @inline(__always)
  mutating func fileCancelledTasks(of work: StepWork) {
    if _slowPath(!work.cancelled.isEmpty) { fileCancelledTasks(work.cancelled) }
  }

  // (Specialised where it is called, out of line: unspecialised, it looked up the generic
  // metadata of `Running` on every step that cancelled something, about 5% of a child's start
  // and stop.)
  @inlinable @inline(never)
  mutating func fileCancelledTasks(_ cancelled: [Running]) {
    for effect in cancelled {
      guard case .task(let task) = effect.handle, case .perform? = effect.command else { continue }
      makeRare().cancelledTasks[effect.token] = task
    }
  }

  /// The store's children, once it has started one.
  @inlinable var family: Family? { rare?.family }
}
