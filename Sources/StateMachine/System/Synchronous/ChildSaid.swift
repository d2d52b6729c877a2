/// What a child said to its parent while it stepped: events for the parent, in order, and
/// whether it is done (its done event, if any, is the last of them).
@usableFromInline
struct ChildSaid<ParentEvent> {
  @usableFromInline var events: [ParentEvent] = []
  /// How many of `events`, from the first, were raised for the parent ahead of its queue (an
  /// undelivered message's `error.communication`, an invocation's `error.execution`: SCXML's
  /// internal queue).
  @usableFromInline var raised = 0
  @usableFromInline var done = false

  @inlinable
  init() {}
}
