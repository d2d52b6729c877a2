/// A context that is a reference to what changes (an SCXML session: its datamodel runs as the
/// chart steps), which a log kept in memory must copy at each step: the entry holds what the
/// context was then, not the session that goes on changing. (A log written to a file encodes
/// it at each step already.)
@usableFromInline
protocol KeptByCopy {
  /// A copy holding what the context holds now, which later steps do not change.
  func keptCopy() -> Self
}

/// `context` as a log in memory keeps it: a copy when it is ``KeptByCopy``, else itself.
@inlinable
package func keptContext<Context>(_ context: Context) -> Context {
  guard let kept = context as? any KeptByCopy else { return context }
  return (kept.keptCopy() as? Context) ?? context
}

extension ChartMachine {
  /// The machine steps a copy of its context from now on, when the context is held by a
  /// reference (``KeptByCopy``): a copy of a machine then steps without changing the
  /// original's context. (Else nothing changes.)
  package mutating func detachContext() {
    if chart.tables.copiesContexts { storedContext = keptContext(storedContext) }
  }
}
