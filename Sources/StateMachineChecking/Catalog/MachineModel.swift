public import StateMachine

/// How to model-check a machine of any kind, a table or a chart: a finite alphabet for
/// exhaustive exploration and random walks, and the invariants both must keep. `fsm explore`
/// (through a catalog entry) and property tests use these.
///
/// ```swift
/// let model = MachineModel(table: upload, context: Upload.Context(), alphabet: [.pick, .cancel, .progress(50)],
///                          invariants: [Invariant("0...100 %") { _, c in (0...100).contains(c.percent) }])
/// try model.propertyCheck.run(walks: 200, length: 40)
/// print(model.explorer.explore().coverage)
/// ```
///
/// Both the explorer and the walks check every invariant and ``StepCheck/noDeadEnd``.
public struct MachineModel<Definition: ExplorableDefinition>: Sendable where Definition.Context: Sendable {
  /// The machine checked.
  public let definition: Definition
  /// The context it starts with.
  public let context: Definition.Context
  /// Events with a few representative payloads each.
  public let alphabet: [Definition.Event]
  /// What every reached configuration (a table's state, a chart's active states) and context
  /// must satisfy.
  public let invariants: [Invariant<Definition.Configuration, Definition.Context>]
  /// The walks, as the kind draws its events (before the invariants are added).
  @usableFromInline let walks: PropertyCheck<Definition>

  @usableFromInline
  init(
    _ definition: Definition, context: Definition.Context, alphabet: [Definition.Event],
    invariants: [Invariant<Definition.Configuration, Definition.Context>], walks: PropertyCheck<Definition>
  ) {
    (self.definition, self.context, self.alphabet, self.invariants, self.walks) = (definition, context, alphabet, invariants, walks)
  }

  /// A model of `definition` started with `context`, explored over `alphabet` and walked
  /// uniformly over it.
  public init(
    _ definition: Definition, context: Definition.Context, alphabet: [Definition.Event],
    invariants: [Invariant<Definition.Configuration, Definition.Context>]
  ) {
    self.init(
      definition, context: context, alphabet: alphabet, invariants: invariants,
      walks: PropertyCheck(definition, context: context, alphabet: alphabet))
  }

  /// The exhaustive explorer over ``alphabet`` with the invariants and the dead-end check.
  public var explorer: Explorer<Definition> {
    invariants.reduce(Explorer(definition, context: context, alphabet: alphabet).checking(.noDeadEnd)) { $0.adding($1) }
  }

  /// Seeded random walks over ``alphabet`` with the same properties.
  public var propertyCheck: PropertyCheck<Definition> {
    invariants.reduce(walks.checking(.noDeadEnd)) { $0.adding($1) }
  }
}

extension MachineModel {
  /// A model of `table` started with `context`, explored over `alphabet`; its walks draw, in
  /// each state, a case the state handles and one of the alphabet's events of that case.
  public init<State, E: Hashable, C, Effect>(
    table: TransitionTable<State, E, C, Effect>, context: C, alphabet: [E], invariants: [Invariant<State, C>]
  ) where Definition == TransitionTable<State, E, C, Effect> {
    let source = EventSource<E> { kind, generator in
      let choices = alphabet.filter { $0.discriminant == kind }
      guard !choices.isEmpty else { return nil }
      return choices[Int(generator.next() % UInt64(choices.count))]
    }
    self.init(
      table, context: context, alphabet: alphabet, invariants: invariants, walks: PropertyCheck(table: table, context: context, events: source))
  }

  /// A model of `chart` started with `context`, explored and walked over `alphabet`.
  public init<ID, E, C, Effect>(
    chart: Chart<ID, E, C, Effect>, context: C, alphabet: [E], invariants: [(name: String, holds: @Sendable (_ configuration: [ID], _ context: C) -> Bool)]
  ) where Definition == Chart<ID, E, C, Effect> {
    self.init(chart, context: context, alphabet: alphabet, invariants: invariants.map { Invariant($0.name, $0.holds) })
  }
}

/// How to model-check a table: the one ``MachineModel``, over a table.
@available(*, deprecated, message: "use MachineModel, which models tables and charts alike")
public typealias TableModel<State: Discriminated & Hashable, Event: Discriminated & Hashable, Context: Hashable & Sendable, Effect: Sendable> =
  MachineModel<TransitionTable<State, Event, Context, Effect>>

/// How to model-check a chart: the one ``MachineModel``, over a chart.
@available(*, deprecated, message: "use MachineModel, which models tables and charts alike")
public typealias ChartModel<ID: Hashable & Sendable, Event: Hashable & Sendable, Context: Hashable & Sendable, Effect: Sendable> =
  MachineModel<Chart<ID, Event, Context, Effect>>

extension MachineModel {
  /// The table a table's model checks.
  @available(*, deprecated, renamed: "definition")
  public var table: Definition { definition }
  /// The chart a chart's model checks.
  @available(*, deprecated, renamed: "definition")
  public var chart: Definition { definition }
}
