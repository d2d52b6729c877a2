import Observation

/// An `@Observable` view of a ``Store`` for SwiftUI and other Observation clients: where the
/// machine is and its context follow the store on the main actor.
///
/// ```swift
/// @State var model = ObservedStore(store)
/// var body: some View { Text("\(model.state)") }
/// ```
///
/// A chart's store gives ``isActive(_:)``; a table's gives ``state``.
@MainActor
@Observable
public final class ObservedStore<Definition: StoreDefinition>
where Definition.Context: Sendable, Definition.Configuration: Sendable {
  /// Where the machine is, as of the store's latest step: a table's state, or a chart's active
  /// atomic states.
  public private(set) var configuration: Definition.Configuration
  /// The store's context, as of its latest step.
  public private(set) var context: Definition.Context
  /// The store itself, to send events to.
  @ObservationIgnored public let store: Store<Definition>

  /// Follows `store` until it finishes.
  public init(_ store: Store<Definition>) {
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

  /// Sends `event` to the store.
  @discardableResult
  public func send(_ event: Definition.Event) -> SendResult { store.send(event) }
}

extension ObservedStore where Definition: _TableStoreDefinition {
  /// The store's state, as of its latest step.
  public var state: Definition.Configuration { configuration }
}

extension ObservedStore where Definition: _ChartStoreDefinition {
  /// Whether `state` is one of the active atomic states.
  public func isActive(_ state: Definition.ID) -> Bool { configuration.contains(state) }
}

/// An observed chart store: ``ObservedStore`` of a ``Chart``'s store.
@available(*, deprecated, message: "Use ObservedStore<Chart<ID, Event, Context, Command<Event, Work>>>: one observed store for every kind of machine")
public typealias ObservedChartStore<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Work: Sendable> =
  ObservedStore<Chart<ID, Event, Context, Command<Event, Work>>>
