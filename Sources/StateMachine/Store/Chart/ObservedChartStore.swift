import Observation

/// An `@Observable` view of a ``ChartStore`` for SwiftUI and other Observation clients: its
/// configuration and context follow the store on the main actor, as ``ObservedStore`` does for
/// a table's store.
///
/// ```swift
/// @State var model = ObservedChartStore(store)
/// var body: some View { Text(model.isActive(.uploading) ? "uploading…" : "idle") }
/// ```
@MainActor
@Observable
public final class ObservedChartStore<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Work: Sendable> {
  /// The active atomic states, as of the store's latest step.
  public private(set) var configuration: [ID]
  /// The store's context, as of its latest step.
  public private(set) var context: Context
  /// The store itself, to send events to.
  @ObservationIgnored public let store: ChartStore<ID, Event, Context, Work>

  /// Follows `store` until it finishes.
  public init(_ store: ChartStore<ID, Event, Context, Work>) {
    self.store = store
    configuration = store.configuration
    context = store.context
    let steps = store.steps
    // Ends when the store finishes, or at the next step after this object is released.
    Task { [weak self] in
      for await step in steps {
        guard let self else { return }
        self.configuration = step.to
        self.context = step.context
      }
    }
  }

  /// Whether `state` is one of the active atomic states.
  public func isActive(_ state: ID) -> Bool { configuration.contains(state) }

  /// Sends `event` to the store.
  @discardableResult
  public func send(_ event: Event) -> SendResult { store.send(event) }
}
