/// A machine definition a ``Store`` runs: a ``TransitionTable`` or a ``Chart`` whose effects are
/// ``Command``s. The store, its test store (`TestStore`), ``ObservedStore`` and recording are
/// written once over it; what only one kind has (a table's `state`, a chart's `snapshot`) is
/// in extensions for that kind.
///
/// You do not conform your own types: the package's kinds do. A store needs a `Sendable`
/// context (it is shared between threads).
public protocol StoreDefinition: MachineDefinition
where Effect: _StoreCommand, Effect.Event == Event {
  /// What a store reports for each step: ``StoreStep`` for a table, ``ChartStoreStep`` for a chart.
  associatedtype StepReport: StoreStepProtocol
  where
    StepReport.Event == Event, StepReport.Context == Context, StepReport.Configuration == Configuration,
    StepReport.EffectList.Element == Command<Event, Effect.Work>
}

/// ``Command``, as a ``StoreDefinition``'s effect: names its event and work types.
public protocol _StoreCommand: Sendable {
  associatedtype Event: Sendable
  associatedtype Work: Sendable
}

extension Command: _StoreCommand {}

/// A ``StoreDefinition`` that is a ``TransitionTable``: the table-only members of the store
/// tools (a store's `state` and `table`, recording) are there when the definition is one.
public protocol _TableStoreDefinition: StoreDefinition
where Configuration: Discriminated, Event: Discriminated, StepReport == StoreStep<Configuration, Event, Context, Command<Event, Effect.Work>> {
  /// The table, with its effects spelled as commands.
  var _table: TransitionTable<Configuration, Event, Context, Command<Event, Effect.Work>> { get }
}

/// A ``StoreDefinition`` that is a ``Chart``: the chart-only members of the store tools (a
/// store's `activeStates`, `snapshot` and `chart`, restoring, recording) are there when the
/// definition is one.
public protocol _ChartStoreDefinition: StoreDefinition
where Configuration == [ID], StepReport == ChartStoreStep<ID, Event, Context, Effect.Work> {
  /// A state's identifier.
  associatedtype ID: Hashable & Sendable
  /// The chart, with its effects spelled as commands.
  var _chart: Chart<ID, Event, Context, Command<Event, Effect.Work>> { get }
}

/// What every step a store reports says: which event, from where to where, the context after
/// it, when, and the effects it asked for.
public protocol StoreStepProtocol {
  /// The events the machine handles.
  associatedtype Event
  /// The machine's context.
  associatedtype Context
  /// A table's state, or a chart's active atomic states.
  associatedtype Configuration
  /// The effects' collection.
  associatedtype EffectList: RandomAccessCollection
  /// 1 for the store's first step, then 2, 3, ...
  var sequence: Int { get }
  /// The event handled.
  var event: Event { get }
  /// Where the machine was before the step.
  var from: Configuration { get }
  /// Where the step left it.
  var to: Configuration { get }
  /// The context after the step.
  var context: Context { get }
  /// When the step was taken, on the store's clock.
  var time: Duration { get }
  /// The effects the step asked for, in order.
  var effects: EffectList { get }
  /// Whether the machine handled the event, ignored it, or rejected it (and why).
  var response: MachineResponse { get }
}
