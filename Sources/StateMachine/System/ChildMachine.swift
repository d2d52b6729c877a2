/// A machine that a store runs as a child of its own: a table or a chart in a store of its
/// own, started by a ``Command/invoke(_:id:scope:)`` and owned by the store that started it.
///
/// ```swift
/// let upload = ChildMachine<Queue.Event>(Upload.table, context: .init(file: "a.jpg"), handler: upload,
///     toParent: { step in step.to == .failed ? .fileFailed : nil },
///     doneWhen: { $0 == .uploaded }, onDone: { context in .fileDone(context.file) })
/// // in the parent's chart, entering `uploading`:
/// .effect(.invoke(upload, id: "file-1"))          // runs while `uploading` is active
/// ```
///
/// A child lives on the parent's clock, with its own mailbox, handler and effects. It ends with
/// exactly one of:
/// - **finished**, when it is done (a chart halts in a final state of its root; a table enters a
///   state its `doneWhen` names): `onDone` maps its last context to an event for the parent, queued before
///   anything the parent handles next;
/// - **cancelled**, when its scope ends (a state-scoped child's state is exited, SCXML's
///   `<invoke>`), when the parent cancels it by id (``Command/cancel(_:)``), or when the parent's
///   store finishes: its store is finished, which cancels its own effects and children;
/// - **failed**, when it could not start (a chart whose first macrostep does not settle):
///   `onError` maps the error to an event for the parent.
///
/// The parent's inspector sees these as ``StoreReport/effectStarted(id:description:)`` and one
/// of finished, cancelled or failed, like any effect. What the child says to its parent on the
/// way is `toParent`: each of its steps may map to an event for the parent, delivered in order
/// (and dropped, reported as late, once the child has ended). The parent talks to it with
/// messages (``MachineMessage``).
public struct ChildMachine<ParentEvent: Sendable>: Sendable, Hashable, CustomStringConvertible {
  /// The name and the launch, in one object: a ``Command`` carrying a child stays a word wide
  /// for it.
  @usableFromInline
  final class Parts: Sendable {
    @usableFromInline let name: String
    @usableFromInline let launch: (@Sendable (ChildLaunch<ParentEvent>) throws -> RunningChild)?
    /// Makes the child's machine in its initial state for a system's replay.
    @usableFromInline let replay: (@Sendable () -> any ChildReplaying)?
    /// Makes the child's machine, not started, for a system run on the caller's thread (see
    /// ``SystemMachine``); throws a ``ChildLaunchError`` when it cannot start.
    @usableFromInline let node: (@Sendable () throws -> AnyChildNode<ParentEvent>)?

    @usableFromInline
    init(
      name: String, launch: (@Sendable (ChildLaunch<ParentEvent>) throws -> RunningChild)?,
      replay: (@Sendable () -> any ChildReplaying)?, node: (@Sendable () throws -> AnyChildNode<ParentEvent>)?
    ) {
      (self.name, self.launch, self.replay, self.node) = (name, launch, replay, node)
    }
  }

  @usableFromInline let parts: Parts

  /// The machine's name (its table's or chart's), as logs and diagrams show it.
  public var name: String { parts.name }
  /// Makes and starts the child's store; `nil` for a child read back from a log.
  @usableFromInline var launch: (@Sendable (ChildLaunch<ParentEvent>) throws -> RunningChild)? { parts.launch }

  @usableFromInline
  init(
    name: String, replay: (@Sendable () -> any ChildReplaying)? = nil, node: (@Sendable () throws -> AnyChildNode<ParentEvent>)? = nil,
    launch: (@Sendable (ChildLaunch<ParentEvent>) throws -> RunningChild)?
  ) {
    parts = Parts(name: name, launch: launch, replay: replay, node: node)
  }

  /// A child running `table` from its initial state with `context`.
  ///
  /// - Parameters:
  ///   - table: The child's table; it starts in its initial state.
  ///   - context: The child's context to start with.
  ///   - mailbox: The child's mailbox (see ``MailboxPolicy``): messages beyond a bounded one's
  ///     capacity are refused.
  ///   - handler: Performs the table's work, as a store's handler does.
  ///   - failure: Maps an error of `handler` to one of the child's events.
  ///   - toParent: The event for the parent, if any, that a step of the child says.
  ///   - doneWhen: The states in which the child is done. A table does not halt, and its final
  ///     states are only ends it may stay in (a counter's one state is final): without it the
  ///     child is never done, and runs until it is cancelled.
  ///   - onDone: The event for the parent when the child is done, from its context.
  ///   - inspector: Sees the child's store as a store's inspector does.
  ///
  /// A child with none of `toParent`, `doneWhen` and `inspector` has no inspector on its store,
  /// whose steps are then as cheap as a store's that nobody watches.
  ///
  /// (Inlinable: the child's store steps specialised for its types where you make it.)
  @inlinable
  public init<State, Event, Context, Work>(
    _ table: TransitionTable<State, Event, Context, Command<Event, Work>>, context: Context,
    mailbox: MailboxPolicy = .unbounded,
    handler: @escaping @Sendable (Work, Send<Event>) async throws -> Void = { _, _ in },
    failure: @escaping @Sendable (Work, any Error) -> Event? = { _, _ in nil },
    toParent: (@Sendable (StoreStep<TransitionTable<State, Event, Context, Command<Event, Work>>>) -> ParentEvent?)? = nil,
    doneWhen: (@Sendable (State) -> Bool)? = nil,
    onDone: @escaping @Sendable (Context) -> ParentEvent? = { _ in nil },
    inspector: Store<TransitionTable<State, Event, Context, Command<Event, Work>>>.Inspector? = nil
  ) where Context: Sendable, State: Sendable {
    typealias Definition = TransitionTable<State, Event, Context, Command<Event, Work>>
    var isDone: (@Sendable (StoreStep<Definition>) -> Bool)?
    if let doneWhen { isDone = { step in doneWhen(step.to) } }
    let kind = Self.kind(table.name, engine: TableEngine<Definition>.self, toParent: toParent, onDone: onDone, isDone: isDone)
    typealias Node = MachineNode<TableEngine<Definition>, ParentEvent>
    let ops = Node.childOps(machine: table.name)
    let node: @Sendable () -> AnyChildNode<ParentEvent> = {
      Node(engine: TableEngine(machine: Machine(table, context: context)), kind: kind, doneAtStart: doneWhen?(table.initial) == true).erased(ops)
    }
    self.init(name: table.name, replay: Self.replaying(table, context: context), node: node) { launch in
      try Self.running(
        launch, kind: kind, inspector: inspector, doneAtStart: { _ in doneWhen?(table.initial) == true ? context : nil }
      ) { watcher in
        try Self.store(
          of: table, context: context, launch: launch,
          options: _StoreOptions(
            started: launch.clock.restarted(), mailbox: mailbox, handler: handler, failure: failure, inspector: watcher,
            forwardsChildEnds: watcher != nil))
      }
    }
  }

  /// A child running `chart` from its start with `context`.
  ///
  /// The parameters are the table's (see the table's initializer); `onDone` runs when the chart
  /// halts in a final state of its root, and `onError` maps the error of a chart whose first
  /// macrostep does not settle.
  @inlinable
  public init<ID, Event, Context, Work>(
    _ chart: Chart<ID, Event, Context, Command<Event, Work>>, context: Context,
    mailbox: MailboxPolicy = .unbounded,
    handler: @escaping @Sendable (Work, Send<Event>) async throws -> Void = { _, _ in },
    failure: @escaping @Sendable (Work, any Error) -> Event? = { _, _ in nil },
    toParent: (@Sendable (StoreStep<Chart<ID, Event, Context, Command<Event, Work>>>) -> ParentEvent?)? = nil,
    onDone: @escaping @Sendable (Context) -> ParentEvent? = { _ in nil },
    onError: @escaping @Sendable (any Error) -> ParentEvent? = { _ in nil },
    inspector: Store<Chart<ID, Event, Context, Command<Event, Work>>>.Inspector? = nil
  ) where Context: Sendable {
    self.init(
      chart, context: context, mailbox: mailbox, handler: handler, failure: failure, toParent: toParent, onDone: onDone,
      onError: onError, inspector: inspector, invoked: false)
  }

  /// A child running the chart a chart's state invokes (see ``ChartInvocationCommand``): its
  /// messages to `#_parent` are said to its parent, and its work is performed by its parent
  /// store's handler (the invoked chart has its invoker's types), each effect's events sent to it.
  /// `stamp` marks each event it says to its parent as its (SCXML's `invokeid`).
  @usableFromInline
  init<ID, Event, Context, Work>(
    invoked chart: Chart<ID, Event, Context, Command<Event, Work>>, context: Context,
    onDone: @escaping @Sendable (Context) -> ParentEvent?, stamp: (@Sendable (ParentEvent) -> ParentEvent)? = nil
  ) where Context: Sendable {
    self.init(
      chart, context: context, mailbox: .unbounded, handler: { _, _ in }, failure: { _, _ in nil }, toParent: nil, onDone: onDone,
      onError: { _ in nil }, inspector: nil, invoked: true, stamp: stamp)
  }

  /// A child whose machine `make` makes only as it starts, not when the command that starts it
  /// is made (an SCXML invocation's: its params are evaluated as it starts, at the end of the
  /// macrostep that entered its state, see ``SCXMLSession/invocation(_:script:id:)``), in a
  /// store, a synchronous system and a replay alike. `make` gives the machine, and the events
  /// making it raised for its parent (an invocation's `error.execution`), which the parent
  /// takes next, ahead of the events queued for it (SCXML's internal queue) and of anything the
  /// child says (a replay has them in its
  /// log; a child restored from a snapshot started before, and its parent took them then). No
  /// machine: it cannot start, and fails.
  init(named name: String, madeAtStart make: @escaping @Sendable () -> (child: ChildMachine?, raised: [ParentEvent])) {
    let unmade = ChildNotStarted(name: name)
    self.init(
      name: name, replay: { make().child?.parts.replay?() ?? UnrunnableChildReplay(name: name) },
      node: {
        let (made, raised) = make()
        guard let node = made?.parts.node else { throw ChildLaunchError<ParentEvent>(error: unmade, event: nil, raised: raised) }
        do {
          return try node().saying(raised)
        } catch let failure as ChildLaunchError<ParentEvent> {
          throw ChildLaunchError(error: failure.error, event: failure.event, raised: raised + failure.raised)
        }
      },
      launch: { launch in
        let (made, raised) = make()
        // (A child restored from a snapshot started before: its parent took these then.)
        if launch.restoring == nil { for event in raised { launch.parent.childRaised(event, token: launch.token, label: launch.label) } }
        guard let start = made?.launch else { throw ChildLaunchError<ParentEvent>(error: unmade, event: nil) }
        return try start(launch)
      })
  }

  /// A child running `chart` (see the public initializer); `invoked`: a chart a chart's state
  /// invokes, whose messages to `#_parent` are said to its parent (see
  /// ``ChildKind/parentMessages``), and whose work its parent store's handler performs, when
  /// that store's work is of its type (see ``ParentLink/performer(of:_:)``).
  @inlinable
  init<ID, Event, Context, Work>(
    _ chart: Chart<ID, Event, Context, Command<Event, Work>>, context: Context, mailbox: MailboxPolicy,
    handler: @escaping @Sendable (Work, Send<Event>) async throws -> Void, failure: @escaping @Sendable (Work, any Error) -> Event?,
    toParent: (@Sendable (StoreStep<Chart<ID, Event, Context, Command<Event, Work>>>) -> ParentEvent?)?,
    onDone: @escaping @Sendable (Context) -> ParentEvent?, onError: @escaping @Sendable (any Error) -> ParentEvent?,
    inspector: Store<Chart<ID, Event, Context, Command<Event, Work>>>.Inspector?, invoked: Bool,
    stamp: (@Sendable (ParentEvent) -> ParentEvent)? = nil
  ) where Context: Sendable {
    typealias Definition = Chart<ID, Event, Context, Command<Event, Work>>
    let kind = Self.kind(
      chart.name, engine: ChartEngine<Definition>.self, toParent: toParent, onDone: onDone, isDone: { $0.isHalted },
      saysParentMessages: invoked, stamp: stamp)
    typealias Node = MachineNode<ChartEngine<Definition>, ParentEvent>
    let ops = Node.childOps(machine: chart.name)
    let node: @Sendable () throws -> AnyChildNode<ParentEvent> = {
      do {
        let engine = try ChartEngine<Definition>(chart, context: context)
        return Node(engine: engine, kind: kind, doneAtStart: engine.halted).erased(ops)
      } catch {
        throw ChildLaunchError(error: error, event: onError(error))
      }
    }
    self.init(name: chart.name, replay: Self.replaying(chart, context: context), node: node) { launch in
      let doneAtStart: (AnyObject) -> Context? = { runtime in
        unsafeDowncast(runtime, to: StoreRuntime<ChartEngine<Definition>>.self).core.withLock { $0.engine.halted ? $0.engine.context : nil }
      }
      // (An invoked chart performs its work as its invoker's store does, when that store's work is
      // of its type: a store of a chart that another invoked, for one.)
      let performer: Performer<Event, Work>? = invoked ? launch.parent.performer(of: Event.self, Work.self) : nil
      let (handler, failure) = (performer?.handler ?? handler, performer?.failure ?? failure)
      return try Self.running(launch, kind: kind, inspector: inspector, doneAtStart: doneAtStart) { watcher in
        try Self.store(
          of: chart, context: context, launch: launch,
          options: _StoreOptions(
            started: launch.clock.restarted(), mailbox: mailbox, handler: handler, failure: failure, inspector: watcher,
            forwardsChildEnds: watcher != nil, parentTakesMessages: invoked)
        ) { error in ChildLaunchError(error: error, event: onError(error)) }
      }
    }
  }

  /// What every child of a machine shares, specialised for its store's `engine`: the rules
  /// (`toParent`, `onDone`, `isDone`), and what runs per message, start, stop and snapshot.
  @inlinable
  static func kind<Definition: StoreDefinition, Engine: StoreEngine>(
    _ name: String, engine: Engine.Type, toParent: (@Sendable (StoreStep<Definition>) -> ParentEvent?)?,
    onDone: @escaping @Sendable (Definition.Context) -> ParentEvent?, isDone: (@Sendable (StoreStep<Definition>) -> Bool)?,
    saysParentMessages: Bool = false, stamp: (@Sendable (ParentEvent) -> ParentEvent)? = nil
  ) -> ChildKind<Definition, ParentEvent>
  where Engine.Event == Definition.Event, Definition.Context: Sendable, Definition.Configuration: Sendable {
    typealias Runtime = ChildKind<Definition, ParentEvent>.Runtime
    var parentMessages: (@Sendable (StoreStep<Definition>) -> [ParentEvent])?
    var parentEvent: (@Sendable (MachineMessage.Content) -> ParentEvent?)?
    if saysParentMessages {
      let said: @Sendable (ParentEvent) -> ParentEvent = stamp ?? { $0 }
      parentMessages = { step in step.effects.compactMap { $0.parentMessage(as: ParentEvent.self).map(said) } }
      parentEvent = { content in message(of: content, as: ParentEvent.self).map(said) }
    }
    return ChildKind(
      name: name, toParent: toParent, onDone: onDone, isDone: isDone, parentMessages: parentMessages, parentEvent: parentEvent,
      send: { runtime, message in
        cast(message, to: Definition.Event.self).map { Definition._send($0, to: runtime, _StoreOf<Definition>.self) } ?? .rejected(.wrongType)
      },
      sendContent: { runtime, content in
        message(of: content, as: Definition.Event.self).map { Definition._send($0, to: runtime, _StoreOf<Definition>.self) } ?? .rejected(.wrongType)
      },
      // (A store restored from a snapshot has nothing to start: it enters no state.)
      start: { runtime in unsafeDowncast(runtime, to: StoreRuntime<Engine>.self).start() },
      finishNow: { runtime in unsafeDowncast(runtime, to: StoreRuntime<Engine>.self).finishIfIdle() },
      finish: { runtime in await unsafeDowncast(runtime, to: Runtime.self).finishStore() },
      snapshotOf: { runtime throws(SystemSnapshotError) in
        let value = Definition._snapshot(of: runtime, _StoreOf<Definition>.self)
        guard let json = SystemSnapshotCoding.encode(value) else {
          throw SystemSnapshotError(path: "", reason: "its snapshot (\(type(of: value))) is not Encodable")
        }
        return (json, try unsafeDowncast(runtime, to: Runtime.self).childSnapshots())
      })
  }

  /// What a child runs as: its run, whose store's runtime `makeStore` makes (a
  /// ``StoreDefinition/_makeStore(_:context:options:_:)``'s) with the inspector the run needs
  /// (none when nobody watches), started. (A child's store is its runtime alone: nothing outside
  /// holds it, so it needs no ``Store`` around it.)
  @inlinable
  static func running<Definition: StoreDefinition>(
    _ launch: ChildLaunch<ParentEvent>, kind: ChildKind<Definition, ParentEvent>, inspector: Store<Definition>.Inspector?,
    doneAtStart: (AnyObject) -> Definition.Context?, makeStore: (Store<Definition>.Inspector?) throws -> AnyObject
  ) rethrows -> RunningChild
  where Definition.Context: Sendable, Definition.Configuration: Sendable {
    let run = ChildRun<Definition, ParentEvent>(launch, kind: kind)
    var watcher: Store<Definition>.Inspector?
    if kind.readsSteps || inspector != nil || run.watched {
      watcher = { [weak run] report in
        run?.saw(report)
        // (A descendant's end goes up to the recorder, not to the child's own inspector.)
        if case .childStep(let step) = report, step.ended != nil { return }
        inspector?(report)
      }
    }
    let runtime = try makeStore(watcher)
    run.begin(runtime, doneAtStart: launch.restoring != nil ? nil : doneAtStart(runtime))
    return run
  }

  /// The store (its runtime) of a child of `definition` that `launch` starts, or restores from
  /// its snapshot and its children's. A start that fails throws what `startFailed` makes of the
  /// error; a restore that fails, a ``SystemSnapshotError``.
  @inlinable
  static func store<Definition: StoreDefinition>(
    of definition: Definition, context: Definition.Context, launch: ChildLaunch<ParentEvent>, options: _StoreOptions<Definition>,
    startFailed: (any Error) -> any Error = { $0 }
  ) throws -> AnyObject where Definition.Context: Sendable, Definition.Configuration: Sendable {
    guard let restoring = launch.restoring else {
      do {
        return try Definition._makeStore(definition, context: context, options: options, _StoreOf<Definition>.self)
      } catch {
        throw startFailed(error)
      }
    }
    let snapshot = try SystemSnapshotCoding.decode(Definition.Instance.Snapshot.self, restoring.snapshot.snapshot)
    let runtime: AnyObject
    do {
      runtime = try Definition._restoreStore(definition, restoring: snapshot, options: options, _StoreOf<Definition>.self)
    } catch {
      throw SystemSnapshotError(path: "", reason: "\(error)")
    }
    try unsafeDowncast(runtime, to: ChildKind<Definition, ParentEvent>.Runtime.self)
      .restoreChildren(restoring.snapshot.children, resolve: restoring.resolve)
    return runtime
  }

  /// What replays a table child in a system's log (not inlined: a replay is not a hot path).
  @usableFromInline
  static func replaying<State, Event, Context, Work>(
    _ table: TransitionTable<State, Event, Context, Command<Event, Work>>, context: Context
  ) -> @Sendable () -> any ChildReplaying where Context: Sendable, State: Sendable {
    { TableChildReplay(table, context: context) }
  }

  /// What replays a chart child in a system's log.
  @usableFromInline
  static func replaying<ID, Event, Context, Work>(
    _ chart: Chart<ID, Event, Context, Command<Event, Work>>, context: Context
  ) -> @Sendable () -> any ChildReplaying where Context: Sendable {
    { ChartChildReplay(chart, context: context) }
  }

  public var description: String { name }

  /// Children are told apart by name (a log keeps only the name).
  public static func == (a: ChildMachine, b: ChildMachine) -> Bool { a.name == b.name }

  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
