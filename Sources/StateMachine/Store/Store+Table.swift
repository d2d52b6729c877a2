import Synchronization

extension TransitionTable: StoreDefinition, _TableStoreDefinition
where Effect: _StoreCommand, Effect.Event == Event {
  /// What a table's step says beyond every step: its outcome.
  public typealias _StepDetail = StepOutcome<State, Command<Event, Effect.Work>>

  public static func _effects(of detail: _StepDetail) -> [Command<Event, Effect.Work>] { Array(detail.effects) }

  public static func _logged(_ step: StoreStep<Self>) -> (outcome: LoggedOutcome, state: State) {
    (LoggedOutcome(step.detail), step.to)
  }

  @inlinable
  public static func _response(of detail: _StepDetail) -> MachineResponse { detail.response }

  @inlinable
  public static func _makeStore<Proof: _SendableStoreDefinition>(
    _ definition: Self, context: Context, options: _StoreOptions<Proof.Definition>, _ proof: Proof.Type
  ) -> AnyObject where Proof.Definition == Self {
    options.runtime(TableEngine<Self>(machine: Machine(definition._table, context: context)))
  }

  @inlinable
  public static func _restoreStore<Proof: _SendableStoreDefinition>(
    _ definition: Self, restoring snapshot: TableSnapshot<State, Context>, options: _StoreOptions<Proof.Definition>,
    _ proof: Proof.Type
  ) throws(TableValidationError) -> AnyObject where Proof.Definition == Self {
    let runtime = options.runtime(TableEngine<Self>(machine: try Machine(definition._table, restoring: snapshot)))
    runtime.start(committingStart: false)
    return runtime
  }

  @inlinable
  public static func _snapshot<Proof: _SendableStoreDefinition>(of runtime: AnyObject, _ proof: Proof.Type) -> TableSnapshot<State, Context>
  where Proof.Definition == Self {
    unsafeDowncast(runtime, to: StoreRuntime<TableEngine<Self>>.self).core.withLock { $0.engine.machine.snapshot }
  }

  /// (A state of at most eight plain bytes, an enum without payloads, is read without taking
  /// the store's lock.)
  @inlinable
  public static func _configuration<Proof: _SendableStoreDefinition>(of runtime: AnyObject, _ proof: Proof.Type) -> State
  where Proof.Definition == Self {
    let runtime = unsafeDowncast(runtime, to: StoreRuntime<TableEngine<Self>>.self)
    if StateWord<State>.fits { return StateWord.state(runtime.published.load(ordering: .acquiring)) }
    return runtime.core.withLock { $0.engine.machine.state }
  }

  @inlinable
  public static func _context<Proof: _SendableStoreDefinition>(of runtime: AnyObject, _ proof: Proof.Type) -> Context
  where Proof.Definition == Self {
    unsafeDowncast(runtime, to: StoreRuntime<TableEngine<Self>>.self).core.withLock { $0.engine.machine.context }
  }

  @inlinable @inline(__always)
  public static func _send<Proof: _SendableStoreDefinition>(_ event: Event, to runtime: AnyObject, _ proof: Proof.Type) -> SendResult
  where Proof.Definition == Self {
    unsafeDowncast(runtime, to: StoreRuntimeBase<Event, Effect.Work, Context, State, StoreStep<Self>>.self).enqueue(event, on: TableEngine<Self>.self)
  }

  @inlinable
  public static func _send<Proof: _SendableStoreDefinition, Message: Sendable>(
    _ message: Message, to path: String, in runtime: AnyObject, _ proof: Proof.Type
  ) -> SendResult where Proof.Definition == Self {
    unsafeDowncast(runtime, to: StoreRuntimeBase<Event, Effect.Work, Context, State, StoreStep<Self>>.self)
      .route(message, to: path, on: TableEngine<Self>.self)
  }

  public var _table: TransitionTable<State, Event, Context, Command<Event, Effect.Work>> {
    // The one `_StoreCommand` is `Command`: the two spellings are one type.
    guard let same = self as? TransitionTable<State, Event, Context, Command<Event, Effect.Work>> else {
      preconditionFailure("invalid state: a store's effects are Commands (only Command is a _StoreCommand)")
    }
    return same
  }
}

extension Store where Definition: _TableStoreDefinition {
  /// The table a store runs.
  public typealias Table = TransitionTable<Definition.Configuration, Event, Context, Effect>
  /// A table's state.
  public typealias State = Definition.Configuration

  /// The current state: the table's configuration. A state of at most eight plain bytes (an
  /// enum without payloads) is read without taking the store's lock.
  @inlinable
  public var state: State { configuration }
  /// The table this store runs.
  public var table: Table { runtime.with(TableEngine<Definition>.self) { $0.core.withLock { $0.engine.machine.table } } }
}
