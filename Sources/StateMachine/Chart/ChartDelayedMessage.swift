/// A chart's message to another machine that waits before it is delivered: what
/// ``ChartAction/delayedMessage(_:)`` and ``ChartOutput/delayedMessage(_:)`` carry. Made by
/// ``ChartAction/message(_:to:after:id:)``.
///
/// It is one reference wide: a chart's actions and outputs are stepped through on every
/// macrostep, and held inline its four fields made every action and output 16 bytes larger
/// (the shipped phone-login chart's step 4% slower).
public struct ChartDelayedMessage<Event: Sendable>: Sendable, CustomStringConvertible {
  /// The receiving machine's event.
  public var event: Event { fields.event }
  /// The receiving machine: a store's child by its id or path; `#_parent` or `#_<id>` in
  /// SCXML's words.
  public var target: String { fields.target }
  /// How long after it is sent it is delivered (more than zero).
  public var delay: Duration { fields.delay }
  /// The id by which ``ChartAction/cancel(_:)`` cancels it before it is due.
  public var id: String? { fields.id }

  @usableFromInline
  final class Fields: Sendable {
    @usableFromInline let event: Event
    @usableFromInline let target: String
    @usableFromInline let delay: Duration
    @usableFromInline let id: String?

    @inlinable
    init(event: Event, target: String, delay: Duration, id: String?) {
      (self.event, self.target, self.delay, self.id) = (event, target, delay, id)
    }
  }

  @usableFromInline let fields: Fields

  /// `event` for the machine at `target`, delivered after `delay`; `id` names it for
  /// ``ChartAction/cancel(_:)``.
  @inlinable
  public init(_ event: Event, to target: String, after delay: Duration, id: String? = nil) {
    fields = Fields(event: event, target: target, delay: delay, id: id)
  }

  /// `ping to #_w after 500 ms`, with its id when it has one (`as nudge`).
  public var description: String {
    "\(event) to \(target) after \(Command<Never, Never>.format(delay))" + (id.map { " as \($0)" } ?? "")
  }
}

extension ChartDelayedMessage: Equatable where Event: Equatable {
  /// Whether the two carry equal events for one target, with one delay and one id.
  public static func == (a: ChartDelayedMessage, b: ChartDelayedMessage) -> Bool {
    a.fields === b.fields || (a.event == b.event && a.target == b.target && a.delay == b.delay && a.id == b.id)
  }
}
