extension Store {
  /// Sends `message` (one of the receiving machine's events) to the running child machine at
  /// `path`: a child's id (``Command/invoke(_:id:scope:)``), or ids separated by `/` for a
  /// child's own children (`"upload/file-3"`).
  ///
  /// The child queues it as it queues its own events, so messages from one sender arrive in
  /// the order they were sent. Refused with ``SendRejection/unknownTarget`` when no running
  /// child has that path, ``SendRejection/wrongType`` when the child's machine has no such
  /// events, and as the child's store refuses events (a full mailbox, a halted chart).
  ///
  /// (Inlinable: routed specialised for your types where you call it.)
  @inlinable
  @discardableResult
  public func send<Message: Sendable>(_ message: Message, to path: String) -> SendResult {
    Definition._send(message, to: path, in: runtime, _StoreOf<Definition>.self)
  }

  /// The paths of the running child machines, and of their children below them
  /// (`["upload", "upload/file-1", "upload/file-2"]`), sorted by id at each level.
  public var children: [String] { runtime.childPaths }
}

