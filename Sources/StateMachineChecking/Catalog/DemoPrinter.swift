import StateMachine
import Synchronization

/// What a demo prints of what its store reports (its inspector): each step of the machine as
/// one line (the clock time, the event, the state before and after, the effects, and the screen
/// when there is one); each step of a child machine, its path before its event
/// (`[a.jpg] retryNow`); and the end of each child the store started, once: `[a.jpg] (finished)`,
/// `(cancelled)` or `(failed: …)`. `fsm demo` prints a shipped machine's scenario and a chart
/// file that invokes others with it.
package final class DemoPrinter<Definition: StoreDefinition>: Sendable
where Definition.Context: Sendable, Definition.Configuration: Sendable {
  private let clock: ManualClock
  /// How wide the "from → to" column is.
  private let width: Int
  /// What the screen shows; `nil`: no screen.
  private let show: (@Sendable (Definition.Configuration, Definition.Context) -> String)?
  private let emit: @Sendable (String) -> Void
  private let children = StartedChildren()

  package init(
    clock: ManualClock, width: Int, show: (@Sendable (Definition.Configuration, Definition.Context) -> String)?,
    emit: @escaping @Sendable (String) -> Void
  ) {
    (self.clock, self.width, self.show, self.emit) = (clock, width, show, emit)
  }

  /// Prints what `report` tells of, if it is a step or a child's end (the store's inspector).
  @Sendable
  package func print(_ report: StoreReport<Definition.Event, StoreStep<Definition>>) {
    if case .childStep(let step) = report {
      // A child machine's step: its path before its event, and no screen of its own.
      emit(MachineDemo.line(
        time: clock.now.offset, event: "[\(step.path)] \(step.event)", move: "\(step.from) → \(step.to)", effects: step.effects,
        screen: nil, width: width))
      return
    }
    if let (id, end) = children.end(in: report) {
      // A child's end: its path and how it ended, and nothing else.
      emit(MachineDemo.pad(MachineDemo.seconds(clock.now.offset), 8) + "[\(id)] \(end)")
      return
    }
    guard case .step(let step) = report else { return }
    children.started(by: step.effects)
    let response = step.response
    let outcome = response.isHandled ? "" : response.rejection.map { " (rejected: \($0))" } ?? " (ignored)"
    emit(MachineDemo.line(
      time: clock.now.offset, event: step.event, move: "\(MachineDemo.shown(step.from)) → \(MachineDemo.shown(step.to))\(outcome)",
      effects: Array(step.effects), screen: show.map { $0(step.to, step.context) }, width: width))
  }

  /// Notes the children at `paths` (a store's, after its start: no step tells of those its
  /// start ran), so that their ends are printed.
  package func started(paths: [String]) { children.started(paths: paths) }
}

/// The children a demo's store started, so that the end of each is printed as a child's line:
/// `[a.jpg] (finished)`, `(cancelled)` or `(failed: …)`, worded as `fsm view` draws it
/// (`ChildLogLine.shownEnd`). A child is
/// known by its id from the `invoke` command of the step that started it (or, for one its start
/// ran, from the store's children after it): its store's effects share one namespace of ids, so
/// an effect that ends with a running child's id is that child.
final class StartedChildren: Sendable {
  /// Per id, the commands of the children started under it that have not ended, oldest first, as
  /// they read (`""`: one its start ran). Two at most: a child started under the id of a running
  /// one replaces it, and the step that starts it is reported before the old one's end.
  private let running = Mutex<[String: [String]]>([:])

  /// Notes the children `effects` start.
  func started<Event, Work>(by effects: [Command<Event, Work>]) {
    for effect in effects {
      guard case .invoke(_, let id, _) = effect else { continue }
      running.withLock { $0[id.name, default: []].append(effect.description) }
    }
  }

  /// Notes the children at `paths` (a store's children; its own are those without a `/`).
  func started(paths: [String]) {
    running.withLock { running in
      for path in paths where !path.contains("/") && running[path] == nil { running[path] = [""] }
    }
  }

  /// The child whose end `report` is, and how it ended; `nil` for any other report.
  func end<Event, Step>(in report: StoreReport<Event, Step>) -> (id: String, end: String)? {
    running.withLock { running in
      let ended: (id: String, end: String)? =
        switch report {
        case .effectFinished(let id?, _): (id.name, ChildLogLine.shownEnd("finished"))
        case .effectCancelled(let id?, _): (id.name, ChildLogLine.shownEnd("cancelled"))
        case .effectFailed(let description, let error, _):
          // (A failure names no id: the child is found by its command.)
          running.first { $0.value.contains(description) && !description.isEmpty }.map {
            ($0.key, ChildLogLine.shownEnd("failed", error: error))
          }
        default: nil
        }
      guard let ended, var commands = running[ended.id] else { return nil }
      commands.removeFirst()
      running[ended.id] = commands.isEmpty ? nil : commands
      return ended
    }
  }
}
