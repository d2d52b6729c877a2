import Foundation
import StateMachine

/// What a test store's inspector saw: the steps and failures not yet asserted and the effects
/// running.
final class Journal<Definition: StoreDefinition>: @unchecked Sendable {
  typealias Step = StoreStep<Definition>
  // Safe: every stored property is read and written only while `lock` is held.
  private let lock = NSLock()
  private var steps: [Step] = []
  private var childSteps: [ChildStep] = []
  private var effects: [(id: EffectID?, description: String)] = []
  /// Effects that failed with no event for the machine (a refused message; work whose error
  /// maps to none), not yet asserted, oldest first.
  private var failures: [(description: String, error: String)] = []
  private var state: Definition.Configuration?
  private var context: Definition.Context?

  func know(_ state: Definition.Configuration, _ context: Definition.Context) {
    lock.withLock { (self.state, self.context) = (state, context) }
  }

  var known: (state: Definition.Configuration, context: Definition.Context) {
    lock.withLock { (state!, context!) }
  }

  func record(_ sighting: Sighting<Definition>) {
    lock.withLock {
      switch sighting {
      case .step(let step): steps.append(step)
      case .started(let id, let description): effects.append((id, description))
      case .ended(let id, let description):
        if let index = effects.firstIndex(where: { $0.id == id && $0.description == description }) {
          effects.remove(at: index)
        }
      case .failed(let description, let error, let told):
        if let index = effects.firstIndex(where: { $0.description == description }) { effects.remove(at: index) }
        if !told { failures.append((description, error)) }
      case .child(let step): childSteps.append(step)
      case .other: break
      }
    }
  }

  /// The oldest step not yet asserted: after a send, the sent event's own step.
  func takeNext() -> Step? {
    lock.withLock { steps.isEmpty ? nil : steps.removeFirst() }
  }

  func takeAllReceived() -> [Step] {
    lock.withLock {
      defer { steps = [] }
      return steps
    }
  }

  /// The oldest child step not yet asserted, at `path`; the ones before it, elsewhere, stay.
  func takeChildStep(at path: String) -> ChildStep? {
    lock.withLock {
      guard let index = childSteps.firstIndex(where: { $0.path == path }) else { return nil }
      return childSteps.remove(at: index)
    }
  }

  func takeAllChildSteps() -> [ChildStep] {
    lock.withLock {
      defer { childSteps = [] }
      return childSteps
    }
  }

  /// The oldest failure not yet asserted.
  func takeFailure() -> (description: String, error: String)? {
    lock.withLock { failures.isEmpty ? nil : failures.removeFirst() }
  }

  func takeAllFailures() -> [(description: String, error: String)] {
    lock.withLock {
      defer { failures = [] }
      return failures
    }
  }

  var running: [String] {
    lock.withLock { effects.map { ($0.id.map { "\($0): " } ?? "") + $0.description } }
  }
}
