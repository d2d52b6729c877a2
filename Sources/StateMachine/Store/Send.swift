/// How an effect sends its results back to the store as events.
///
/// A `Send` belongs to one run of one effect: once that effect is cancelled (by ID, by leaving
/// its state, or by ``Store/finish()``) or has returned, what it sends is dropped, and the
/// store's inspector reports ``StoreReport/lateEventDropped(_:effect:)``.
public struct Send<Event: Sendable>: Sendable {
  private let deliver: @Sendable (Event) -> Void

  @usableFromInline
  init(_ deliver: @escaping @Sendable (Event) -> Void) { self.deliver = deliver }

  /// Sends `event` to the store's machine.
  public func callAsFunction(_ event: Event) { deliver(event) }
}
