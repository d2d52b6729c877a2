import Foundation
import StateMachine

/// What a ``TestStore``'s inspector saw: the steps not yet asserted and the effects running.
final class Journal<State: Sendable, Event: Sendable, Context: Sendable, Work: Sendable>: @unchecked Sendable {
  // Safe: every stored property is read and written only while `lock` is held.
  private let lock = NSLock()
  private var steps: [StoreStep<State, Event, Context, Command<Event, Work>>] = []
  private var effects: [(id: EffectID?, description: String)] = []
  private var state: State?
  private var context: Context?

  func start(state: State, context: Context) { know(state, context) }

  func know(_ state: State, _ context: Context) {
    lock.withLock { (self.state, self.context) = (state, context) }
  }

  var known: (state: State, context: Context) {
    lock.withLock { (state!, context!) }
  }

  func record(_ event: StoreEvent<State, Event, Context, Work>) {
    lock.withLock {
      switch event {
      case .step(let step): steps.append(step)
      case .effectStarted(let id, let description): effects.append((id, description))
      case .effectFinished(let id, let description), .effectCancelled(let id, let description):
        if let index = effects.firstIndex(where: { $0.id == id && $0.description == description }) {
          effects.remove(at: index)
        }
      case .effectFailed(let description, _, _):
        if let index = effects.firstIndex(where: { $0.description == description }) { effects.remove(at: index) }
      case .lateEventDropped, .eventRejected, .queuedEventDropped: break
      }
    }
  }

  /// The oldest step not yet asserted: after a send, the sent event's own step.
  func takeNext() -> StoreStep<State, Event, Context, Command<Event, Work>>? {
    lock.withLock { steps.isEmpty ? nil : steps.removeFirst() }
  }

  func takeAllReceived() -> [StoreStep<State, Event, Context, Command<Event, Work>>] {
    lock.withLock {
      defer { steps = [] }
      return steps
    }
  }

  var running: [String] {
    lock.withLock { effects.map { ($0.id.map { "\($0): " } ?? "") + $0.description } }
  }
}
