/// A message for a child machine of a store (see ``ChildMachine``), addressed by the child's id
/// or by a path through its descendants (`"upload/file-3"`).
///
/// The message is one of the receiving machine's events; the child checks its type when it
/// arrives. As a ``Command/message(_:)`` a machine sends it through its store; from outside,
/// `Store.send(_:to:)` does the same.
///
/// Two messages are equal when they have the same target and read alike: a log keeps a
/// message as its target and text (`{"message":{"to":"file-3","message":"pause"}}`), so a
/// message read back from a log compares equal to the one that was sent, but cannot be
/// delivered again.
public struct MachineMessage: Sendable, Hashable, CustomStringConvertible {
  /// The receiving child's id, or a path of ids separated by `/`.
  public let target: String
  /// What it carries, in one object: a ``Command`` carrying a message stays small for it.
  @usableFromInline let content: Content

  /// A message's content: the message, or the text of one read back from a log.
  @usableFromInline
  final class Content: Sendable {
    @usableFromInline let payload: (any Sendable)?
    let logged: String?

    @usableFromInline
    init(payload: (any Sendable)?, logged: String?) { (self.payload, self.logged) = (payload, logged) }
  }

  /// A message of `message` (one of the receiving machine's events) for the child at `target`.
  @inlinable
  public init<Message: Sendable>(_ message: Message, to target: String) {
    (self.target, content) = (target, Content(payload: message, logged: nil))
  }

  /// A message read back from a log: its target and text, with nothing to deliver.
  init(logged text: String, to target: String) { (self.target, content) = (target, Content(payload: nil, logged: text)) }

  /// The message itself; `nil` for one read back from a log.
  @inlinable var payload: (any Sendable)? { content.payload }

  /// The message as it reads (its `description`; made when asked, not when the message is sent).
  public var text: String { content.logged ?? content.payload.map { String(describing: $0) } ?? "" }

  public var description: String { "\(text) to \(target)" }

  public static func == (a: MachineMessage, b: MachineMessage) -> Bool { a.target == b.target && a.text == b.text }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(target)
    hasher.combine(text)
  }
}

/// `value` as a `T`, when it is one: compared by type first (a message is almost always exactly
/// one of its receiver's events), which costs a fraction of a dynamic cast; `as?` decides the rest.
@inlinable
func cast<T>(_ value: any Sendable, to type: T.Type) -> T? {
  func opened<V>(_ value: V) -> T? {
    // (Opened at run time, so not specialised: nothing here may need more type metadata.)
    guard V.self == T.self else { return value as? T }
    return unsafeBitCast(value, to: T.self)
  }
  return opened(value)
}
