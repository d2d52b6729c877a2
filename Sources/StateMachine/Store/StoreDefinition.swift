/// A machine definition a ``Store`` runs: a ``TransitionTable`` or a ``Chart`` whose effects are
/// ``Command``s. The store, its test store (`TestStore`), ``ObservedStore`` and recording are
/// written once over it; what only one kind has (a table's `state`, a chart's `snapshot`) is
/// in extensions for that kind.
///
/// You do not conform your own types: the package's kinds do. A store needs a `Sendable`
/// context (it is shared between threads).
public protocol StoreDefinition: MachineDefinition
where Effect: _StoreCommand, Effect.Event == Event {
  /// What a step of this kind says beyond what every ``StoreStep`` does: a table's
  /// ``StepOutcome``; a chart's outcome, outputs, history, halting and error.
  associatedtype _StepDetail: Sendable
  /// The effects a step emitted, in order.
  static func _effects(of detail: _StepDetail) -> [Command<Event, Effect.Work>]
  /// Whether a step handled its event, ignored it, or rejected it.
  static func _response(of detail: _StepDetail) -> MachineResponse
  /// What a log keeps of where the machine is: a table's state, a chart's ``ChartLogState``.
  associatedtype _LogState
  /// What a log keeps of `step`: its outcome and where it left the machine.
  static func _logged(_ step: StoreStep<Self>) -> (outcome: LoggedOutcome, state: _LogState)
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
where
  Configuration: Discriminated, Event: Discriminated, _StepDetail == StepOutcome<Configuration, Command<Event, Effect.Work>>,
  _LogState == Configuration
{
  /// The table, with its effects spelled as commands.
  var _table: TransitionTable<Configuration, Event, Context, Command<Event, Effect.Work>> { get }
}

/// A ``StoreDefinition`` that is a ``Chart``: the chart-only members of the store tools (a
/// store's `activeStates`, `snapshot` and `chart`, restoring, recording) are there when the
/// definition is one.
public protocol _ChartStoreDefinition: StoreDefinition
where Configuration == [ID], _StepDetail == _ChartStepDetail<ID, Event, Effect.Work>, _LogState == ChartLogState<ID> {
  /// A state's identifier.
  associatedtype ID: Hashable & Sendable
  /// The chart, with its effects spelled as commands.
  var _chart: Chart<ID, Event, Context, Command<Event, Effect.Work>> { get }
}
