/// A store's runtime as its ``Store`` sees it, whatever the engine: the one class a
/// `Store<Definition>` holds, so that the store is one type for every kind of machine.
///
/// Its only subclass is the module's `StoreRuntime`, which overrides every member; the store's
/// members for one kind reach that subclass directly, specialised.
///
/// `@unchecked Sendable`: it holds no state of its own; its one (final) subclass keeps its
/// state behind a lock and in atomics.
@usableFromInline
class StoreRuntimeBase<Event: Sendable, Work: Sendable, Context: Sendable, Configuration: Sendable, Step: Sendable>:
  ParentLink<Event>, @unchecked Sendable
{
  @usableFromInline
  override init() {}

  /// Runs `body` on the runtime as what it is (an `Engine`'s), specialised: for the members of
  /// one kind of store.
  @inlinable @inline(__always)
  final func with<Engine: StoreEngine, Result, Failure: Error>(
    _ engine: Engine.Type, _ body: (StoreRuntime<Engine>) throws(Failure) -> Result
  ) throws(Failure) -> Result where Engine.Event == Event {
    try body(unsafeDowncast(self, to: StoreRuntime<Engine>.self))
  }

  /// ``enqueue(_:)`` on the runtime as what it is (an `Engine`'s): specialised, and with no
  /// retain of the runtime around it (a cast of the store's reference, used outside a method of
  /// the runtime, was retained and released on every send).
  @inlinable @inline(__always)
  final func enqueue<Engine: StoreEngine>(_ event: Event, on engine: Engine.Type) -> SendResult where Engine.Event == Event {
    unsafeDowncast(self, to: StoreRuntime<Engine>.self).enqueue(event, force: false)
  }
  /// ``route(_:to:)`` on the runtime as what it is (an `Engine`'s): specialised.
  @inlinable @inline(__always)
  final func route<Engine: StoreEngine>(_ message: some Sendable, to path: String, on engine: Engine.Type) -> SendResult
  where Engine.Event == Event {
    unsafeDowncast(self, to: StoreRuntime<Engine>.self).routeToChild(message, to: Substring(path))
  }
  @usableFromInline func sendWaitingForRoom(_ event: Event) async -> SendResult { abstract() }
  @usableFromInline func startStore() { abstract() }
  @usableFromInline func settleStore() async { abstract() }
  @usableFromInline func finishStore() async { abstract() }
  @usableFromInline var currentStepCount: Int { abstract() }
  @usableFromInline var currentRunningEffectCount: Int { abstract() }
  @usableFromInline var configurations: AsyncStream<Configuration> { abstract() }
  @usableFromInline var stepReports: AsyncStream<Step> { abstract() }
  /// Finishes the store now when nothing runs in it (no step, event, effect or child): `false`,
  /// doing nothing, otherwise (``finishStore()`` then finishes it).
  @usableFromInline func finishNow() -> Bool { abstract() }
  /// Sends `message` to the running child machine at `path` (ids separated by `/`).
  @usableFromInline func route(_ message: any Sendable, to path: Substring) -> SendResult { abstract() }
  /// The paths of the running child machines and their descendants.
  @usableFromInline var childPaths: [String] { abstract() }
  /// The steps the running child machines and their descendants have taken.
  @usableFromInline var childStepTotal: Int { abstract() }
  /// The running children's snapshots, by id (see ``SystemSnapshot``).
  @usableFromInline func childSnapshots() throws(SystemSnapshotError) -> [ChildSnapshot] { abstract() }
  /// Starts the children `snapshots` name again, where they were, each made by the
  /// ``ChildMachine`` `resolve` finds for its machine.
  @usableFromInline func restoreChildren(_ snapshots: [ChildSnapshot], resolve: @escaping ChildResolver) throws(SystemSnapshotError) {
    abstract()
  }

  /// An invoked chart's store: `sink` takes its messages to `#_parent` that no step reports
  /// (see ``StoreRuntime/saidToParent(_:starting:)``).
  @usableFromInline func takeParentMessages(_ sink: @escaping @Sendable (MachineMessage.Content) -> SendResult) { abstract() }

  private func abstract() -> Never { preconditionFailure("invalid state: StoreRuntimeBase is abstract; StoreRuntime overrides it") }
}
