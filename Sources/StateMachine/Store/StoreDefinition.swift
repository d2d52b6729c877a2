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

  /// The runtime of a store running `definition` from its start (for ``Store``'s initializer:
  /// each kind makes its own engine). `proof` vouches that the context and configuration are
  /// `Sendable`, as a store's are, which a kind's conformance cannot require of them.
  static func _makeStore<Proof: _SendableStoreDefinition>(
    _ definition: Self, context: Context, options: _StoreOptions<Proof.Definition>, _ proof: Proof.Type
  ) throws(Instance.Failure) -> AnyObject where Proof.Definition == Self
  /// The runtime of a store continuing `definition` from `snapshot` (see
  /// ``_makeStore(_:context:options:_:)``), started: it enters no state, so its start asks for
  /// nothing, and ``Store/start()`` then does nothing.
  static func _restoreStore<Proof: _SendableStoreDefinition>(
    _ definition: Self, restoring snapshot: Instance.Snapshot, options: _StoreOptions<Proof.Definition>, _ proof: Proof.Type
  ) throws(Instance.RestoreFailure) -> AnyObject where Proof.Definition == Self
  /// The snapshot of the store whose runtime is `runtime` (one this kind made).
  static func _snapshot<Proof: _SendableStoreDefinition>(of runtime: AnyObject, _ proof: Proof.Type) -> Instance.Snapshot
  where Proof.Definition == Self
  /// Where the store whose runtime is `runtime` is, read as this kind reads it fastest.
  static func _configuration<Proof: _SendableStoreDefinition>(of runtime: AnyObject, _ proof: Proof.Type) -> Configuration
  where Proof.Definition == Self
  /// The context of the store whose runtime is `runtime`.
  static func _context<Proof: _SendableStoreDefinition>(of runtime: AnyObject, _ proof: Proof.Type) -> Context
  where Proof.Definition == Self
  /// Sends `event` to the store whose runtime is `runtime`, stepped specialised for this kind.
  static func _send<Proof: _SendableStoreDefinition>(_ event: Event, to runtime: AnyObject, _ proof: Proof.Type) -> SendResult
  where Proof.Definition == Self
  /// Sends `message` to the child at `path` of the store whose runtime is `runtime`.
  static func _send<Proof: _SendableStoreDefinition, Message: Sendable>(
    _ message: Message, to path: String, in runtime: AnyObject, _ proof: Proof.Type
  ) -> SendResult where Proof.Definition == Self
}

/// Vouches that a ``StoreDefinition``'s context and configuration are `Sendable` (see
/// ``StoreDefinition/_makeStore(_:context:options:_:)``). Not API.
public protocol _SendableStoreDefinition {
  associatedtype Definition: StoreDefinition where Definition.Context: Sendable, Definition.Configuration: Sendable
}

/// The one ``_SendableStoreDefinition``: made only where the store's types are known to be
/// `Sendable`. Not API.
public enum _StoreOf<Definition: StoreDefinition>: _SendableStoreDefinition
where Definition.Context: Sendable, Definition.Configuration: Sendable {}

/// What every store is made with beside its machine: its clock, mailbox, handler, failure and
/// inspector. Not API (``Store``'s initializers take them one by one).
public struct _StoreOptions<Definition: StoreDefinition>: Sendable
where Definition.Context: Sendable, Definition.Configuration: Sendable {
  /// The injected clock, started when the options were made (the store's time begins then).
  @usableFromInline let clock: any StoreClock
  @usableFromInline let mailbox: MailboxPolicy
  @usableFromInline let handler: Store<Definition>.Handler
  @usableFromInline let failure: Store<Definition>.Failure
  @usableFromInline let inspector: Store<Definition>.Inspector?
  /// The store is a child's, and its inspector the child's watcher: the ends of its own
  /// children go to it, up to the store that records the system (see ``ChildEnd``).
  @usableFromInline let forwardsChildEnds: Bool
  /// The store is an invoked chart's, whose messages to `#_parent` its parent takes (see
  /// ``ChildKind/parentMessages``).
  @usableFromInline let parentTakesMessages: Bool

  @inlinable
  init(
    clock: any Clock<Duration>, mailbox: MailboxPolicy, handler: @escaping Store<Definition>.Handler,
    failure: @escaping Store<Definition>.Failure, inspector: Store<Definition>.Inspector?
  ) {
    self.init(started: storeClock(clock), mailbox: mailbox, handler: handler, failure: failure, inspector: inspector)
  }

  /// Options on `started`, a clock started now: a child's, its parent's clock restarted
  /// (``StoreClock/restarted()``, which makes it without opening the clock's existential and
  /// looking up the generic type it makes, as ``storeClock(_:)`` does: a child's start does so).
  @inlinable
  init(
    started clock: any StoreClock, mailbox: MailboxPolicy, handler: @escaping Store<Definition>.Handler,
    failure: @escaping Store<Definition>.Failure, inspector: Store<Definition>.Inspector?, forwardsChildEnds: Bool = false,
    parentTakesMessages: Bool = false
  ) {
    (self.clock, self.mailbox, self.handler, self.failure, self.inspector) = (clock, mailbox, handler, failure, inspector)
    (self.forwardsChildEnds, self.parentTakesMessages) = (forwardsChildEnds, parentTakesMessages)
  }

  /// A store's runtime stepping `engine` with these options.
  @inlinable
  func runtime<Engine: StoreEngine>(_ engine: Engine) -> StoreRuntime<Engine>
  where Engine.Event == Definition.Event, Engine.Work == Definition.Effect.Work, Engine.Step == StoreStep<Definition> {
    StoreRuntime(
      engine: engine, clock: clock, mailbox: mailbox, handler: handler, failure: failure, inspector: inspector,
      forwardsChildEnds: forwardsChildEnds, parentTakesMessages: parentTakesMessages)
  }
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
  _LogState == Configuration, Instance.Snapshot == TableSnapshot<Configuration, Context>,
  Instance.RestoreFailure == TableValidationError, Instance.Failure == Never
{
  /// The table, with its effects spelled as commands.
  var _table: TransitionTable<Configuration, Event, Context, Command<Event, Effect.Work>> { get }
}

/// A ``StoreDefinition`` that is a ``Chart``: the chart-only members of the store tools (a
/// store's `activeStates`, `snapshot` and `chart`, restoring, recording) are there when the
/// definition is one.
public protocol _ChartStoreDefinition: StoreDefinition
where
  Configuration == [ID], _StepDetail == _ChartStepDetail<ID, Event, Effect.Work>, _LogState == ChartLogState<ID>,
  Instance.Snapshot == ChartSnapshot<ID, Context>, Instance.RestoreFailure == ChartRestoreError, Instance.Failure == ChartRunError
{
  /// A state's identifier.
  associatedtype ID: Hashable & Sendable
  /// The chart, with its effects spelled as commands.
  var _chart: Chart<ID, Event, Context, Command<Event, Effect.Work>> { get }
}
