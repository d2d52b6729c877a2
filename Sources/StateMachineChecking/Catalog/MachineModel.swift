public import StateMachine

/// How to model-check a table: a finite alphabet for exhaustive exploration and random walks,
/// and the invariants both must keep. `fsm explore` (through a catalog entry) and
/// property tests use these.
///
/// ```swift
/// let model = TableModel(table: upload, context: Upload.Context(), alphabet: [.pick, .cancel, .progress(50)],
///                        invariants: [Invariant("0...100 %") { _, c in (0...100).contains(c.percent) }])
/// try model.propertyCheck.run(walks: 200, length: 40)
/// ```
public struct TableModel<State: Discriminated & Hashable, Event: Discriminated & Hashable, Context: Hashable & Sendable, Effect: Sendable>: Sendable {
  /// The table checked.
  public let table: TransitionTable<State, Event, Context, Effect>
  /// The context it starts with.
  public let context: Context
  /// Events with a few representative payloads each.
  public let alphabet: [Event]
  /// What every reached state and context must satisfy.
  public let invariants: [Invariant<State, Context>]

  /// A model of `table` started with `context`, explored and walked over `alphabet`.
  public init(
    table: TransitionTable<State, Event, Context, Effect>, context: Context, alphabet: [Event], invariants: [Invariant<State, Context>]
  ) {
    (self.table, self.context, self.alphabet, self.invariants) = (table, context, alphabet, invariants)
  }

  /// The exhaustive explorer over ``alphabet`` with the invariants and the dead-end check.
  public var explorer: Explorer<TransitionTable<State, Event, Context, Effect>> {
    invariants.reduce(Explorer(table: table, context: context, alphabet: alphabet).checking(.noDeadEnd)) { $0.adding($1) }
  }

  /// Seeded random walks over ``alphabet`` with the same properties.
  public var propertyCheck: PropertyCheck<TransitionTable<State, Event, Context, Effect>> {
    let alphabet = alphabet
    let source = EventSource<Event> { kind, generator in
      let choices = alphabet.filter { $0.discriminant == kind }
      guard !choices.isEmpty else { return nil }
      return choices[Int(generator.next() % UInt64(choices.count))]
    }
    return invariants.reduce(PropertyCheck(table: table, context: context, events: source).checking(.noDeadEnd)) {
      $0.adding($1)
    }
  }
}

/// How to model-check a chart, as ``TableModel`` does a table: an alphabet, and the invariants every configuration
/// reached must keep, for ``Explorer`` and ``PropertyCheck``.
public struct ChartModel<ID: Hashable & Sendable, Event: Hashable & Sendable, Context: Hashable & Sendable, Effect: Sendable>: Sendable {
  /// The chart checked.
  public let chart: Chart<ID, Event, Context, Effect>
  /// The context it starts with.
  public let context: Context
  /// Events with a few representative payloads each.
  public let alphabet: [Event]
  /// What every reached configuration and context must satisfy.
  public let invariants: [(name: String, holds: @Sendable (_ configuration: [ID], _ context: Context) -> Bool)]

  /// A model of `chart` started with `context`, explored and walked over `alphabet`.
  public init(
    chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event], invariants: [(name: String, holds: @Sendable (_ configuration: [ID], _ context: Context) -> Bool)]
  ) {
    (self.chart, self.context, self.alphabet, self.invariants) = (chart, context, alphabet, invariants)
  }

  /// The exhaustive explorer over ``alphabet`` with the invariants.
  public var explorer: Explorer<Chart<ID, Event, Context, Effect>> {
    invariants.reduce(Explorer(chart: chart, context: context, alphabet: alphabet)) { $0.invariant($1.name, $1.holds) }
  }

  /// Seeded random walks over ``alphabet`` with the same invariants.
  public var propertyCheck: PropertyCheck<Chart<ID, Event, Context, Effect>> {
    invariants.reduce(PropertyCheck(chart: chart, context: context, alphabet: alphabet)) { $0.invariant($1.name, $1.holds) }
  }
}
