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
  @usableFromInline
  let predicate: @Sendable (Context, Event) -> Bool

  /// A guard named `name` that holds when `predicate` returns `true`.
  public init(_ name: String, _ predicate: @escaping @Sendable (Context, Event) -> Bool) {
    self.name = name
    self.predicate = predicate
  }

  /// Whether the guard holds for this context and event.
  @inlinable
  public func callAsFunction(_ context: Context, _ event: Event) -> Bool {
    predicate(context, event)
  }

  /// A guard known by name only, as read from a spec file. It holds when `holds` says so
  /// (by default never), so a spec machine never takes a guarded row it cannot evaluate.
  public static func opaque(_ name: String, holds: Bool = false) -> Guard {
    Guard(name) { _, _ in holds }
  }

  /// The guard that holds exactly when this one does not; its name is prefixed with `!`.
  public var negated: Guard {
    let predicate = self.predicate
    let name = name.hasPrefix("!") ? String(name.dropFirst()) : "!" + name
    return Guard(name) { !predicate($0, $1) }
  }
}
