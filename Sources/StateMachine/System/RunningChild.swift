/// A child machine while its parent's store runs it: its store, behind an interface without its
/// types, so that the parent's runtime can hold children of any kind.
@usableFromInline
protocol RunningChild: AnyObject, Sendable {
  /// Sends `message` to the child's machine: refused as ``SendRejection/wrongType`` when it is
  /// not one of the machine's events.
  func deliver(_ message: any Sendable) -> SendResult
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

/// What a parent's store gives the child it starts: its clock, and how the child's events reach
/// the parent.
struct ChildLaunch<ParentEvent: Sendable>: Sendable {
  /// The parent's clock: the child's timers run on it.
  let clock: any Clock<Duration>
  /// Delivers an event of the child's `toParent` (dropped as late once the child has ended).
  let send: Send<ParentEvent>
  /// The child is done; the event, if any, is queued for the parent as the child's last.
  let finished: @Sendable (ParentEvent?) -> Void
  /// The child's store has finished after ``RunningChild/stop()``.
  let stopped: @Sendable (ObjectIdentifier) -> Void
}

/// A child that could not start, and the event its `onError` made of why.
struct ChildLaunchError<ParentEvent: Sendable>: Error {
  let error: any Error
  let event: ParentEvent?
}

/// A child read back from a log, which has no machine to run.
struct ChildNotRunnable: Error, CustomStringConvertible {
  let name: String
  var description: String { "the child machine \(name) was read from a log and cannot run" }
}

/// A running child of one kind: its store, and the rules that tell its parent what it says and
/// when it is done.
///
/// `@unchecked Sendable`: its one mutable part, `state`, is only touched under its mutex (a
/// pthread mutex, which ThreadSanitizer sees; see ``Locked``); the rest is immutable and Sendable.
final class ChildRun<Definition: StoreDefinition, ParentEvent: Sendable>: RunningChild, @unchecked Sendable
where Definition.Context: Sendable, Definition.Configuration: Sendable {
  typealias Step = StoreStep<Definition>

  struct State {
    /// The child's store, until it has finished (the store's inspector holds this run, so the
    /// reference is dropped then).
    var store: Store<Definition>?
    /// Whether the child's end is decided (done, or stopped): a later done is not reported.
    var ended = false
    /// The task finishing the store, once stopped.
    var stopping: Task<Void, Never>?
  }

  let parent: ChildLaunch<ParentEvent>
  let toParent: @Sendable (Step) -> ParentEvent?
  let onDone: @Sendable (Definition.Context) -> ParentEvent?
  let isDone: @Sendable (Step) -> Bool
  let state = LockedRegion(State(), side: ())

  init(
    parent: ChildLaunch<ParentEvent>, toParent: @escaping @Sendable (Step) -> ParentEvent?,
    onDone: @escaping @Sendable (Definition.Context) -> ParentEvent?, isDone: @escaping @Sendable (Step) -> Bool
  ) {
    (self.parent, self.toParent, self.onDone, self.isDone) = (parent, toParent, onDone, isDone)
  }

  deinit { state.deallocate() }

  /// The child store's inspector: this run's, then the user's.
  func inspector(forwardingTo user: Store<Definition>.Inspector?) -> Store<Definition>.Inspector {
    { report in
      self.saw(report)
      user?(report)
    }
  }

  /// Starts the child's store; a child that is done from its start (`doneAtStart`: its context)
  /// ends at once.
  func begin(_ store: Store<Definition>, doneAtStart: Definition.Context?) {
    state.withLock { $0.store = store }
    store.start()
    if let doneAtStart { done(doneAtStart) }
  }

  func saw(_ report: StoreReport<Definition.Event, Step>) {
    guard case .step(let step) = report else { return }
    if let event = toParent(step) { parent.send(event) }
    if isDone(step) { done(step.context) }
  }

  func done(_ context: Definition.Context) {
    let first = state.withLock { state -> Bool in
      defer { state.ended = true }
      return !state.ended
    }
    if first { parent.finished(onDone(context)) }
  }

  var store: Store<Definition>? { state.withLock { $0.store } }

  func deliver(_ message: any Sendable) -> SendResult {
    guard let event = message as? Definition.Event else { return .rejected(.wrongType) }
    guard let store else { return .rejected(.finished) }
    return store.send(event)
  }

  func route(_ message: any Sendable, to path: Substring) -> SendResult {
    guard let store else { return .rejected(.unknownTarget) }
    return store.runtime.route(message, to: path)
  }

  var descendants: [String] { store?.runtime.childPaths ?? [] }

  var stepTotal: Int {
    guard let store else { return 0 }
    return store.stepCount + store.runtime.childStepTotal
  }

  func settle() async { await store?.settle() }

  func stop() {
    state.withLock { state in
      state.ended = true
      guard state.stopping == nil, let store = state.store else { return }
      state.stopping = Task {
        await store.finish()
        self.state.withLock { $0.store = nil }
        self.parent.stopped(ObjectIdentifier(self))
      }
    }
  }

  func stopped() async {
    await state.withLock { $0.stopping }?.value
  }
}
