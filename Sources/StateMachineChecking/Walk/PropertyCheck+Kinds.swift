public import StateMachine

extension PropertyCheck {
  /// Checks `table` from its initial state with `context`, sending events from `events`: each
  /// step a case the current state handles (or, with the source's `unhandledShare`, one it
  /// does not), its payload made by the source.
  ///
  /// (Inlinable: the walk draws its events specialised for your table's types.)
  @inlinable
  public init<State, E, C, Effect>(table: TransitionTable<State, E, C, Effect>, context: C, events: EventSource<E>)
  where Definition == TransitionTable<State, E, C, Effect> {
    var cases: [State.Discriminant: (handled: [E.Discriminant], unhandled: [E.Discriminant])] = [:]
    for state in table.stateCases {
      let handled = table.handledEvents(in: state)
      cases[state] = (handled, table.eventCases.filter { !handled.contains($0) })
    }
    self.init(
      table, context: context, alphabet: [],
      draw: { [cases] state, generator in
        guard let kinds = cases[state.discriminant] else { return nil }
        return events.next(handled: kinds.handled, unhandled: kinds.unhandled, using: &generator)
      },
      simpler: events.shrink)
  }

  /// Walks `chart` from its start with `context`, choosing events uniformly from `alphabet`.
  public init<ID, E, C, Effect>(chart: Chart<ID, E, C, Effect>, context: C, alphabet: [E]) where Definition == Chart<ID, E, C, Effect> {
    self.init(chart, context: context, alphabet: alphabet)
  }

  /// Walks `chart` from its start with `context`, each event made by `events` as a table's
  /// walks make them: a case that some transition of the configuration (or of an ancestor)
  /// names (`Chart.mayHandle(eventNamed:in:)`; with the source's `unhandledShare`, sometimes
  /// one none names), its payload from the source, simplified through the source's shrinker
  /// when a failing walk is shrunk. A case is named as the chart names it, `"\(discriminant)"`.
  ///
  /// ```swift
  /// let percent = Gen.int(in: 0...200)
  /// try PropertyCheck(chart: upload, context: Progress(), events: EventSource(shrink: { event in
  ///     if case .progress(let p) = event { percent.shrink(p).map { .progress($0) } } else { [] }
  /// }) { kind, rng in
  ///     switch kind {
  ///     case .progress: .progress(percent.next(&rng))
  ///     case .pick: .pick
  ///     case .cancel: .cancel
  ///     }
  /// })
  /// .invariant("at most 100 %") { _, progress in progress.percent <= 100 }
  /// .run(seed: 1)
  /// ```
  @inlinable
  public init<ID, E, C, Effect>(chart: Chart<ID, E, C, Effect>, context: C, events: EventSource<E>)
  where Definition == Chart<ID, E, C, Effect>, E.Discriminant: CaseIterable {
    let cases = Array(E.Discriminant.allCases)
    let names = cases.map { "\($0)" }
    self.init(
      chart, context: context, alphabet: [],
      draw: { configuration, generator in
        var handled: [E.Discriminant] = []
        var unhandled: [E.Discriminant] = []
        for (i, kind) in cases.enumerated() {
          if chart.mayHandle(eventNamed: names[i], in: configuration) { handled.append(kind) } else { unhandled.append(kind) }
        }
        return events.next(handled: handled, unhandled: unhandled, using: &generator)
      },
      simpler: events.shrink)
  }
}

/// Seeded random walks through a statechart: the one ``PropertyCheck``, over a chart.
@available(*, deprecated, message: "use PropertyCheck, which walks tables and charts alike")
public typealias ChartPropertyCheck<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Effect: Sendable> =
  PropertyCheck<Chart<ID, Event, Context, Effect>>

/// A chart walk that broke a property: the same failure a table's property check throws.
@available(*, deprecated, renamed: "PropertyFailure")
public typealias ChartPropertyFailure<Event: Sendable> = PropertyFailure<Event>
