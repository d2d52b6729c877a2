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

  private func abstract() -> Never { preconditionFailure("invalid state: ParentLink is abstract; StoreRuntime overrides it") }
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
