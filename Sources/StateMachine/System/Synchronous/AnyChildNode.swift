/// What runs on a child node of one machine (see ``NodeBox``), over its box.
@usableFromInline
final class ChildNodeOps<ParentEvent>: Sendable {
  @usableFromInline typealias Said = (result: SendResult, said: ChildSaid<ParentEvent>)

  @usableFromInline let start: @Sendable (NodeBoxBase, inout SystemBudget) throws(SystemRunError) -> ChildSaid<ParentEvent>
  @usableFromInline let deliver: @Sendable (NodeBoxBase, any Sendable, inout SystemBudget) throws(SystemRunError) -> Said
  @usableFromInline let route: @Sendable (NodeBoxBase, any Sendable, Substring, inout SystemBudget) throws(SystemRunError) -> Said
  @usableFromInline let describe: @Sendable (ChildNodeOps, NodeBoxBase, String, inout [PlacedChild]) -> Void
  /// The machine's name (see ``ChildPlaceKind``).
  @usableFromInline let machine: String
  /// How its children's places keep their values (a ``ChildPlaceKind``), made when first asked:
  /// a store makes a ``ChildMachine`` for each child it starts (as the upload queue does), and
  /// made with it, looking up its types' conformances, it was an eighth of a child's start.
  @usableFromInline let placeKinds = OnceReference<AnyObject>()

  @inlinable
  init(
    machine: String,
    start: @escaping @Sendable (NodeBoxBase, inout SystemBudget) throws(SystemRunError) -> ChildSaid<ParentEvent>,
    deliver: @escaping @Sendable (NodeBoxBase, any Sendable, inout SystemBudget) throws(SystemRunError) -> Said,
    route: @escaping @Sendable (NodeBoxBase, any Sendable, Substring, inout SystemBudget) throws(SystemRunError) -> Said,
    describe: @escaping @Sendable (ChildNodeOps, NodeBoxBase, String, inout [PlacedChild]) -> Void
  ) {
    (self.machine, self.start, self.deliver, self.route, self.describe) = (machine, start, deliver, route, describe)
  }

  /// The kind of the places of this machine's children, whose configuration is a
  /// `Configuration` and whose context a `Context` (always the same two for one machine).
  @inlinable
  func placeKind<Configuration, Context>(_: ChildPlaceKind<Configuration, Context>.Type) -> ChildPlaceKind<Configuration, Context> {
    let kind = placeKinds.load() ?? placeKinds.storeIfNil(ChildPlaceKind<Configuration, Context>(machine: machine))
    return unsafeDowncast(kind, to: ChildPlaceKind<Configuration, Context>.self)
  }
}

/// A running child of a system run on the caller's thread: its node's box and what runs on it.
/// A value: a copy steps on its own.
@usableFromInline
struct AnyChildNode<ParentEvent> {
  @usableFromInline var box: NodeBoxBase
  @usableFromInline let ops: ChildNodeOps<ParentEvent>

  @inlinable
  init(box: NodeBoxBase, ops: ChildNodeOps<ParentEvent>) { (self.box, self.ops) = (box, ops) }

  /// Before the child steps (see ``NodeBoxBase/prepareToStep(_:hasPlace:)``).
  @inlinable
  mutating func prepareToStep() { NodeBoxBase.prepareToStep(&box, hasPlace: true) }

  /// Starts the child (see ``MachineNode/begin(_:)``).
  @inlinable
  mutating func start(_ budget: inout SystemBudget) throws(SystemRunError) -> ChildSaid<ParentEvent> {
    prepareToStep()
    return try ops.start(box, &budget)
  }

  /// Sends `message` to the child's machine (refused as ``SendRejection/wrongType`` when it is
  /// not one of its events).
  @inlinable
  mutating func deliver(_ message: any Sendable, _ budget: inout SystemBudget) throws(SystemRunError) -> ChildNodeOps<ParentEvent>.Said {
    prepareToStep()
    return try ops.deliver(box, message, &budget)
  }

  /// Sends `message` to the child's descendant at `path`.
  @inlinable
  mutating func route(_ message: any Sendable, to path: Substring, _ budget: inout SystemBudget) throws(SystemRunError)
    -> ChildNodeOps<ParentEvent>.Said
  {
    prepareToStep()
    return try ops.route(box, message, path, &budget)
  }

  /// Adds the child's place at `path`, and its descendants'.
  @inlinable
  func describe(at path: String, into places: inout [PlacedChild]) { ops.describe(ops, box, path, &places) }

  /// The child, raising `raised` for its parent as it starts, ahead of the parent's queue and of
  /// what its start says (see
  /// ``ChildMachine/init(named:madeAtStart:)``). (Its ops are made anew only when there is
  /// something to say: an invocation whose evaluation failed in part.)
  func saying(_ raised: [ParentEvent]) -> AnyChildNode where ParentEvent: Sendable {
    guard !raised.isEmpty else { return self }
    let ops = self.ops
    let start: @Sendable (NodeBoxBase, inout SystemBudget) throws(SystemRunError) -> ChildSaid<ParentEvent> = { box, budget throws(SystemRunError) in
      var said = try ops.start(box, &budget)
      said.events.insert(contentsOf: raised, at: 0)
      said.raised += raised.count
      return said
    }
    return AnyChildNode(
      box: box, ops: ChildNodeOps(machine: ops.machine, start: start, deliver: ops.deliver, route: ops.route, describe: ops.describe))
  }
}

extension MachineNode {
  /// What runs on a child node of this type, specialised where it is made; `machine` is its
  /// machine's name (see ``ChildPlaceKind``).
  @inlinable
  static func childOps(machine: String) -> ChildNodeOps<ParentEvent> {
    typealias Box = NodeBox<Engine, ParentEvent>
    return ChildNodeOps(
      machine: machine,
      start: { box, budget throws(SystemRunError) in try Box.of(box).node.begin(&budget) },
      deliver: { box, message, budget throws(SystemRunError) in try Box.of(box).node.deliver(message, &budget) },
      route: { box, message, path, budget throws(SystemRunError) in try Box.of(box).node.route(message, to: path, &budget) },
      describe: { ops, box, path, places in
        Box.of(box).describe(at: path, kind: ops.placeKind(ChildPlaceKind<Engine.Observed, Engine.Context>.self), into: &places)
      })
  }

  /// This node as a child, run by `ops` (``childOps(machine:)``, made once per machine).
  @inlinable
  func erased(_ ops: ChildNodeOps<ParentEvent>) -> AnyChildNode<ParentEvent> { AnyChildNode(box: NodeBox(self), ops: ops) }
}
