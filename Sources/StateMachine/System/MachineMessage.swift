/// A message for a child machine of a store (see ``ChildMachine``), addressed by the child's id
/// or by a path through its descendants (`"upload/file-3"`).
///
/// The message is one of the receiving machine's events; the child checks its type when it
/// arrives. As a ``Command/message(_:)`` a machine sends it through its store; from outside,
/// ``Store/send(_:to:)`` does the same.
///
/// Two messages are equal when they have the same target and read alike: a log keeps a
/// message as its target and text (`{"message":{"to":"file-3","message":"pause"}}`), so a
/// message read back from a log compares equal to the one that was sent, but cannot be
/// delivered again.
public struct MachineMessage: Sendable, Hashable, CustomStringConvertible {
  /// The receiving child's id, or a path of ids separated by `/`.
  public let target: String
  /// The message as it reads (its `description`).
  public let text: String
  /// The message itself; `nil` for one read back from a log.
  let payload: (any Sendable)?

  /// A message of `message` (one of the receiving machine's events) for the child at `target`.
  public init<Message: Sendable>(_ message: Message, to target: String) {
    (self.target, text, payload) = (target, String(describing: message), message)
  }

  /// A message read back from a log: its target and text, with nothing to deliver.
  init(logged text: String, to target: String) { (self.target, self.text, payload) = (target, text, nil) }

  public var description: String { "\(text) to \(target)" }

  public static func == (a: MachineMessage, b: MachineMessage) -> Bool { a.target == b.target && a.text == b.text }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(target)
    hasher.combine(text)
  }
}
