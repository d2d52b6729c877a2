/// A system of machines (a root table or chart and the children its effects start with
/// ``Command/invoke(_:id:scope:)``) as a third kind of ``MachineDefinition``, beside a table
/// and a chart: the checking tools (`PropertyCheck`, `Explorer`) run it as they run the others.
///
/// ```swift
/// let system = MachineSystem(chart: UploadQueue.chart(services: services))
/// try PropertyCheck(system, context: UploadQueue.Context(), alphabet: [
///     .root(.add("a.jpg")), .root(.add("b.jpg")),
///     .message(Upload.Event.progress(100), to: "a.jpg"), .message(Upload.Event.failed, to: "b.jpg"),
/// ])
/// .invariant("at most 2 uploads") { system, _ in system.children.count <= 2 }
/// .run(seed: 1)
/// ```
///
/// It runs as a ``Store`` would run it, by the same rules (the store's own), on the caller's
/// thread and as a value: a child starts when its effect starts and ends when its scope ends
/// or it is done; its `toParent` and done events, and messages between machines, are handled
/// before an input returns. Two things differ, as in every check: no work is performed and no
/// time passes (timers never fire), so what they would send comes as input; and each input
/// is bounded (``MachineSystem/maxStepsPerInput``), so machines messaging each other forever
/// end with ``SystemRunError/tooManyEvents(limit:input:)``.
public struct MachineSystem<Root: StoreDefinition>: MachineDefinition where Root.Context: Sendable {
  /// An event for the root, or a message for a child (``SystemEvent``).
  public typealias Event = SystemEvent<Root.Event>
  /// The root's context.
  public typealias Context = Root.Context
  /// The root's effects.
  public typealias Effect = Root.Effect
  /// A running system.
  public typealias Instance = SystemMachine<Root>

  /// The root machine.
  public let root: Root
  /// The most steps one input may cause in all the system's machines after its own (10,000
  /// unless set).
  public var maxStepsPerInput = 10_000
  /// Makes the root, not started.
  @usableFromInline let makeRoot: @Sendable (Root.Context) throws(SystemRunError) -> AnyRoot<Root>

  @usableFromInline
  init(root: Root, makeRoot: @escaping @Sendable (Root.Context) throws(SystemRunError) -> AnyRoot<Root>) {
    (self.root, self.makeRoot) = (root, makeRoot)
  }

  /// The system of `table` and the children its effects start.
  ///
  /// (Inlinable: the system steps specialised for your types where you make it.)
  @inlinable
  public init<State, E, C, Work>(table: TransitionTable<State, E, C, Command<E, Work>>)
  where Root == TransitionTable<State, E, C, Command<E, Work>>, C: Sendable, State: Sendable {
    typealias Node = MachineNode<TableEngine<Root>, Never>
    let ops = Node.rootOps()
    self.init(root: table) { context in Node(engine: TableEngine(machine: Machine(table, context: context)), kind: nil).root(ops) }
  }

  /// The system of `chart` and the children its effects start.
  ///
  /// (Inlinable, as the table's.)
  @inlinable
  public init<ID, E, C, Work>(chart: Chart<ID, E, C, Command<E, Work>>) where Root == Chart<ID, E, C, Command<E, Work>>, C: Sendable {
    typealias Node = MachineNode<ChartEngine<Root>, Never>
    let ops = Node.rootOps()
    self.init(root: chart) { context throws(SystemRunError) in
      do {
        return Node(engine: try ChartEngine(chart, context: context), kind: nil).root(ops)
      } catch {
        throw .start(error: "\(error)")
      }
    }
  }

  /// The root's name.
  public var name: String { root.name }

  /// The root's dead ends (its children aside).
  public func _deadEndTest() -> @Sendable (SystemConfiguration<Root.Configuration>) -> Bool {
    let root = root._deadEndTest()
    return { root($0.root) }
  }
}

/// A running ``MachineSystem``: its root machine and running children, stepped on the
/// caller's thread. A value: a copy steps on its own.
public struct SystemMachine<Root: StoreDefinition>: MachineInstance where Root.Context: Sendable {
  @usableFromInline var root: AnyRoot<Root>?
  @usableFromInline var failedStart: SystemRunError?
  @usableFromInline let limit: Int
  @usableFromInline var begun = false
  /// See ``undeliveredMessage``.
  @usableFromInline var undelivered: String?

  /// The first message a machine of the system sent in the last step (or the start) that no
  /// child took, and why: `send tick to c: no running child machine has that id`; `nil` when
  /// every message sent reached a running child that takes it. Such a message goes no further,
  /// as in a store (which reports it failed to its inspector); the checkers report it when
  /// asked to (`StepCheck.messagesDelivered`). A message sent as the input itself (a
  /// ``SystemEvent/message(_:to:)``) that no child takes is the step's rejection instead.
  public var undeliveredMessage: String? { undelivered }
  @inlinable public var _undeliveredMessage: String? { undelivered }

  /// A system of `definition` at its start, its root with `context`; call ``begin()``.
  public init(_ definition: MachineSystem<Root>, context: Root.Context) {
    limit = definition.maxStepsPerInput
    do {
      // (A context held by reference, a session, as a copy: each system made of it, each of a
      // checker's walks, starts from it as it is now.)
      root = try definition.makeRoot(keptContext(context))
    } catch {
      failedStart = error
    }
  }

  /// Starts the root: its start's effects, the children they start, and what those say.
  ///
  /// - Throws: ``SystemRunError`` when the root (a chart) cannot start, or the start causes
  ///   more steps than the bound.
  @inlinable
  public mutating func begin() throws(SystemRunError) { try begin(logging: nil) }

  /// ``begin()``, recording each machine's step in `log` (see ``SystemLog``).
  @inlinable
  package mutating func begin(logging log: SystemLog?) throws(SystemRunError) {
    if let failedStart { throw failedStart }
    guard !begun else { return }
    begun = true
    var budget = SystemBudget(limit: limit, input: "(start)", log: log)
    try root!.start(&budget)
    undelivered = budget.undelivered
  }

  /// Handles `event`: the root's event with everything it causes in the system, or a message
  /// delivered to the child at its path. A message to no running child (or of a type the child
  /// does not take) is rejected.
  ///
  /// - Throws: ``SystemRunError`` when a chart's macrostep does not settle, or the input
  ///   causes more steps than ``MachineSystem/maxStepsPerInput``.
  ///
  /// (Inlinable: a checker steps it specialised for your types; unspecialised, each step looked
  /// up the system's generic types at run time.)
  @inlinable
  public mutating func step(_ event: SystemEvent<Root.Event>) throws(SystemRunError) -> MachineResponse {
    try stepNotingChange(event).response
  }

  /// ``step(_:)``, and whether the step may have changed the system: `false` when every
  /// machine's step was one that nothing took, and left its machine as it was (see
  /// ``SystemBudget/changed``).
  @inlinable
  mutating func stepNotingChange(_ event: SystemEvent<Root.Event>, logging log: SystemLog? = nil) throws(SystemRunError)
    -> (response: MachineResponse, changed: Bool)
  {
    guard root != nil else { preconditionFailure("invalid state: a system whose start failed is stepped") }
    var budget = SystemBudget(limit: limit, input: event, log: log)
    let response: MachineResponse
    switch event.kind {
    case .root(let event): response = try root!.send(event, &budget)
    case .message(let message): response = try root!.send(message, &budget)
    }
    // (Written only when there is one to write or forget: most steps have neither.)
    if budget.undelivered != nil || undelivered != nil { undelivered = budget.undelivered }
    return (response, budget.changed)
  }

  /// ``step(_:)``, recording each machine's step in `log`, in the order they were taken (see
  /// ``SystemLog``).
  @inlinable
  package mutating func step(_ event: SystemEvent<Root.Event>, logging log: SystemLog) throws(SystemRunError) -> MachineResponse {
    try stepNotingChange(event, logging: log).response
  }

  /// The root's configuration alone (not its children's, which take describing).
  @inlinable
  var rootConfiguration: Root.Configuration {
    guard let root else { preconditionFailure("invalid state: a system whose start failed has no configuration") }
    return root.configuration
  }

  /// The root's configuration and each running child's.
  public var configuration: SystemConfiguration<Root.Configuration> {
    guard let root else { preconditionFailure("invalid state: a system whose start failed has no configuration") }
    let children = root.childPlaces.map { ($0.path, $0.place.shownConfiguration) }
    return SystemConfiguration(root: root.configuration, children: Dictionary(uniqueKeysWithValues: children))
  }

  /// The root's context.
  public var context: Root.Context {
    guard let root else { preconditionFailure("invalid state: a system whose start failed has no context") }
    return root.context
  }

  /// The system itself, as a value to keep (a system is kept and restored as itself, and
  /// always restores).
  public var snapshot: SystemMachine { self }
  /// The system `snapshot` kept.
  public init(_ definition: MachineSystem<Root>, restoring snapshot: SystemMachine) { self = snapshot }
}

/// An input to a ``MachineSystem``: an event for the root, or a message for a child at a path
/// (`"a.jpg"`, `"queue/a.jpg"`), one of that child's events.
public struct SystemEvent<RootEvent: Sendable>: Sendable, CustomStringConvertible {
  @usableFromInline
  enum Kind: Sendable {
    case root(RootEvent)
    case message(MachineMessage)
  }

  @usableFromInline let kind: Kind

  @inlinable
  init(_ kind: Kind) { self.kind = kind }

  /// `event`, for the root machine.
  @inlinable
  public static func root(_ event: RootEvent) -> SystemEvent { SystemEvent(.root(event)) }

  /// `message` (one of its events) for the child at `path`.
  @inlinable
  public static func message<Message: Sendable>(_ message: Message, to path: String) -> SystemEvent {
    SystemEvent(.message(MachineMessage(message, to: path)))
  }

  /// The root's event as it reads, or `message to path`.
  public var description: String {
    switch kind {
    case .root(let event): "\(event)"
    case .message(let message): message.description
    }
  }
}

/// Where a ``MachineSystem`` is: the root's configuration and each running child's, as it
/// reads (a table's state; a chart's active states, joined by `, `), by path.
public struct SystemConfiguration<Root>: CustomStringConvertible {
  /// The root's configuration.
  public let root: Root
  /// The running children's configurations, by path (a child's children below it: `a/b`).
  public let children: [String: String]

  @inlinable
  init(root: Root, children: [String: String]) { (self.root, self.children) = (root, children) }

  /// `root`, then each child as `path: configuration` in path order.
  public var description: String {
    let root = ChildStep.shown(self.root)
    guard !children.isEmpty else { return root }
    return root + " [" + children.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ") + "]"
  }
}

extension SystemConfiguration: Equatable where Root: Equatable {}
extension SystemConfiguration: Hashable where Root: Hashable {}
extension SystemConfiguration: Sendable where Root: Sendable {}

/// Why a ``SystemMachine`` input was stopped. A struct with static members: a later release may
/// add reasons without breaking a `switch`.
public struct SystemRunError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, as it reads.
  public let description: String

  @usableFromInline
  init(_ description: String) { self.description = description }

  /// One input caused more than `limit` steps in the system's machines after its own (machines
  /// that keep messaging each other, or a child that keeps saying something its parent answers).
  public static func tooManyEvents(limit: Int, input: String) -> SystemRunError {
    SystemRunError("the input '\(input)' caused more than \(limit) steps in the system's machines (a loop between machines?)")
  }

  /// A chart's macrostep did not settle (see ``ChartRunError``).
  public static func step(event: String, error: String) -> SystemRunError { SystemRunError("the step of '\(event)' did not settle: \(error)") }

  /// The root chart could not start.
  public static func start(error: String) -> SystemRunError { SystemRunError("the root could not start: \(error)") }
}

extension SystemMachine where Root.Configuration: Hashable {
  /// Where the system is, as text that two systems share only when they are in the same place:
  /// the root's configuration, and each running child's path, configuration and context, in
  /// path order (the root's context is the caller's to add).
  package var placeDescription: String {
    // (The explorer's key of the place, as text: the same places are the same text.)
    let key = _SystemPlace.Key(self)
    return ([ChildStep.shown(key.root)] + key.children.map { "\($0.path): \($0.place.shownConfiguration) \($0.place.shownContext)" })
      .joined(separator: "\n")
  }
}
