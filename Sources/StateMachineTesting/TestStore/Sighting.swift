import StateMachine

/// What a store's inspector tells a test store, whatever the store.
enum Sighting<Definition: StoreDefinition> {
  case step(StoreStep<Definition>)
  case started(EffectID?, String)
  case ended(EffectID?, String)
  /// An effect failed; `told`: its error was mapped to an event for the machine, which
  /// arrives as a step.
  case failed(String, error: String, told: Bool)
  case child(ChildStep)
  case other
}

extension StoreReport {
  /// What the test store keeps of this report.
  func sighting<Definition>() -> Sighting<Definition> where Step == StoreStep<Definition> {
    switch self {
    case .step(let step): .step(step)
    case .effectStarted(let id, let description): .started(id, description)
    case .effectFinished(let id, let description), .effectCancelled(let id, let description): .ended(id, description)
    case .effectFailed(let description, let error, let event): .failed(description, error: error, told: event != nil)
    case .childStep(let step): .child(step)
    case .lateEventDropped, .eventRejected, .queuedEventDropped: .other
    @unknown default: .other
    }
  }
}
