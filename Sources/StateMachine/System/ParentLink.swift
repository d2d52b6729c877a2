/// The parent's side of its children, as a child's run reaches it: a store's runtime (its base
/// class), so that a child keeps one reference to its parent and the parent's token for it, not
/// closures capturing them.
///
/// `@unchecked Sendable`: it holds nothing; its one subclass, the store's runtime, keeps its
/// state behind a lock and in atomics.
@usableFromInline
class ParentLink<Event: Sendable>: @unchecked Sendable {
  @usableFromInline
  init() {}

  /// The child `token` said `event` (its `toParent`): queued unless the child has ended, when it
  /// is reported dropped as late, from the effect `label` describes.
  @usableFromInline func childSaid(_ event: Event, token: UInt64, label: ChildLabel) { abstract() }
  /// Starting the child `token` raised `event` for its parent (an invocation's `error.execution`):
  /// queued ahead of the parent's queue, as SCXML's internal queue (see
  /// ``StoreCore/eventRaised(_:stepper:)``), unless the child has ended, when it is reported
  /// dropped as late, from the effect `label` describes.
  @usableFromInline func childRaised(_ event: Event, token: UInt64, label: ChildLabel) { abstract() }
  /// The child `token` is done: reported finished, and `event` queued as its last.
  @usableFromInline func childFinished(token: UInt64, event: Event?) { abstract() }
  /// Whether the parent's inspector wants its children's steps.
  @usableFromInline var watchesChildren: Bool { abstract() }
  /// A step of a child (or of a child's child), for the parent's inspector.
  @usableFromInline func childStepped(_ step: ChildStep) { abstract() }
  /// A stopped child's store is finishing: the parent waits for it until ``childStopped(_:)``.
  @usableFromInline func childStopping(_ child: RunningChild) { abstract() }
  /// A child's store has finished after it was stopped.
  @usableFromInline func childStopped(_ child: ObjectIdentifier) { abstract() }
  /// The task finishing a stopping child's store, for the parent to wait for; nothing when the
  /// child has already stopped (its task ran to its end first).
  @usableFromInline func childStopTask(_ child: ObjectIdentifier, _ task: Task<Void, Never>) { abstract() }
  /// The parent store's handler and failure mapping, when its events and work are `E` and `W`:
  /// an invoked chart (of its invoker's types) performs its work with them. `nil` for another
  /// store's.
  @usableFromInline func performer<E: Sendable, W: Sendable>(of events: E.Type, _ work: W.Type) -> Performer<E, W>? { abstract() }

  private func abstract() -> Never { preconditionFailure("invalid state: ParentLink is abstract; StoreRuntime overrides it") }
}

/// A store's handler and its failure mapping (see ``ParentLink/performer(of:_:)``).
@usableFromInline
struct Performer<Event: Sendable, Work: Sendable>: Sendable {
  @usableFromInline let handler: @Sendable (Work, Send<Event>) async throws -> Void
  @usableFromInline let failure: @Sendable (Work, any Error) -> Event?

  @inlinable
  init(handler: @escaping @Sendable (Work, Send<Event>) async throws -> Void, failure: @escaping @Sendable (Work, any Error) -> Event?) {
    (self.handler, self.failure) = (handler, failure)
  }
}

/// What names a running child in reports: its machine, its id and its scope.
@usableFromInline
struct ChildLabel: Sendable, CustomStringConvertible {
  @usableFromInline let machine: String
  @usableFromInline let id: EffectID
  @usableFromInline let scope: EffectScope

  @usableFromInline
  init(machine: String, id: EffectID, scope: EffectScope) { (self.machine, self.id, self.scope) = (machine, id, scope) }

  /// As the ``Command/invoke(_:id:scope:)`` that started it reads.
  @usableFromInline
  var description: String { "invoke \(machine) as \(id)" + (scope == .state ? " (in state)" : "") }
}
