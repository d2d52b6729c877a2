import Synchronization

/// A child machine while its parent's store runs it: its store, behind an interface without its
/// types, so that the parent's runtime can hold children of any kind. A class, not a protocol:
/// a parent keeps a word for each child, not an existential's two (an idle child's size is most
/// of what it costs).
///
/// (`@unchecked Sendable`: it holds nothing of its own; its one subclass, ``ChildRun``, is
/// immutable but for its atomics and its once-set store.)
@usableFromInline
class RunningChild: @unchecked Sendable {
  @usableFromInline
  init() {}

  /// The id its parent runs it by.
  @usableFromInline var effectID: EffectID { abstract() }
  /// Whether its id is `name` (compared in place: copying the id out retains its text).
  @usableFromInline func hasID(_ name: String) -> Bool { abstract() }
  /// Whether it ends with the state that started it.
  @usableFromInline var effectScope: EffectScope { abstract() }
  /// As the invoke that started it reads (``Command/description``).
  @usableFromInline var effectDescription: String { abstract() }
  /// Whether its parent watches it (an inspector or recorder was there when it started): its
  /// steps, and its end, go to its parent's log only then.
  @usableFromInline var isWatched: Bool { abstract() }
  /// Sends `message` to the child's machine: refused as ``SendRejection/wrongType`` when it is
  /// not one of the machine's events.
  @usableFromInline func deliver(_ message: any Sendable) -> SendResult { abstract() }
  /// Sends the message `content` carries (a ``Command/message(_:)``'s) to the child's machine,
  /// its type checked by a class cast first. (Beside the entry above, which takes the message
  /// as it came: a message from outside a store makes no object, and wrapping it in one would
  /// cost it an allocation.)
  @usableFromInline func deliver(_ content: MachineMessage.Content) -> SendResult { abstract() }
  /// Sends `message` to the child's descendant at `path` (ids separated by `/`).
  @usableFromInline func route(_ message: any Sendable, to path: Substring) -> SendResult { abstract() }
  /// The paths of the child's running descendants, below it.
  @usableFromInline var descendants: [String] { abstract() }
  /// The steps the child and its descendants have taken.
  @usableFromInline var stepTotal: Int { abstract() }
  /// Waits until the child and its descendants are idle (see ``Store/settle()``).
  @usableFromInline func settle() async { abstract() }
  /// Begins finishing the child's store (it cancels the child's own effects and children).
  /// Calling it again does nothing. A store that does not finish at once is among its parent's
  /// stopping children (``ParentLink/childStopping(_:)``), with the task finishing it
  /// (``ParentLink/childStopTask(_:_:)``), until it has finished.
  @usableFromInline func stop() { abstract() }
  /// The child's snapshot (its store's, and its children's), with its id and scope, and the
  /// state of its parent it belongs to, `owner`.
  @usableFromInline func snapshot(owner: Int) throws(SystemSnapshotError) -> ChildSnapshot { abstract() }

  private func abstract() -> Never { preconditionFailure("invalid state: RunningChild is abstract; ChildRun overrides it") }
}

/// What a parent's store gives the child it starts: its clock, itself, and its token and label
/// for the child.
@usableFromInline
struct ChildLaunch<ParentEvent: Sendable>: Sendable {
  /// The parent's clock: the child's timers run on it (``StoreClock/restarted()``).
  @usableFromInline let clock: any StoreClock
  @usableFromInline let parent: ParentLink<ParentEvent>
  @usableFromInline let token: UInt64
  @usableFromInline let label: ChildLabel
  /// The child is restored from this snapshot (its children made by `resolve`), not started
  /// afresh.
  @usableFromInline let restoring: (snapshot: ChildSnapshot, resolve: ChildResolver)?

  @usableFromInline
  init(
    clock: any StoreClock, parent: ParentLink<ParentEvent>, token: UInt64, label: ChildLabel,
    restoring: (snapshot: ChildSnapshot, resolve: ChildResolver)? = nil
  ) {
    (self.clock, self.parent, self.token, self.label, self.restoring) = (clock, parent, token, label, restoring)
  }
}

/// A child that could not start, and the event its `onError` made of why; `raised`: the events
/// for its parent that making it raised first (see ``ChildMachine/init(named:madeAtStart:)``).
@usableFromInline
struct ChildLaunchError<ParentEvent: Sendable>: Error {
  @usableFromInline let error: any Error
  @usableFromInline let event: ParentEvent?
  @usableFromInline let raised: [ParentEvent]

  @inlinable
  init(error: any Error, event: ParentEvent?, raised: [ParentEvent] = []) { (self.error, self.event, self.raised) = (error, event, raised) }
}

/// A child read back from a log, which has no machine to run.
@usableFromInline
struct ChildNotRunnable: Error, CustomStringConvertible {
  @usableFromInline let name: String
  @usableFromInline
  init(name: String) { self.name = name }
  @usableFromInline var description: String { "the child machine \(name) was read from a log and cannot run" }
}

/// A child whose machine could not be made as it started (an SCXML invocation whose document
/// could not be read; its invoker raised `error.execution`).
struct ChildNotStarted: Error, CustomStringConvertible {
  let name: String
  var description: String { "the child machine \(name) could not be made as it started" }
}

/// A child not started because its id holds a `/`, which separates the ids of a path: no path
/// could reach it.
@usableFromInline
struct ChildIDHoldsSlash: Error, CustomStringConvertible {
  @usableFromInline let id: EffectID
  @usableFromInline
  init(_ id: EffectID) { self.id = id }
  @usableFromInline var description: String { "its id, '\(id.name)', holds a '/', which separates the ids of a path: no path could reach it" }

  /// Whether `id` holds a `/`.
  @inlinable
  static func holds(_ id: EffectID) -> Bool { id.name.utf8.contains(UInt8(ascii: "/")) }
}

/// What every running child of one ``ChildMachine`` shares: the rules that tell its parent
/// what it says and when it is done, and what runs on its store, made where the machine was,
/// specialised for its types. One object per machine, not nine closures per child: an idle
/// child's size is most of what it costs.
@usableFromInline
final class ChildKind<Definition: StoreDefinition, ParentEvent: Sendable>: Sendable
where Definition.Context: Sendable, Definition.Configuration: Sendable {
  @usableFromInline typealias Step = StoreStep<Definition>
  /// A child's store: its runtime alone (nothing outside holds it, so no ``Store`` is around it).
  @usableFromInline typealias Runtime = StoreRuntimeBase<
    Definition.Event, Definition.Effect.Work, Definition.Context, Definition.Configuration, StoreStep<Definition>
  >

  /// The machine's name, as logs and reports show it.
  @usableFromInline let name: String
  @usableFromInline let toParent: (@Sendable (Step) -> ParentEvent?)?
  @usableFromInline let onDone: @Sendable (Definition.Context) -> ParentEvent?
  @usableFromInline let isDone: (@Sendable (Step) -> Bool)?
  /// The events a step's messages to `#_parent` carry, said to the parent as the step is
  /// reported (an invoked chart's, see ``ChartInvocationCommand``); `nil` for any other child.
  @usableFromInline let parentMessages: (@Sendable (Step) -> [ParentEvent])?
  /// The event a message to `#_parent` (its content) says to the parent, as a step's are said
  /// (``parentMessages``): one its start or a delayed send made; `nil` for another child.
  @usableFromInline let parentEvent: (@Sendable (MachineMessage.Content) -> ParentEvent?)?
  /// Whether a rule reads the child's steps (`toParent`, `isDone` or `parentMessages`): when
  /// none does (and nobody else watches), a child's store has no inspector, and a synchronous
  /// system builds no step to hand them.
  @inlinable var readsSteps: Bool { toParent != nil || isDone != nil || parentMessages != nil }
  /// Sends a message to a store (its runtime, given as itself), checking its type.
  @usableFromInline let send: @Sendable (AnyObject, any Sendable) -> SendResult
  /// Sends a machine's message (its content) to a store, checking its type (see
  /// `RunningChild.deliver(_:)`: why a message from outside keeps `send`).
  @usableFromInline let sendContent: @Sendable (AnyObject, MachineMessage.Content) -> SendResult
  /// Starts a store (one restored from a snapshot has nothing to start).
  @usableFromInline let start: @Sendable (AnyObject) -> Void
  /// Finishes a store (given as itself) at once when nothing runs in it; `false` otherwise.
  /// Over the store as an object: stopping a child (a generic class's method, never
  /// specialised) then looks up no generic type.
  @usableFromInline let finishNow: @Sendable (AnyObject) -> Bool
  /// Finishes a store (given as itself), waiting for what runs in it.
  @usableFromInline let finish: @Sendable (AnyObject) async -> Void
  /// A store's (given as itself) snapshot as JSON, and its children's.
  @usableFromInline let snapshotOf: @Sendable (AnyObject) throws(SystemSnapshotError) -> (json: String, children: [ChildSnapshot])

  @inlinable
  init(
    name: String, toParent: (@Sendable (Step) -> ParentEvent?)?, onDone: @escaping @Sendable (Definition.Context) -> ParentEvent?,
    isDone: (@Sendable (Step) -> Bool)?, parentMessages: (@Sendable (Step) -> [ParentEvent])?,
    parentEvent: (@Sendable (MachineMessage.Content) -> ParentEvent?)?,
    send: @escaping @Sendable (AnyObject, any Sendable) -> SendResult,
    sendContent: @escaping @Sendable (AnyObject, MachineMessage.Content) -> SendResult,
    start: @escaping @Sendable (AnyObject) -> Void, finishNow: @escaping @Sendable (AnyObject) -> Bool,
    finish: @escaping @Sendable (AnyObject) async -> Void,
    snapshotOf: @escaping @Sendable (AnyObject) throws(SystemSnapshotError) -> (json: String, children: [ChildSnapshot])
  ) {
    (self.name, self.toParent, self.onDone, self.isDone, self.send) = (name, toParent, onDone, isDone, send)
    (self.parentMessages, self.parentEvent) = (parentMessages, parentEvent)
    (self.sendContent, self.start, self.finishNow, self.finish, self.snapshotOf) = (sendContent, start, finishNow, finish, snapshotOf)
  }
}

/// A running child: its store, its machine's ``ChildKind``, and its parent.
///
/// The parent reaches the child through ``RunningChild``, whose witnesses are this generic
/// class's; what runs on every message and step is its kind's, specialised. Its store is set
/// once, when it starts; its flags are atomic.
@usableFromInline
// (`@unchecked Sendable`, restated: its fields are immutable, Sendable or atomic; its store is
// set once, through an atomic.)
final class ChildRun<Definition: StoreDefinition, ParentEvent: Sendable>: RunningChild, @unchecked Sendable
where Definition.Context: Sendable, Definition.Configuration: Sendable {
  @usableFromInline typealias Step = StoreStep<Definition>

  /// Set once the end is decided (done, or stopped): a later done is not reported.
  @usableFromInline static var ended: UInt8 { 1 }
  /// Set once ``stop()`` was called.
  @usableFromInline static var stopRequested: UInt8 { 2 }

  // (The words first, the bytes last: an idle child's size is most of what it costs, and a
  // run is 72 bytes so. The task finishing a stopped child's store is its parent's to keep,
  // see ``ParentLink/childStopTask(_:_:)``.)
  @usableFromInline let parent: ParentLink<ParentEvent>
  @usableFromInline let token: UInt64
  /// Its id and scope in its parent (its machine's name is its kind's).
  @usableFromInline let id: EffectID
  @usableFromInline let kind: ChildKind<Definition, ParentEvent>
  /// The child's store (its runtime), from its start. (Its inspector holds this run weakly.)
  /// Kept as an object: a message reaches it without this generic class looking up its type.
  @usableFromInline let started = OnceReference<AnyObject>()
  @usableFromInline let scope: EffectScope
  /// Whether the parent's inspector sees this child's steps.
  @usableFromInline let watched: Bool
  @usableFromInline let flags = Atomic<UInt8>(0)

  @inlinable
  init(_ launch: ChildLaunch<ParentEvent>, kind: ChildKind<Definition, ParentEvent>) {
    (parent, token, id, scope) = (launch.parent, launch.token, launch.label.id, launch.label.scope)
    (watched, self.kind) = (launch.parent.watchesChildren, kind)
    super.init()
  }

  /// The child as the invoke that started it reads.
  @usableFromInline
  var label: ChildLabel { ChildLabel(machine: kind.name, id: id, scope: scope) }

  @usableFromInline override var effectID: EffectID { id }
  @usableFromInline override func hasID(_ name: String) -> Bool { id.name == name }
  @usableFromInline override var effectScope: EffectScope { scope }
  @usableFromInline override var effectDescription: String { label.description }
  @usableFromInline override var isWatched: Bool { watched }

  /// Starts the child's `store`; a child that is done from its start (`doneAtStart`: its
  /// context) ends at once.
  @inlinable
  func begin(_ runtime: AnyObject, doneAtStart: Definition.Context?) {
    _ = started.storeIfNil(runtime)
    if let parentEvent = kind.parentEvent {
      // (Held weakly: the parent holds this run while it runs.)
      unsafeDowncast(runtime, to: ChildKind<Definition, ParentEvent>.Runtime.self).takeParentMessages { [weak self] content in
        guard let self else { return .rejected(.finished) }
        guard let event = parentEvent(content) else { return .rejected(.wrongType) }
        self.parent.childSaid(event, token: self.token, label: self.label)
        return .accepted
      }
    }
    kind.start(runtime)
    if let doneAtStart { done(doneAtStart) }
  }

  /// What the child's store's inspector does first: a step may say something to the parent,
  /// and may be the child's last.
  @inlinable
  func saw(_ report: StoreReport<Definition.Event, Step>) {
    switch report {
    case .step(let step):
      if watched { parent.childStepped(ChildStep(step, path: id.name)) }
      if let event = kind.toParent?(step) { parent.childSaid(event, token: token, label: label) }
      if let parentMessages = kind.parentMessages {
        for event in parentMessages(step) { parent.childSaid(event, token: token, label: label) }
      }
      if kind.isDone?(step) == true { done(step.context) }
    case .childStep(let step):
      if watched { parent.childStepped(step.below(id.name)) }
    default: break
    }
  }

  /// The child's store (its runtime), once started.
  @usableFromInline
  var store: ChildKind<Definition, ParentEvent>.Runtime? {
    started.load().map { unsafeDowncast($0, to: ChildKind<Definition, ParentEvent>.Runtime.self) }
  }

  /// Sets `flag`; returns whether it was clear.
  @usableFromInline
  func raise(_ flag: UInt8) -> Bool { flags.bitwiseOr(flag, ordering: .acquiringAndReleasing).oldValue & flag == 0 }

  @usableFromInline
  func done(_ context: Definition.Context) {
    if raise(Self.ended) { parent.childFinished(token: token, event: kind.onDone(context)) }
  }

  @usableFromInline
  override func deliver(_ message: any Sendable) -> SendResult {
    // (The store borrowed, not retained: this run holds it as long as it lives, and the caller
    // holds the run.)
    let send = kind.send
    return started.withLoaded { store in send(store, message) } ?? .rejected(.finished)
  }

  @usableFromInline
  override func deliver(_ content: MachineMessage.Content) -> SendResult {
    let send = kind.sendContent
    return started.withLoaded { store in send(store, content) } ?? .rejected(.finished)
  }

  @usableFromInline
  override func route(_ message: any Sendable, to path: Substring) -> SendResult {
    // (Borrowed, as in `deliver`: this is the other path every message to a descendant takes.)
    typealias Runtime = ChildKind<Definition, ParentEvent>.Runtime
    return started.withLoaded { store in unsafeDowncast(store, to: Runtime.self).route(message, to: path) } ?? .rejected(.unknownTarget)
  }

  @usableFromInline
  override var descendants: [String] { store?.childPaths ?? [] }

  @usableFromInline
  override var stepTotal: Int {
    guard let store else { return 0 }
    return store.currentStepCount + store.childStepTotal
  }

  @usableFromInline
  override func settle() async { await store?.settleStore() }

  @usableFromInline
  override func stop() {
    _ = raise(Self.ended)
    guard raise(Self.stopRequested), let store = started.load() else { return }
    // A child with nothing running (most, when their state is left) finishes here and now: its
    // parent never waits for it.
    if kind.finishNow(store) { return }
    // Among its parent's stopping children before the task that removes it starts; the task
    // is given to the parent to wait for (unless it has already removed the child).
    parent.childStopping(self)
    let (finish, child) = (kind.finish, ObjectIdentifier(self))
    let task = Task {
      await finish(store)
      self.parent.childStopped(child)
    }
    parent.childStopTask(child, task)
  }

  @usableFromInline
  override func snapshot(owner: Int) throws(SystemSnapshotError) -> ChildSnapshot {
    guard let store = started.load() else { throw SystemSnapshotError(path: id.name, reason: "it has not started") }
    do {
      let (json, children) = try kind.snapshotOf(store)
      return ChildSnapshot(id: id.name, machine: kind.name, scope: scope, owner: owner, snapshot: json, children: children)
    } catch {
      throw error.below(id.name)
    }
  }
}
