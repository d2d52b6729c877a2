/// A child machine while its parent's store runs it: its store, behind an interface without its
/// types, so that the parent's runtime can hold children of any kind.
@usableFromInline
protocol RunningChild: AnyObject, Sendable {
  /// Sends `message` to the child's machine: refused as ``SendRejection/wrongType`` when it is
  /// not one of the machine's events.
  func deliver(_ message: any Sendable) -> SendResult
  /// What ``deliver(_:)`` calls, to keep beside the child: it sends without taking the child's
  /// lock (made specialised for the child's types).
  var sender: @Sendable (any Sendable) -> SendResult { get }
  /// Sends `message` to the child's descendant at `path` (ids separated by `/`).
  func route(_ message: any Sendable, to path: Substring) -> SendResult
  /// The paths of the child's running descendants, below it.
  var descendants: [String] { get }
  /// The steps the child and its descendants have taken.
  var stepTotal: Int { get }
  /// Waits until the child and its descendants are idle (see ``Store/settle()``).
  func settle() async
  /// Begins finishing the child's store (it cancels the child's own effects and children);
  /// `stopped()` waits for the end. Calling it again does nothing.
  func stop()
  /// Waits until the child's store has finished, once ``stop()`` was called.
  func stopped() async
}

/// What a parent's store gives the child it starts: its clock, itself, and its token and label
/// for the child.
@usableFromInline
struct ChildLaunch<ParentEvent: Sendable>: Sendable {
  /// The parent's clock: the child's timers run on it.
  @usableFromInline let clock: any Clock<Duration>
  @usableFromInline let parent: ParentLink<ParentEvent>
  @usableFromInline let token: UInt64
  @usableFromInline let label: ChildLabel

  @usableFromInline
  init(clock: any Clock<Duration>, parent: ParentLink<ParentEvent>, token: UInt64, label: ChildLabel) {
    (self.clock, self.parent, self.token, self.label) = (clock, parent, token, label)
  }
}

/// A child that could not start, and the event its `onError` made of why.
@usableFromInline
struct ChildLaunchError<ParentEvent: Sendable>: Error {
  @usableFromInline let error: any Error
  @usableFromInline let event: ParentEvent?

  @inlinable
  init(error: any Error, event: ParentEvent?) { (self.error, self.event) = (error, event) }
}

/// A child read back from a log, which has no machine to run.
@usableFromInline
struct ChildNotRunnable: Error, CustomStringConvertible {
  @usableFromInline let name: String
  @usableFromInline
  init(name: String) { self.name = name }
  @usableFromInline var description: String { "the child machine \(name) was read from a log and cannot run" }
}

/// A running child of one kind: its store, and the rules that tell its parent what it says and
/// when it is done.
///
/// What runs on every message and every step of the child (`send`, and `saw(_:)` in the
/// store's inspector) is made where the ``ChildMachine`` was, specialised for its types: the
/// parent reaches the child through ``RunningChild``, whose witnesses are this generic class's.
///
/// `@unchecked Sendable`: its one mutable part, `state`, is only touched under its mutex (a
/// pthread mutex, which ThreadSanitizer sees; see ``Locked``); the rest is immutable and Sendable.
@usableFromInline
final class ChildRun<Definition: StoreDefinition, ParentEvent: Sendable>: RunningChild, @unchecked Sendable
where Definition.Context: Sendable, Definition.Configuration: Sendable {
  @usableFromInline typealias Step = StoreStep<Definition>

  @usableFromInline
  struct State {
    /// The child's store, until it has finished (the store's inspector holds this run, so the
    /// reference is dropped then).
    @usableFromInline var store: Store<Definition>?
    /// Sends a message to the child's store, checking its type (specialised; dropped with the
    /// store).
    @usableFromInline var send: (@Sendable (any Sendable) -> SendResult)?
    /// Whether the child's end is decided (done, or stopped): a later done is not reported.
    @usableFromInline var ended = false
    /// Whether ``stop()`` was called.
    @usableFromInline var stopRequested = false
    /// The task finishing the store, when it could not finish at once.
    @usableFromInline var stopping: Task<Void, Never>?

    @inlinable
    init() {}
  }

  @usableFromInline let parent: ParentLink<ParentEvent>
  @usableFromInline let token: UInt64
  @usableFromInline let label: ChildLabel
  @usableFromInline let toParent: (@Sendable (Step) -> ParentEvent?)?
  @usableFromInline let onDone: @Sendable (Definition.Context) -> ParentEvent?
  @usableFromInline let isDone: (@Sendable (Step) -> Bool)?
  @usableFromInline let state = LockedRegion(State(), side: ())

  @inlinable
  init(
    _ launch: ChildLaunch<ParentEvent>, toParent: (@Sendable (Step) -> ParentEvent?)?,
    onDone: @escaping @Sendable (Definition.Context) -> ParentEvent?, isDone: (@Sendable (Step) -> Bool)?
  ) {
    (parent, token, label) = (launch.parent, launch.token, launch.label)
    (self.toParent, self.onDone, self.isDone) = (toParent, onDone, isDone)
  }

  deinit { state.deallocate() }

  /// Starts the child's `store`, which `send` sends to; a child that is done from its start
  /// (`doneAtStart`: its context) ends at once.
  @inlinable
  func begin(_ store: Store<Definition>, send: @escaping @Sendable (any Sendable) -> SendResult, doneAtStart: Definition.Context?) {
    state.withLock { state in
      state.store = store
      state.send = send
    }
    store.start()
    if let doneAtStart { done(doneAtStart) }
  }

  /// What the child's store's inspector does first: a step may say something to the parent,
  /// and may be the child's last.
  @inlinable
  func saw(_ report: StoreReport<Definition.Event, Step>) {
    guard case .step(let step) = report else { return }
    if let event = toParent?(step) { parent.childSaid(event, token: token, label: label) }
    if isDone?(step) == true { done(step.context) }
  }

  @usableFromInline
  func done(_ context: Definition.Context) {
    let first = state.withLock { state -> Bool in
      defer { state.ended = true }
      return !state.ended
    }
    if first { parent.childFinished(token: token, event: onDone(context)) }
  }

  var store: Store<Definition>? { state.withLock { $0.store } }

  @usableFromInline
  func deliver(_ message: any Sendable) -> SendResult {
    guard let send = state.withLock({ $0.send }) else { return .rejected(.finished) }
    return send(message)
  }

  @usableFromInline
  var sender: @Sendable (any Sendable) -> SendResult {
    if let send = state.withLock({ $0.send }) { return send }
    return { _ in .rejected(.finished) }
  }

  @usableFromInline
  func route(_ message: any Sendable, to path: Substring) -> SendResult {
    guard let store else { return .rejected(.unknownTarget) }
    return store.runtime.route(message, to: path)
  }

  @usableFromInline
  var descendants: [String] { store?.runtime.childPaths ?? [] }

  @usableFromInline
  var stepTotal: Int {
    guard let store else { return 0 }
    return store.stepCount + store.runtime.childStepTotal
  }

  @usableFromInline
  func settle() async { await store?.settle() }

  @usableFromInline
  func stop() {
    let store = state.withLock { state -> Store<Definition>? in
      state.ended = true
      guard !state.stopRequested, let store = state.store else { return nil }
      state.stopRequested = true
      return store
    }
    guard let store else { return }
    // A child with nothing running (most, when their state is left) finishes here and now.
    if store.runtime.finishNow() {
      released()
      return
    }
    let task = Task {
      await store.finish()
      self.released()
    }
    state.withLock { $0.stopping = task }
  }

  /// The child's store has finished: what it held goes, and the parent is told.
  func released() {
    state.withLock { state in
      state.store = nil
      state.send = nil
    }
    parent.childStopped(ObjectIdentifier(self))
  }

  @usableFromInline
  func stopped() async {
    await state.withLock { $0.stopping }?.value
  }
}
