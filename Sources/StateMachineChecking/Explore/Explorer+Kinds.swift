public import StateMachine

extension Explorer {
  /// Explores `table` from its initial state and `context`, trying every event of `alphabet`
  /// in every configuration (state and context).
  public init<State, E, C, Effect>(table: TransitionTable<State, E, C, Effect>, context: C, alphabet: [E])
  where Definition == TransitionTable<State, E, C, Effect> {
    self.init(table, context: context, alphabet: alphabet)
  }

  /// Explores `chart` from its start with `context`, trying every event of `alphabet` in every
  /// configuration (active states, history and context).
  public init<ID, E, C, Effect>(chart: Chart<ID, E, C, Effect>, context: C, alphabet: [E]) where Definition == Chart<ID, E, C, Effect> {
    self.init(chart, context: context, alphabet: alphabet)
  }
}

/// Exhaustive exploration of a statechart: the one ``Explorer``, over a chart.
@available(*, deprecated, message: "use Explorer, which explores tables and charts alike")
public typealias ChartExplorer<ID: Hashable & Sendable, Event: Sendable, Context: Hashable & Sendable, Effect: Sendable> =
  Explorer<Chart<ID, Event, Context, Effect>>
