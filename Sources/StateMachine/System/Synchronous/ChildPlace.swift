/// Where a running child is: its configuration and its context, each itself when it is a
/// `Hashable` value, as it reads otherwise (a configuration as `SystemMachine.configuration`
/// shows it: a table's state; a chart's active states, joined by `, `).
///
/// An object, made once each time the child steps and shared by every place of a system that
/// holds the child as it was then (see ``NodeBoxBase/ownPlace``): an explorer compares the
/// places it revisits, and a child that did not step is the same object there. Its hash is
/// worked out once, when it is made.
@usableFromInline
final class ChildPlace: Hashable {
  /// The configuration itself when it is `Hashable`, else as it reads.
  @usableFromInline let configuration: AnyHashable
  @usableFromInline let context: AnyHashable
  @usableFromInline let digest: Int

  /// The configuration as it reads.
  var shownConfiguration: String { ChildStep.shown(configuration.base) }

  /// The context as it reads.
  var shownContext: String { "\(context.base)" }

  /// `value` itself when it is a `Hashable` value; else as `reading` reads it: one that is an
  /// object (an SCXML session) changes in place as its machine steps, and a place must not
  /// change once filed.
  @inlinable
  static func kept<Value>(_ value: Value, reading: () -> String) -> AnyHashable {
    if !(type(of: value) is AnyObject.Type), let hashable = value as? any Hashable { return AnyHashable(hashable) }
    return AnyHashable(reading())
  }

  @inlinable
  init(configuration: AnyHashable, context: AnyHashable) {
    (self.configuration, self.context) = (configuration, context)
    var hasher = Hasher()
    hasher.combine(configuration)
    hasher.combine(context)
    digest = hasher.finalize()
  }

  @inlinable
  static func == (a: ChildPlace, b: ChildPlace) -> Bool {
    a === b || (a.digest == b.digest && a.configuration == b.configuration && a.context == b.context)
  }

  @inlinable
  func hash(into hasher: inout Hasher) { hasher.combine(digest) }
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
