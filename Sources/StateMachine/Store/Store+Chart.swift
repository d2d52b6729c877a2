extension Chart: StoreDefinition, _ChartStoreDefinition where Effect: _StoreCommand, Effect.Event == Event {
  /// What a chart's step says beyond every step: its outcome, outputs, history, halting, error.
  public typealias _StepDetail = _ChartStepDetail<ID, Event, Effect.Work>

  /// Every output as the command it stands for (``ChartOutput/command()``), as
  /// ``ChartStep/effects`` lists them: mapped directly, the effect type being known here.
  public static func _effects(of detail: _StepDetail) -> [Command<Event, Effect.Work>] { detail.outputs.map { $0.command() } }

  /// Handled when transitions were taken; ignored when none matched or the chart had halted (a
  /// chart never rejects an event).
  @inlinable
  public static func _response(of detail: _StepDetail) -> MachineResponse { detail.outcome.response }

  public static func _logged(_ step: StoreStep<Self>) -> (outcome: LoggedOutcome, state: ChartLogState<ID>) {
    let detail = step.detail
    return (detail.outcome == .transitioned ? .transitioned : .ignored, ChartLogState(configuration: step.to, history: detail.history, isHalted: detail.isHalted))
  }

  @inlinable
  public static func _makeStore<Proof: _SendableStoreDefinition>(
    _ definition: Self, context: Context, options: _StoreOptions<Proof.Definition>, _ proof: Proof.Type
  ) throws(ChartRunError) -> AnyObject where Proof.Definition == Self {
    options.runtime(try ChartEngine<Self>(definition._chart, context: context))
  }

  @inlinable
  public static func _restoreStore<Proof: _SendableStoreDefinition>(
    _ definition: Self, restoring snapshot: ChartSnapshot<ID, Context>, options: _StoreOptions<Proof.Definition>,
    _ proof: Proof.Type
  ) throws(ChartRestoreError) -> AnyObject where Proof.Definition == Self {
    let runtime = options.runtime(try ChartEngine<Self>(definition._chart, restoring: snapshot))
    runtime.start(committingStart: false)
    return runtime
  }

  @inlinable
  public static func _snapshot<Proof: _SendableStoreDefinition>(of runtime: AnyObject, _ proof: Proof.Type) -> ChartSnapshot<ID, Context>
  where Proof.Definition == Self {
    unsafeDowncast(runtime, to: StoreRuntime<ChartEngine<Self>>.self).core.withLock { $0.engine.snapshot }
  }

  @inlinable
  public static func _configuration<Proof: _SendableStoreDefinition>(of runtime: AnyObject, _ proof: Proof.Type) -> [ID]
  where Proof.Definition == Self {
    unsafeDowncast(runtime, to: StoreRuntime<ChartEngine<Self>>.self).core.withLock { $0.engine.configuration }
  }

  @inlinable
  public static func _context<Proof: _SendableStoreDefinition>(of runtime: AnyObject, _ proof: Proof.Type) -> Context
  where Proof.Definition == Self {
    unsafeDowncast(runtime, to: StoreRuntime<ChartEngine<Self>>.self).core.withLock { $0.engine.context }
  }

  @inlinable
  public static func _send<Proof: _SendableStoreDefinition>(_ event: Event, to runtime: AnyObject, _ proof: Proof.Type) -> SendResult
  where Proof.Definition == Self {
    unsafeDowncast(runtime, to: StoreRuntimeBase<Event, Effect.Work, Context, [ID], StoreStep<Self>>.self).enqueue(event, on: ChartEngine<Self>.self)
  }

  @inlinable
  public static func _send<Proof: _SendableStoreDefinition, Message: Sendable>(
    _ message: Message, to path: String, in runtime: AnyObject, _ proof: Proof.Type
  ) -> SendResult where Proof.Definition == Self {
    unsafeDowncast(runtime, to: StoreRuntimeBase<Event, Effect.Work, Context, [ID], StoreStep<Self>>.self)
      .route(message, to: path, on: ChartEngine<Self>.self)
  }

  public var _chart: Chart<ID, Event, Context, Command<Event, Effect.Work>> {
    // The one `_StoreCommand` is `Command`: the two spellings are one type.
    guard let same = self as? Chart<ID, Event, Context, Command<Event, Effect.Work>> else {
      preconditionFailure("invalid state: a store's effects are Commands (only Command is a _StoreCommand)")
    }
    return same
  }
}

/// A store running a chart: ``Store`` of a ``Chart``.
@available(*, deprecated, message: "Use Store<Chart<ID, Event, Context, Command<Event, Work>>>: one store runs every kind of machine")
public typealias ChartStore<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Work: Sendable> =
  Store<Chart<ID, Event, Context, Command<Event, Work>>>

extension Store where Definition: _ChartStoreDefinition {
  /// A chart's state identifier.
  public typealias ID = Definition.ID

  /// Every active state, compound and parallel ones included, in document order.
  public var activeStates: [ID] { runtime.with(ChartEngine<Definition>.self) { $0.core.withLock { $0.engine.activeStates } } }
  /// Whether `state` (atomic, compound or parallel) is active.
  public func isActive(_ state: ID) -> Bool { runtime.with(ChartEngine<Definition>.self) { $0.core.withLock { $0.engine.isActive(state) } } }
  /// The chart this store runs.
  public var chart: Chart<ID, Event, Context, Effect> { runtime.with(ChartEngine<Definition>.self) { $0.core.withLock { $0.engine.chart } } }
  /// The chart reached a final child of its root: no event is accepted any more.
  public var isHalted: Bool { runtime.with(ChartEngine<Definition>.self) { $0.core.withLock { $0.engine.halted } } }
}
