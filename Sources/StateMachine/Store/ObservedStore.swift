import Observation

/// An `@Observable` view of a ``Store`` for SwiftUI and other Observation clients: its `state`
/// and `context` follow the store on the main actor.
///
/// ```swift
/// @State var model = ObservedStore(store)
/// var body: some View { Text("\(model.state)") }
/// ```
@MainActor
@Observable
public final class ObservedStore<State: Discriminated, Event: Discriminated, Context: Sendable, Work: Sendable> {
  /// The store's state, as of its latest transition.
  public private(set) var state: State
  /// The store's context, as of its latest step.
  public private(set) var context: Context
  /// The store itself, to send events to.
  @ObservationIgnored public let store: Store<State, Event, Context, Work>

  /// Follows `store` until it finishes.
  public init(_ store: Store<State, Event, Context, Work>) {
    self.store = store
    state = store.state
    context = store.context
    let steps = store.steps
    // Ends when the store finishes, or at the next step after this object is released.
    Task { [weak self] in
      for await step in steps {
        guard let self else { return }
        self.state = step.to
        self.context = store.context
      }
    }
  }

  /// Sends `event` to the store.
  @discardableResult
  public func send(_ event: Event) -> SendResult { store.send(event) }
}
