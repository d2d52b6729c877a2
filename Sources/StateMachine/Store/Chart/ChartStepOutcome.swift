/// A chart store's macrostep outcome: the step (`nil` when it did not settle), its error, the
/// active states before it, and whether it changed them. A type of its own over the event and
/// effect types, not nested in a `ChartEngine` generic over the definition, so that its value
/// witness needs no lookup of the definition's associated types (see ``TableStepOutcome``).
@usableFromInline
struct ChartStepOutcome<Event: Sendable, Effect: Sendable> {
  /// `nil` when the macrostep did not settle.
  @usableFromInline let step: ChartStep<Event, Effect>?
  @usableFromInline let error: ChartRunError?
  @usableFromInline let from: StateBits
  @usableFromInline let changed: Bool
  /// Whether the step's one output is a message to deliver now (``ChartEngine/isMessaging(_:)``).
  @usableFromInline let messaging: Bool

  @inlinable
  init(step: ChartStep<Event, Effect>?, error: ChartRunError?, from: StateBits, changed: Bool, messaging: Bool = false) {
    (self.step, self.error, self.from, self.changed, self.messaging) = (step, error, from, changed, messaging)
  }
}
