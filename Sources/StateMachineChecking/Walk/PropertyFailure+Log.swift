public import StateMachine

extension PropertyFailure {
  /// The minimal failing sequence as an event log (the replay format), recorded by running it
  /// on `table` from its initial state and `context`: save it and it becomes a regression test
  /// that `fsm replay` and `replay(_:reportingAll:)` run.
  public func eventLog<State, Context, Effect>(
    table: TransitionTable<State, Event, Context, Effect>, context: Context
  ) -> EventLog<State, Event, Context, Effect>
  where State: Codable, Event: Codable & Discriminated, Context: Codable, Effect: Codable {
    var log = EventLog<State, Event, Context, Effect>(
      header: .init(machine: table.name, fingerprint: table.fingerprint, state: table.initial, context: context))
    var machine = Machine(table, context: context)
    for (i, event) in events.enumerated() {
      let outcome = machine.send(event)
      log.entries.append(.init(
        sequence: i + 1, time: nil, event: event, outcome: LoggedOutcome(outcome), state: machine.state,
        context: machine.context, effects: Array(outcome.effects)))
    }
    return log
  }
}
