/// Where a running child is: its configuration and its context, each compared and hashed as
/// itself when its type is a `Hashable` value type, as it reads otherwise (a configuration as
/// `SystemMachine.configuration` shows it: a table's state; a chart's active states, joined by
/// `, `).
///
/// An object, made once each time the child steps and shared by every place of a system that
/// holds the child as it was then (see ``NodeBoxBase/ownPlace``): an explorer compares the
/// places it revisits, and a child that did not step is the same object there. Its hash is
/// worked out once, when it is made. (What it holds is typed: see ``TypedChildPlace``.)
@usableFromInline
class ChildPlace: Hashable {
  @usableFromInline final let digest: Int

  @inlinable
  init(digest: Int) { self.digest = digest }

  /// The configuration as it reads.
  var shownConfiguration: String { preconditionFailure("invalid state: ChildPlace is abstract; TypedChildPlace overrides it") }

  /// The context as it reads.
  var shownContext: String { preconditionFailure("invalid state: ChildPlace is abstract; TypedChildPlace overrides it") }

  /// Whether `other`, a place of the same type, is of the same machine and holds the same
  /// configuration and context.
  @usableFromInline
  func holdsSame(as other: ChildPlace) -> Bool {
    preconditionFailure("invalid state: ChildPlace is abstract; TypedChildPlace overrides it")
  }

  @inlinable
  static func == (a: ChildPlace, b: ChildPlace) -> Bool {
    a === b || (a.digest == b.digest && ObjectIdentifier(type(of: a)) == ObjectIdentifier(type(of: b)) && a.holdsSame(as: b))
  }

  @inlinable
  func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}

/// The place of a child whose machine's configuration is a `Configuration` and whose context is
/// a `Context`, kept as its ``ChildPlaceKind`` says.
///
/// (Typed, not two `AnyHashable`s: boxing both values each time a child stepped, and unboxing
/// them by a dynamic cast at each comparison, was a tenth of what exploring a system cost.)
@usableFromInline
final class TypedChildPlace<Configuration, Context>: ChildPlace {
  @usableFromInline let configuration: Configuration
  @usableFromInline let context: Context
  /// How each value reads, for those kept as they read (`nil` for one kept as itself).
  @usableFromInline let readConfiguration: String?
  @usableFromInline let readContext: String?
  @usableFromInline let kind: ChildPlaceKind<Configuration, Context>

  @inlinable
  init(configuration: Configuration, context: Context, kind: ChildPlaceKind<Configuration, Context>) {
    let readConfiguration = kind.configuration.isRead ? ChildStep.shown(configuration) : nil
    let readContext = kind.context.isRead ? "\(context)" : nil
    var hasher = Hasher()
    kind.configuration.hash(configuration, read: readConfiguration, into: &hasher)
    kind.context.hash(context, read: readContext, into: &hasher)
    (self.configuration, self.context, self.kind) = (configuration, context, kind)
    (self.readConfiguration, self.readContext) = (readConfiguration, readContext)
    super.init(digest: hasher.finalize())
  }

  override var shownConfiguration: String { readConfiguration ?? ChildStep.shown(configuration) }

  override var shownContext: String { readContext ?? "\(context)" }

  @usableFromInline
  override func holdsSame(as other: ChildPlace) -> Bool {
    let other = unsafeDowncast(other, to: TypedChildPlace.self)
    return (kind === other.kind || kind.machine == other.kind.machine)
      && kind.configuration.equal(configuration, readConfiguration, other.configuration, other.readConfiguration)
      && kind.context.equal(context, readContext, other.context, other.readContext)
  }
}

/// How the places of one kind of child keep its configuration and its context (made once per
/// ``ChildMachine``, when its ``ChildNodeOps`` are first asked), and the name of its machine.
///
/// Two places are of one kind of child when their machines' names are the same (as two
/// ``ChildMachine``s are): a machine made anew for each child it starts has a kind of its own
/// each time, and two machines of one type, with the same configuration and context, must not be
/// the same place (what they do next differs).
@usableFromInline
final class ChildPlaceKind<Configuration, Context>: Sendable {
  @usableFromInline let machine: String
  @usableFromInline let configuration: PlaceValueKeeping<Configuration>
  @usableFromInline let context: PlaceValueKeeping<Context>

  @inlinable
  init(machine: String) { (self.machine, configuration, context) = (machine, PlaceValueKeeping(), PlaceValueKeeping()) }
}

/// How a place keeps a value of type `Value`: as itself when `Value` is a `Hashable` value
/// type; as it reads otherwise (an object, an SCXML session, changes in place as its machine
/// steps, and a place must not change once filed).
///
/// Decided once per ``ChildMachine``, when its children's places are first asked: a value's
/// conformance looked up at each step was a dynamic cast per child per step.
@usableFromInline
struct PlaceValueKeeping<Value>: Sendable {
  /// Compares and hashes two values as themselves (`nil`: as they read).
  @usableFromInline let equals: (@Sendable (Value, Value) -> Bool)?
  @usableFromInline let hashes: (@Sendable (Value, inout Hasher) -> Void)?

  @usableFromInline
  init() {
    guard !(Value.self is AnyObject.Type), let hashable = Value.self as? any Hashable.Type else {
      (equals, hashes) = (nil, nil)
      return
    }
    (equals, hashes) = Self.opened(hashable)
  }

  /// The comparison and hash of `Value`, which is `H`.
  static func opened<H: Hashable>(_: H.Type) -> (@Sendable (Value, Value) -> Bool, @Sendable (Value, inout Hasher) -> Void) {
    precondition(Value.self == H.self, "invalid state: PlaceValueKeeping opened \(H.self) for \(Value.self)")
    return (
      { a, b in
        withUnsafePointer(to: a) { a in
          withUnsafePointer(to: b) { b in
            UnsafeRawPointer(a).assumingMemoryBound(to: H.self).pointee == UnsafeRawPointer(b).assumingMemoryBound(to: H.self).pointee
          }
        }
      },
      { value, hasher in
        withUnsafePointer(to: value) { UnsafeRawPointer($0).assumingMemoryBound(to: H.self).pointee.hash(into: &hasher) }
      }
    )
  }

  /// Whether the value is kept as it reads.
  @inlinable var isRead: Bool { equals == nil }

  /// Whether two values are the same as kept (`read`: how each reads, for a value kept so).
  @inlinable
  func equal(_ a: Value, _ readA: String?, _ b: Value, _ readB: String?) -> Bool {
    if let equals { return equals(a, b) }
    return readA == readB
  }

  /// Hashes `value` as kept.
  @inlinable
  func hash(_ value: Value, read: String?, into hasher: inout Hasher) {
    if let hashes { hashes(value, &hasher) } else { hasher.combine(read) }
  }
}

/// A running descendant's place, and its path.
@usableFromInline
struct PlacedChild: Hashable {
  @usableFromInline let path: String
  @usableFromInline let place: ChildPlace

  @inlinable
  init(path: String, place: ChildPlace) { (self.path, self.place) = (path, place) }

  // (Written out, inlinable, as `_SystemPlace.Key`'s.)
  @inlinable
  static func == (a: PlacedChild, b: PlacedChild) -> Bool { a.path == b.path && a.place == b.place }

  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(place)
  }
}
