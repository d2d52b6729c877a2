/// What of a context tells configurations apart in an exploration (``Explorer``): the whole
/// context, or the key an abstraction keeps of it (``Explorer/abstracting(_:)``). A type, not
/// a closure, so the search over the whole context is specialised and compares contexts where
/// they are filed.
@usableFromInline
protocol ContextKeying {
  associatedtype Context: Hashable
  associatedtype Key: Hashable
  func key(of context: Context) -> Key
}

/// The whole context is the key.
@usableFromInline
struct WholeContext<Context: Hashable>: ContextKeying {
  @inlinable init() {}
  @inlinable func key(of context: Context) -> Context { context }
}

/// An abstraction's key (see ``Explorer/abstracting(_:)``).
@usableFromInline
struct AbstractedContext<Context: Hashable>: ContextKeying {
  @usableFromInline let abstraction: (Context) -> AnyHashable
  @inlinable init(_ abstraction: @escaping (Context) -> AnyHashable) { self.abstraction = abstraction }
  @inlinable func key(of context: Context) -> AnyHashable { abstraction(context) }
}
