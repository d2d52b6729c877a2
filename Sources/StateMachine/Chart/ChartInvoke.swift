/// A child chart a state invokes (SCXML's `<invoke type="http://www.w3.org/TR/scxml/">`): it
/// starts at the end of the macrostep that entered the state, runs beside its parent, and is
/// cancelled when the state is exited. When it halts in a final state of its root, its parent
/// gets `done.invoke.<id>`; it speaks to its parent with ``ChartAction/message(_:to:)`` to
/// `#_parent`, and its parent to it with `#_<id>`.
///
/// A ``ChartMachine`` steps one chart: whoever runs it starts and stops the charts it invokes.
/// The SCXML runtime of `fsm run` and `fsm conform` does. In a chart whose effects are
/// ``Command``s, each invocation is a child machine (``ChildMachine``): the state's entry
/// content ends with its ``Command/invoke(_:id:scope:)`` (state-scoped, with the invocation's
/// id), so a ``Store`` and a ``MachineSystem`` run it, a log records it and a replay makes it
/// again, as any child. It starts with its invoker's context as it is then; its messages to
/// `#_parent` reach its invoker before the `done.invoke.<id>` it sends when it halts (the
/// event its bindings name so; for `String` events, that name); `autoforward` copies every
/// external event its invoker takes to it, as a message among the step's effects; and a message
/// that reaches no machine raises `error.communication` in its sender. A chart with the
/// ECMAScript datamodel (an `ECMAScriptChart`) runs its invocations in a store so too, each on
/// a session of its own, with their params, `idlocation` and `<finalize>`.
///
/// ```swift
/// var waiting = ChartState<String, String, NoContext, String>.atomic("waiting", transitions: [.on("done.invoke.timer", to: "done")])
/// waiting.invokes = [ChartInvoke(id: "timer", chart: timerChart)]
/// ```
public struct ChartInvoke<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable>: Sendable {
  /// The invocation's id (its `invokeid`); `nil`: one is made from the state's id
  /// (`<state>.<n>`, `n` counting the state's invocations from 1), as SCXML makes one. Two
  /// invocations that can run at once (in one state, a state and its descendant, or two
  /// regions of a parallel state) may not share one: the chart's initializer throws.
  package var id: String?
  /// The chart it runs.
  package var chart: Chart<ID, Event, Context, Effect>
  /// The document the chart was read from (SCXML's `src`, as written), or `nil` when it was
  /// given inline: an export writes it back the same way.
  package var source: String?
  /// Whether every external event the parent takes is also sent to the child (SCXML's
  /// `autoforward`).
  package var autoforward: Bool
  /// With a datamodel: what the invocation asks of its invoking session (not API yet).
  package var script: SCXMLInvokeScript?
  /// The line it was declared on, when the chart came from a document.
  package var line: Int?
  /// The invoker's event a name stands for (a document's bindings'): how a store makes
  /// `done.invoke.<id>` for the invoker. `nil`: an event that is a `String` is its name.
  package var eventNamed: (@Sendable (String) -> Event?)?

  /// Its id (SCXML's `invokeid`): its own, or the one made for it from the id of the state
  /// that declares it, `label`, and its place among that state's invocations, `n` (from 0):
  /// `<state>.<n + 1>`.
  package func invocationID(inState label: String, at n: Int) -> String { id ?? "\(label).\(n + 1)" }

  /// An invocation of `chart`.
  public init(id: String? = nil, chart: Chart<ID, Event, Context, Effect>, source: String? = nil, autoforward: Bool = false) {
    (self.id, self.chart, self.source, self.autoforward) = (id, chart, source, autoforward)
  }
}

extension Chart {
  /// The invocations of the state at `s` (an index in document order), in document order.
  package func invokes(of s: Int) -> [ChartInvoke<ID, Event, Context, Effect>] { tables.invokes[s] }

  /// Whether any state invokes a chart.
  package var declaresInvokes: Bool { tables.declaresInvokes }

  /// Every invocation, with the id of the state that declares it (as diagrams show it), in
  /// document order.
  package var declaredInvokes: [(state: String, invoke: ChartInvoke<ID, Event, Context, Effect>)] {
    (1..<count).flatMap { s in tables.invokes[s].map { (label(s), $0) } }
  }

  /// The id of the state at `s`, as diagrams show it.
  package func stateLabel(_ s: Int) -> String { label(s) }
}

extension ChartMachine {
  /// The chart the machine steps.
  package var steppedChart: Chart<ID, Event, Context, Effect> { chart }

  /// Whether the state at `s` (an index in document order, as ``Chart/invokes(of:)`` takes)
  /// is active.
  package func isActive(at s: Int) -> Bool { s > 0 && s < chart.count && active[s] }
}
