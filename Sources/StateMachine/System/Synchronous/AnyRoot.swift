/// What runs on a system's root node (see ``NodeBox``), over its box.
@usableFromInline
final class RootOps<Root: StoreDefinition>: Sendable {
  @usableFromInline let configuration: @Sendable (NodeBoxBase) -> Root.Configuration
  @usableFromInline let context: @Sendable (NodeBoxBase) -> Root.Context
  @usableFromInline let childPlaces: @Sendable (NodeBoxBase) -> [PlacedChild]
  @usableFromInline let start: @Sendable (NodeBoxBase, inout SystemBudget) throws(SystemRunError) -> Void
  @usableFromInline let send: @Sendable (NodeBoxBase, Root.Event, inout SystemBudget) throws(SystemRunError) -> MachineResponse
  @usableFromInline let sendMessage: @Sendable (NodeBoxBase, MachineMessage, inout SystemBudget) throws(SystemRunError) -> MachineResponse

  @inlinable
  init(
    configuration: @escaping @Sendable (NodeBoxBase) -> Root.Configuration, context: @escaping @Sendable (NodeBoxBase) -> Root.Context,
    childPlaces: @escaping @Sendable (NodeBoxBase) -> [PlacedChild],
    start: @escaping @Sendable (NodeBoxBase, inout SystemBudget) throws(SystemRunError) -> Void,
    send: @escaping @Sendable (NodeBoxBase, Root.Event, inout SystemBudget) throws(SystemRunError) -> MachineResponse,
    sendMessage: @escaping @Sendable (NodeBoxBase, MachineMessage, inout SystemBudget) throws(SystemRunError) -> MachineResponse
  ) {
    (self.configuration, self.context, self.childPlaces, self.start) = (configuration, context, childPlaces, start)
    (self.send, self.sendMessage) = (send, sendMessage)
  }
}

/// The root of a system run on the caller's thread: its node's box and what runs on it. A
/// value: a copy steps on its own.
@usableFromInline
struct AnyRoot<Root: StoreDefinition> {
  @usableFromInline var box: NodeBoxBase
  @usableFromInline let ops: RootOps<Root>

  @inlinable
  init(box: NodeBoxBase, ops: RootOps<Root>) { (self.box, self.ops) = (box, ops) }

  @inlinable var configuration: Root.Configuration { ops.configuration(box) }
  @inlinable var context: Root.Context { ops.context(box) }
  /// The running descendants' places with their paths, in no order.
  @inlinable var childPlaces: [PlacedChild] { ops.childPlaces(box) }

  /// Before the root steps (see ``NodeBoxBase/prepareToStep(_:hasPlace:)``).
  @inlinable
  mutating func prepareToStep() { NodeBoxBase.prepareToStep(&box, hasPlace: false) }

  @inlinable
  mutating func start(_ budget: inout SystemBudget) throws(SystemRunError) {
    prepareToStep()
    try ops.start(box, &budget)
  }

  @inlinable
  mutating func send(_ event: Root.Event, _ budget: inout SystemBudget) throws(SystemRunError) -> MachineResponse {
    prepareToStep()
    return try ops.send(box, event, &budget)
  }

  @inlinable
  mutating func send(_ message: MachineMessage, _ budget: inout SystemBudget) throws(SystemRunError) -> MachineResponse {
    prepareToStep()
    return try ops.sendMessage(box, message, &budget)
  }
}

extension MachineNode where ParentEvent == Never, Engine.Observed == Engine.Definition.Configuration {
  /// What runs on a root node of this type, specialised where it is made.
  @inlinable
  static func rootOps() -> RootOps<Engine.Definition> {
    typealias Box = NodeBox<Engine, Never>
    return RootOps(
      configuration: { box in Box.of(box).node.configuration }, context: { box in Box.of(box).node.context },
      childPlaces: { box in Box.of(box).node.childPlaces },
      start: { box, budget throws(SystemRunError) in try Box.of(box).node.start(&budget) },
      send: { box, event, budget throws(SystemRunError) in try Box.of(box).node.send(event, &budget) },
      sendMessage: { box, message, budget throws(SystemRunError) in try Box.of(box).node.send(message, &budget) })
  }

  /// This node as a system's root, run by `ops` (``rootOps()``, made once per system).
  @inlinable
  func root(_ ops: RootOps<Engine.Definition>) -> AnyRoot<Engine.Definition> { AnyRoot(box: NodeBox(self), ops: ops) }
}

/// What a root node does (see ``RootOps``).
extension MachineNode where ParentEvent == Never, Engine.Observed == Engine.Definition.Configuration {
  @inlinable var configuration: Engine.Definition.Configuration { core.engine.observed }
  @inlinable var context: Engine.Definition.Context { core.engine.context }

  @inlinable
  var childPlaces: [PlacedChild] {
    var places: [PlacedChild] = []
    describeChildren(below: "", into: &places)
    return places
  }

  @inlinable
  mutating func start(_ budget: inout SystemBudget) throws(SystemRunError) { _ = try begin(&budget) }

  @inlinable
  mutating func send(_ event: Engine.Event, _ budget: inout SystemBudget) throws(SystemRunError) -> MachineResponse {
    var said = ChildSaid<Never>()
    switch try receive(event, &budget, &said) {
    case .handled(let response): return response
    // A halted chart ignores every event, as its machine does.
    case .refused(.halted): return .ignored
    case .refused(let reason): return .rejected(reason.description)
    }
  }

  @inlinable
  mutating func send(_ message: MachineMessage, _ budget: inout SystemBudget) throws(SystemRunError) -> MachineResponse {
    guard let payload = message.payload else { return .rejected(SendRejection.wrongType.description) }
    try budget.spend()
    // Routed as a child routes a message to its own children (what they say is handled here).
    switch try route(payload, to: Substring(message.target), &budget).result {
    case .accepted: return .handled
    case .rejected(let reason): return .rejected(reason.description)
    }
  }
}
