import StateMachine

/// A step a test store asserts: a table store's ``StoreStep`` (the state) or a chart store's
/// ``ChartStoreStep`` (the configuration).
protocol TestedStep: Sendable {
  associatedtype Observed: Equatable & Sendable
  associatedtype Event: Equatable & Sendable
  associatedtype Context: Equatable & Sendable
  associatedtype Effect: Equatable & Sendable
  var event: Event { get }
  var from: Observed { get }
  var to: Observed { get }
  var context: Context { get }
  var stepEffects: [Effect] { get }
}

extension StoreStep: TestedStep where State: Equatable, Event: Equatable, Context: Equatable, Effect: Equatable {
  var stepEffects: [Effect] { Array(effects) }
}

extension ChartStoreStep: TestedStep where Event: Equatable, Context: Equatable, Work: Equatable {
  var stepEffects: [Command<Event, Work>] { effects }
}

/// What a store's inspector tells a test store, whatever the store.
enum Sighting<Step: TestedStep> {
  case step(Step)
  case started(EffectID?, String)
  case ended(EffectID?, String)
  case failed(String)
  case other
}

extension StoreReport where Step: TestedStep {
  /// What the test store keeps of this report.
  var sighting: Sighting<Step> {
    switch self {
    case .step(let step): .step(step)
    case .effectStarted(let id, let description): .started(id, description)
    case .effectFinished(let id, let description), .effectCancelled(let id, let description): .ended(id, description)
    case .effectFailed(let description, _, _): .failed(description)
    case .lateEventDropped, .eventRejected, .queuedEventDropped: .other
    }
  }
}
