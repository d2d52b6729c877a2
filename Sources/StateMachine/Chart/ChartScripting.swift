/// What a chart whose content a datamodel runs (an SCXML document with `datamodel="ecmascript"`)
/// adds to the algorithm: its platform events (`done.state.*`, `error.*`) reach content as
/// events of the chart's own type, so content can read them (SCXML's `_event`); and what its
/// content and guards leave to do (events raised, sent or failed, effects) is taken from the
/// context after each update and after each selection of transitions, in order.
///
/// Not API: the SCXML reader makes it, for the datamodel's context.
@usableFromInline
package struct ChartScripting<Event: Sendable, Context, Effect: Sendable>: Sendable {
  /// The event a platform event of this name is, as the context makes it (a `done.state.*`
  /// event carries the data its final state's `<donedata>` left in the context).
  @usableFromInline package let platformEvent: @Sendable (String, inout Context) -> Event
  /// What the content run since the last call left to do, taken from the context (which
  /// forgets it): raises, sends, cancels, messages, effects and errors, in order. Content may
  /// not return updates or makes (they are dropped: content is run by the context itself).
  @usableFromInline package let takeOutputs: @Sendable (inout Context) -> [ChartAction<Event, Context, Effect>]
  /// The invocation an event came from (SCXML's `invokeid`), if any.
  package let invokeID: @Sendable (Event) -> String?
  /// Runs an invocation's `<finalize>` on an event that invocation sent, as the chart takes it
  /// (see ``ChartMachine/finalize(_:)``).
  package let finalize: @Sendable (SCXMLInvokeScript, Event, inout Context) -> Void
  /// The event `error.communication`: what a message the chart sends to no machine raises.
  package let communicationError: Event?

  package init(
    platformEvent: @escaping @Sendable (String, inout Context) -> Event,
    takeOutputs: @escaping @Sendable (inout Context) -> [ChartAction<Event, Context, Effect>],
    invokeID: @escaping @Sendable (Event) -> String? = { _ in nil },
    finalize: @escaping @Sendable (SCXMLInvokeScript, Event, inout Context) -> Void = { _, _, _ in },
    communicationError: Event? = nil
  ) {
    (self.platformEvent, self.takeOutputs, self.invokeID, self.finalize) = (platformEvent, takeOutputs, invokeID, finalize)
    self.communicationError = communicationError
  }
}

/// An invocation with a `<finalize>` (see ``ChartScripting/finalize``): the state that
/// declares it, its id, and what it asks of its invoker.
struct Finalizer: Sendable {
  let state: Int
  let id: String
  let script: SCXMLInvokeScript
}

extension Chart {
  /// A chart whose content a datamodel runs (see ``ChartScripting``).
  package init(
    name: String, initial: [ID]?, states: [State], initialActions: [Action], eventName: @escaping @Sendable (Event) -> String,
    scripting: ChartScripting<Event, Context, Effect>
  ) throws(ChartError) {
    try self.init(
      name: name, initial: initial, states: states, initialActions: initialActions, eventName: eventName, eventOrdinal: nil,
      scripting: scripting)
  }
}

extension ChartMachine {
  /// Does what the datamodel's content and guards left to do (see ``ChartScripting``).
  @usableFromInline
  mutating func takeScriptOutputs(_ scripting: ChartScripting<Event, Context, Effect>, owner: Int, _ run: inout Run) {
    for output in scripting.takeOutputs(&storedContext) {
      switch output {
      case .raise(let raised): queue(raised)
      case .error(let name): enqueue(name)
      case .effect(let effect): if !discardsOutputs { run.output(.effect(effect), owner: owner) }
      case .send(let sent, let delay, let id): if !discardsOutputs { run.output(.send(sent, after: delay, id: id), owner: owner) }
      case .cancel(let id): if !discardsOutputs { run.output(.cancel(id), owner: owner) }
      case .message(let sent, let target): if !discardsOutputs { run.output(.message(sent, to: target), owner: owner) }
      case .delayedMessage(let message): if !discardsOutputs { run.output(.delayedMessage(message), owner: owner) }
      case .update, .make: break
      }
    }
  }

  /// What guards left to do: only errors (a `cond` that could not be evaluated), queued as they
  /// were met, before the content of the transitions selected.
  @usableFromInline
  mutating func takeGuardErrors() {
    guard let scripting = chart.tables.scripting else { return }
    for output in scripting.takeOutputs(&storedContext) {
      switch output {
      case .error(let name): enqueue(name)
      case .raise(let raised): queue(raised)
      default: break
      }
    }
  }

  /// An external event as the chart takes it (SCXML's event loop, before it selects
  /// transitions): when it came from an invocation of an active state that has a
  /// `<finalize>`, that content runs on it first, on the context as it is now. (What it
  /// raises is queued by the selection's guard errors.)
  @usableFromInline
  mutating func finalize(_ event: Event) {
    guard let scripting = chart.tables.scripting, let id = scripting.invokeID(event) else { return }
    for finalizer in chart.tables.finalizers where finalizer.id == id && active[finalizer.state] {
      scripting.finalize(finalizer.script, event, &storedContext)
      contextWritten = true
    }
  }

  /// Puts an event the datamodel raised on the internal queue.
  @usableFromInline
  mutating func queue(_ raised: Event) { internalQueue.append(QueuedEvent(name: eventName(raised), value: raised)) }
}
