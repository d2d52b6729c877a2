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
  public var target: String { content.target }
  /// All it carries, its target too, behind one reference: a message is one word, and so a
  /// ``Command`` carrying one stays small (a store moves the command of a messaging step
  /// through its step, its commit and its delivery: with the target beside the object, a
  /// message from a parent to its child took 13% longer).
  @usableFromInline let content: Content

  /// A message's content: its target and, in an ``Extra`` object only when there is any, the
  /// text of one read back from a log, when it is due, and its id (a delayed message's). The
  /// message itself is a ``Typed`` subclass's, stored as what it is: made and freed with no
  /// existential box, and found by its receiver with a class cast, not an open existential
  /// copied through its type's witnesses.
  ///
  /// (`@unchecked Sendable`: a class open to its one subclass cannot be checked; its fields
  /// and its subclass's are immutable and Sendable.)
  @usableFromInline
  class Content: @unchecked Sendable {
    @usableFromInline let target: String
    /// What a delayed message, or one read back from a log, carries besides; `nil` for a
    /// message delivered at once, the one a step makes and its store frees on every message:
    /// its object then has one string to release, not three (a parent's message to its child
    /// took 191–193 ns with them inline, 173–175 without).
    @usableFromInline let extra: Extra?
    /// Whether `delay` is more than zero, asked of every message a step sends (comparing
    /// durations is two calls into the standard library).
    @usableFromInline let isDelayed: Bool

    /// The text of a message read back from a log, when it is due, and its id.
    @usableFromInline
    final class Extra: Sendable {
      @usableFromInline let logged: String?
      @usableFromInline let delay: Duration
      @usableFromInline let id: EffectID?
      /// A copy of an event its sender took, for a child that asked for every one (SCXML's
      /// `autoforward`), not a message its sender sent (see ``MachineMessage/isForwarded``).
      @usableFromInline let forwarded: Bool
      @usableFromInline
      init(logged: String?, delay: Duration, id: EffectID?, forwarded: Bool = false) {
        (self.logged, self.delay, self.id, self.forwarded) = (logged, delay, id, forwarded)
      }
    }

    /// A message delivered at once.
    @inlinable
    init(target: String) { (self.target, extra, isDelayed) = (target, nil, false) }

    @usableFromInline
    init(target: String, logged: String?, delay: Duration = .zero, id: EffectID? = nil) {
      self.target = target
      extra = logged == nil && delay == .zero && id == nil ? nil : Extra(logged: logged, delay: delay, id: id)
      isDelayed = delay > .zero
    }

    /// A forwarded event's (see ``Extra/forwarded``), delivered at once.
    @usableFromInline
    init(target: String, forwarded: Bool) {
      (self.target, extra, isDelayed) = (target, Extra(logged: nil, delay: .zero, id: nil, forwarded: forwarded), false)
    }

    @inlinable final var logged: String? { extra?.logged }
    @inlinable final var delay: Duration { extra?.delay ?? .zero }
    @inlinable final var id: EffectID? { extra?.id }

    /// The message; for one read back from a log (`logged` is set), `()`, never delivered.
    @usableFromInline var payload: any Sendable { () }
  }

  /// The content of a message of `Message`.
  @usableFromInline
  final class Typed<Message: Sendable>: Content, @unchecked Sendable {
    @usableFromInline let message: Message

    @inlinable
    init(_ message: Message, target: String) {
      self.message = message
      super.init(target: target)
    }

    @inlinable
    init(_ message: Message, target: String, delay: Duration, id: EffectID?) {
      self.message = message
      super.init(target: target, logged: nil, delay: delay, id: id)
    }

    @usableFromInline
    init(forwarding message: Message, target: String) {
      self.message = message
      super.init(target: target, forwarded: true)
    }

    @usableFromInline override var payload: any Sendable { message }
  }

  /// A message of `message` (one of the receiving machine's events) for the child at `target`,
  /// delivered at once.
  @inlinable
  public init<Message: Sendable>(_ message: Message, to target: String) {
    content = Typed(message, target: target)
  }

  /// A message of `message` for the child at `target`, delivered after `delay` of the store's
  /// clock (XState's `sendTo` with a delay; SCXML's `<send>` with `delay` to another machine).
  ///
  /// Until it is due it is an effect like a timer: the store reports it started, then
  /// finished when the child accepted it, failed when there is no such child then (or it
  /// refused the message), or cancelled by ``Command/cancel(_:)`` with `id`, by a new effect
  /// with the same id, or when the store finishes. A synchronous `MachineSystem`, where time
  /// does not pass, never delivers it. A delay of zero is a message delivered at once.
  ///
  /// ```swift
  /// .message(MachineMessage(.ping, to: "upload/file-3", after: .seconds(5), id: "ping"))
  /// ```
  @inlinable
  public init<Message: Sendable>(_ message: Message, to target: String, after delay: Duration, id: EffectID? = nil) {
    content = Typed(message, target: target, delay: max(delay, .zero), id: id)
  }

  /// A message read back from a log: its target and text, with nothing to deliver.
  init(logged text: String, to target: String, after delay: Duration = .zero, id: EffectID? = nil) {
    content = Content(target: target, logged: text, delay: delay, id: id)
  }

  /// The message itself; `nil` for one read back from a log.
  @inlinable var payload: (any Sendable)? { isDeliverable ? content.payload : nil }

  /// Whether it carries a message to deliver (one read back from a log does not).
  @inlinable var isDeliverable: Bool { content.logged == nil }

  /// A copy of an event its sender took, for the child at `target` that asked for every one
  /// (SCXML's `autoforward`): it goes to that child only while the child runs, and raises no
  /// `error.communication` when it does not.
  init<Message: Sendable>(forwarding message: Message, to target: String) {
    content = Typed(forwarding: message, target: target)
  }

  /// Whether it is a forwarded event (see ``init(forwarding:to:)``).
  @inlinable var isForwarded: Bool { content.extra?.forwarded ?? false }

  /// The message as it reads (its `description`; made when asked, not when the message is sent).
  public var text: String { content.logged ?? String(describing: content.payload) }

  /// How long after it is sent the message is delivered (zero: at once).
  public var delay: Duration { content.delay }

  /// A delayed message's id, by which ``Command/cancel(_:)`` cancels it before it is due.
  public var id: EffectID? { content.id }

  /// The message as one of the receiving machine's events, when it is a `T` (a message read
  /// back from a log is none). For the runners and exporters of a chart's delayed message
  /// (``ChartAction/message(_:to:after:id:)``), which made it of their own event type.
  @inlinable
  package func event<T: Sendable>(as type: T.Type) -> T? { message(of: content, as: type) }

  /// Whether it waits before it is delivered (see ``init(_:to:after:id:)``).
  @inlinable var isDelayed: Bool { content.isDelayed }

  /// `pause to file-3`; a delayed one `pause to file-3 after 5 s`.
  public var description: String { "\(text) to \(target)" + (isDelayed ? " after \(Command<Never, Never>.format(delay))" : "") }

  public static func == (a: MachineMessage, b: MachineMessage) -> Bool {
    a.target == b.target && a.delay == b.delay && a.id == b.id && a.text == b.text
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(target)
    hasher.combine(text)
    hasher.combine(delay)
    hasher.combine(id)
  }
}

/// The message `content` carries as a `T`, when it is one: found by a class cast when it was
/// made as a `T` (almost always: a message is one of its receiver's events), else as ``cast(_:to:)``
/// finds it.
@inlinable
func message<T: Sendable>(of content: MachineMessage.Content, as type: T.Type) -> T? {
  if let typed = content as? MachineMessage.Typed<T> { return typed.message }
  return content.logged == nil ? cast(content.payload, to: T.self) : nil
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
