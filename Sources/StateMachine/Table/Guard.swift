/// A named condition on a row of a ``TransitionTable``.
///
/// The name is what renderings and analysis show; the predicate sees the context as it is
/// *before* the row's update, and the event that is being handled.
///
/// ```swift
/// let fieldsEmpty = Guard<LoginContext, LoginEvent>("fieldsEmpty") { context, _ in
///     context.username.isEmpty || context.password.isEmpty
/// }
/// ```
public struct Guard<Context, Event>: Sendable {
  /// The printable name, shown in tables and diagrams.
  public let name: String
  /// The predicate, in a box that every row made with this guard shares: a table calls it
  /// through the box without reference counting, and a guard on many rows (or a wildcard row)
  /// is one object in the cache, not one per row.
  @usableFromInline
  let box: Box

  @usableFromInline
  final class Box: Sendable {
    @usableFromInline let holds: @Sendable (Context, Event) -> Bool
    init(_ holds: @escaping @Sendable (Context, Event) -> Bool) { self.holds = holds }
  }

  /// A guard named `name` that holds when `predicate` returns `true`.
  public init(_ name: String, _ predicate: @escaping @Sendable (Context, Event) -> Bool) {
    self.name = name
    self.box = Box(predicate)
  }

  /// Whether the guard holds for this context and event.
  @inlinable
  public func callAsFunction(_ context: Context, _ event: Event) -> Bool {
    box.holds(context, event)
  }

  /// A guard known by name only, as read from a spec file. It holds when `holds` says so
  /// (by default never), so a spec machine never takes a guarded row it cannot evaluate.
  package static func opaque(_ name: String, holds: Bool = false) -> Guard {
    Guard(name) { _, _ in holds }
  }
}
