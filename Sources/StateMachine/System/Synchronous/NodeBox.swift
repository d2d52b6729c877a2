/// A ``MachineNode`` in a box of its own, without its types: what a system holds of its root
/// and of each running child.
///
/// What runs on the node is a set of closures (``ChildNodeOps``, ``RootOps``) made where the
/// machine's types are known (a ``ChildMachine``'s or a ``MachineSystem``'s initializer, which
/// are inlinable), so that the node steps specialised for them. Behind a protocol's witnesses
/// a generic node ran unspecialised, and looking up its generic types at run time was more
/// than half of what a system's step cost.
///
/// The box is shared by copies of a system (a checker keeps one and steps a copy) until one of
/// them steps it: the stepping copy first takes a box of its own (``NodeBoxBase/prepareToStep(_:hasPlace:)``).
@usableFromInline
final class NodeBox<Engine: StoreEngine, ParentEvent: Sendable>: NodeBoxBase
where
  Engine.Step == StoreStep<Engine.Definition>, Engine.Context == Engine.Definition.Context, Engine.Event == Engine.Definition.Event,
  Engine.Definition.Context: Sendable, Engine.Definition.Configuration: Sendable
{
  // (Changed only by the one system value that holds the box uniquely, on its caller's
  // thread, and read otherwise: its accesses need no check at run time.)
  @exclusivity(unchecked) @usableFromInline var node: MachineNode<Engine, ParentEvent>

  @inlinable
  init(_ node: MachineNode<Engine, ParentEvent>) { self.node = node }

  @inlinable
  override func copy() -> NodeBoxBase { NodeBox(node) }

  /// Adds the node's place at `path` (kept, see ``NodeBoxBase/ownPlace``), and its descendants'.
  @inlinable
  func describe(at path: String, kind: ChildPlaceKind<Engine.Observed, Engine.Context>, into places: inout [PlacedChild]) {
    if ownPlace == nil { ownPlace = node.ownPlace(kind) }
    places.append(PlacedChild(path: path, place: ownPlace!))
    node.describeChildren(below: path, into: &places)
  }

  /// `box`, known to be one of these.
  @inlinable
  static func of(_ box: NodeBoxBase) -> NodeBox { unsafeDowncast(box, to: NodeBox.self) }
}

/// A ``NodeBox`` of any types. (A class of the package's, not `AnyObject`: whether a box is
/// uniquely held is asked of it before every step, and `isKnownUniquelyReferenced` of an
/// `AnyObject` answered `false` for a box held once, in a debug build, so every step copied
/// its node.)
@usableFromInline
class NodeBoxBase {
  /// The node's own place as it reads (its configuration and context), worked out when first
  /// asked and kept until the node steps (see ``prepareToStep(_:hasPlace:)``): describing a context, by
  /// reflection, was most of what exploring a system cost. (A root's is never asked.)
  ///
  /// (Written when first read, so on a box that copies of a system may share; they are values
  /// of a type that is not `Sendable`, so they are all in one isolation domain, and never
  /// read it at the same time.)
  @exclusivity(unchecked) @usableFromInline final var ownPlace: ChildPlace?

  @inlinable
  init() {}

  /// A box of its own holding a copy of the node.
  @inlinable
  func copy() -> NodeBoxBase { preconditionFailure("invalid state: NodeBoxBase is abstract; NodeBox overrides copy()") }

  /// `box`'s node is about to step: when a copy of the system shares the box, the stepping
  /// copy takes a box of its own (with no place kept); else the place kept for the node, if it
  /// `hasPlace` (a child's: a root's is never asked), is forgotten.
  @inlinable
  static func prepareToStep(_ box: inout NodeBoxBase, hasPlace: Bool) {
    if !isKnownUniquelyReferenced(&box) {
      box = box.copy()
    } else if hasPlace {
      box.ownPlace = nil
    }
  }
}
