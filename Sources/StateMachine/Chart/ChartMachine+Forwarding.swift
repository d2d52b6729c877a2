/// An invocation that takes a copy of every external event its invoker takes while the state
/// at `state` is active (SCXML's `autoforward`), as a message to `target` (`#_<id>`).
@usableFromInline
struct Forward: Sendable {
  @usableFromInline let state: Int
  @usableFromInline let target: String
}

extension ChartMachine {
  /// ``run(_:ordinal:)`` in a chart whose invocations forward (SCXML's `autoforward`): the
  /// event's macrostep, then a copy of the event for each forwarding invocation that ran when
  /// the event was taken and still runs (its state active before and after, and not exited
  /// between), as a message to it (``MachineMessage/init(forwarding:to:)``, an output of a
  /// message made already, which a store commits with the step's others). An event no
  /// transition takes is forwarded too.
  @usableFromInline
  mutating func forwardingRun(_ event: Event, ordinal: Int) throws(ChartRunError) -> ChartStep<Event, Effect> {
    let running = halted ? [] : chart.tables.forwards.filter { active[$0.state] }
    guard let queued = try selectExternal(event, ordinal: ordinal) else {
      guard !running.isEmpty else { return ChartStep(outcome: halted ? .halted : .unhandled, outputs: [], microsteps: 0) }
      var run = makeRun()
      for forward in running { run.output(.delayedMessage(MachineMessage(forwarding: event, to: forward.target)), owner: forward.state) }
      return ChartStep(outcome: .unhandled, outputs: step(of: &run).outputs, microsteps: 0)
    }
    var run = makeRun()
    take(event: queued, &run)
    try settle(&run)
    for forward in running where active[forward.state] && !run.exits.contains(where: { $0.state == forward.state }) {
      run.output(.delayedMessage(MachineMessage(forwarding: event, to: forward.target)), owner: forward.state)
    }
    return step(of: &run)
  }
}
