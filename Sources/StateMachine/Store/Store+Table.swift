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
  public static func _response(of detail: _StepDetail) -> MachineResponse {
    switch detail {
    case .transitioned, .stayed: .handled
    case .ignored: .ignored
    case .rejected(let reason): .rejected(reason.description)
    }
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

  /// A store running `table` from its initial state.
  ///
  /// - Parameters:
  ///   - table: The table to run; the store starts in its initial state.
  ///   - context: The context to start with.
  ///   - clock: Where timers and effects get their time; a ``ManualClock`` in tests.
  ///   - mailbox: ``MailboxPolicy/unbounded`` or a capacity for events sent from outside
  ///     (events from timers and effects are always queued, never dropped).
  ///   - handler: Performs ``Command/perform(_:id:scope:)`` work (see ``Handler`` for where
  ///     it runs).
  ///   - failure: Maps an error thrown by `handler` to an event.
  ///   - inspector: Sees every step, effect start, finish, cancellation and dropped event.
  @inlinable
  public convenience init(
    _ table: Definition, context: Context,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil
  ) {
    self.init(
      engine: TableEngine(machine: Machine(table._table, context: context)), clock: clock, mailbox: mailbox, handler: handler,
      failure: failure, inspector: inspector)
  }

  /// A store that continues `table` from `snapshot` (a store's or a machine's `snapshot`, or
  /// a log's last state and context): the state and context are taken as they are, and no
  /// state is entered, so no entry effect is asked for again. The store has started
  /// (``start()`` does nothing); effects and timers that were running when the snapshot was
  /// taken do not restart.
  ///
  /// ```swift
  /// let saved = store.snapshot                       // TableSnapshot: Codable when the state and context are
  /// let again = try Store(table, restoring: saved, clock: clock, handler: handler)
  /// ```
  ///
  /// - Throws: ``TableValidationError`` when the snapshot's state is not one of the table's.
  @inlinable
  public convenience init(
    _ table: Definition, restoring snapshot: TableSnapshot<State, Context>,
    clock: any Clock<Duration> = ContinuousClock(), mailbox: MailboxPolicy = .unbounded, handler: @escaping Handler,
    failure: @escaping Failure = { _, _ in nil }, inspector: Inspector? = nil
  ) throws(TableValidationError) {
    self.init(
      engine: TableEngine(machine: try Machine(table._table, restoring: snapshot)), clock: clock, mailbox: mailbox, handler: handler,
      failure: failure, inspector: inspector)
    runtime.with(TableEngine<Definition>.self) { $0.start(committingStart: false) }
  }

  /// The current state. A state of at most eight plain bytes (an enum without payloads) is
  /// read without taking the store's lock.
  @inlinable
  public var state: State {
    runtime.with(TableEngine<Definition>.self) { runtime in
      if StateWord<State>.fits { return StateWord.state(runtime.published.load(ordering: .acquiring)) }
      return runtime.core.withLock { $0.engine.machine.state }
    }
  }
  /// The current state (a table's configuration), read as ``state`` is.
  @inlinable
  public var configuration: State { state }
  /// The current context (read specialised for your types where you call it).
  @inlinable
  public var context: Context { runtime.with(TableEngine<Definition>.self) { $0.core.withLock { $0.engine.machine.context } } }
  /// The table this store runs.
  public var table: Table { runtime.with(TableEngine<Definition>.self) { $0.core.withLock { $0.engine.machine.table } } }
  /// Where the table is — its state and context, read together — to save and restore (as a
  /// chart store's `snapshot` is).
  public var snapshot: TableSnapshot<State, Context> { runtime.with(TableEngine<Definition>.self) { $0.core.withLock { $0.engine.machine.snapshot } } }

  /// Queues `event` and, unless another caller is already handling events, handles the queue
  /// on this thread until it is empty.
  ///
  /// (Inlinable: a table's store steps specialised for your types where you send.)
  @inlinable @inline(__always)
  @discardableResult
  public func send(_ event: Event) -> SendResult {
    runtime.enqueue(event, on: TableEngine<Definition>.self)
  }
}
