/// The children of a machine that ended in one of its steps (done, failed, or cancelled), by id:
/// a message the same step sends one of them was sent while it ran, and is refused as sent to
/// a store that finished, with no `error.communication` (see ``Family/endedDuring(_:step:)``).
/// A store's family and a synchronous system's node each keep one. (One id is kept inline: a
/// step nearly always ends one child at most, and ending one allocates nothing for it.)
@usableFromInline
struct EndedChildren: Sendable {
  /// The step they ended in.
  @usableFromInline var step = 0
  @usableFromInline var first: String?
  @usableFromInline var more: [String] = []

  @inlinable
  init() {}

  /// The child `id` ended in step `steps` (those noted for an earlier step are forgotten).
  @inlinable
  mutating func note(_ id: String, atStep steps: Int) {
    if step != steps { (step, first, more) = (steps, nil, []) }
    if first == nil { first = id } else { more.append(id) }
  }

  /// Whether the child `target` names (its id, or SCXML's `#_<id>`) ended in step `steps`.
  @inlinable
  func contain(_ target: String, atStep steps: Int) -> Bool {
    guard step == steps, let first else { return false }
    func has(_ id: String) -> Bool { id == first || more.contains(id) }
    return has(target) || MachineMessage.invokedID(in: target).map(has) == true
  }
}
