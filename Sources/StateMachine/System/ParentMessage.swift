/// An invoked chart's messages to its parent (SCXML's `<send target="#_parent">`): said to the
/// parent with the step that sent them (``ChildKind/parentMessages``), or, from its start and
/// when delayed, through its store's ``Rare/parentSink``.
extension MachineMessage {
  /// The target that names a child's parent (SCXML's `#_parent`).
  @usableFromInline static var parentTarget: String { "#_parent" }

  /// The child id that SCXML's `#_<id>` names, or `nil` for a target not of that form. (A
  /// target is looked up whole first: an id of its own may begin with `#_`.)
  @inlinable
  static func invokedID(in target: String) -> String? {
    guard target.utf8.first == UInt8(ascii: "#"), target.hasPrefix("#_") else { return nil }
    return String(target.dropFirst(2))
  }
}

extension Command {
  /// The event this command carries to the parent of the machine that emits it: a message to
  /// `#_parent` without a delay, of a `T`; `nil` for any other command.
  @inlinable
  func parentMessage<T: Sendable>(as type: T.Type) -> T? {
    guard case .message(let sent) = self, !sent.isDelayed, sent.target == MachineMessage.parentTarget else { return nil }
    return StateMachine.message(of: sent.content, as: T.self)
  }
}
