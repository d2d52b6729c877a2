import Foundation

/// A system's state as a tree: its root store's snapshot and each running child's, with the
/// children's children, as `Store.systemSnapshot()` takes it and a store's
/// `init(_:restoring:children:clock:mailbox:handler:failure:inspector:)` restores it.
///
/// ```swift
/// let saved = try JSONEncoder().encode(try store.systemSnapshot())
/// // later, in a new process:
/// let snapshot = try JSONDecoder().decode(SystemSnapshot<ChartSnapshot<Queue.State, Queue.Context>>.self, from: saved)
/// let store = try Store(queue, restoring: snapshot, children: { child in
///     child.machine == "upload" ? UploadQueue.upload(child.id, services: services) : nil
/// }, clock: clock, handler: handler)
/// ```
///
/// As a store's own snapshot, it says where each machine is, not what was running: effects and
/// timers that ran when it was taken do not restart, in the root or in any child. Take it while
/// the system is settled (after `settle()`): its children are read one after another.
public struct SystemSnapshot<Root: Sendable>: Sendable {
  /// The root store's own snapshot.
  public var root: Root
  /// Its running children, by id.
  public var children: [ChildSnapshot]

  /// A snapshot of a root and its children.
  public init(root: Root, children: [ChildSnapshot]) { (self.root, self.children) = (root, children) }
}

extension SystemSnapshot: Codable where Root: Codable {}
extension SystemSnapshot: Equatable where Root: Equatable {}

/// A running child machine in a ``SystemSnapshot``: what started it (its machine's name, its id
/// and scope, the state of its parent it belongs to), where its store is, and its own children.
public struct ChildSnapshot: Hashable, Sendable, Codable {
  /// Its id in its parent (``Command/invoke(_:id:scope:)``).
  public let id: String
  /// The name of its machine (its table's or chart's): what a restore asks for.
  public let machine: String
  /// Its scope: a state-scoped child is cancelled when the state it belongs to is left.
  public let scope: EffectScope
  /// The state of its parent it belongs to, as the parent's store numbers its states.
  public let owner: Int
  /// Its store's snapshot (a table's state and context, or a chart's configuration, history
  /// and context), as JSON.
  public let snapshot: String
  /// Its running children, by id.
  public let children: [ChildSnapshot]

  /// A child's snapshot, as a system's snapshot holds it.
  public init(id: String, machine: String, scope: EffectScope, owner: Int, snapshot: String, children: [ChildSnapshot]) {
    (self.id, self.machine, self.scope, self.owner) = (id, machine, scope, owner)
    (self.snapshot, self.children) = (snapshot, children)
  }
}

/// Why a system could not be snapshotted or restored, and which machine it is about.
public struct SystemSnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The child's path below the root (`"uploads/a.jpg"`); empty for the root.
  public let path: String
  /// What went wrong.
  public let reason: String

  /// An error about the machine at `path`.
  @usableFromInline package init(path: String, reason: String) { (self.path, self.reason) = (path, reason) }

  /// The same error, one level further down: below the child `id`.
  func below(_ id: String) -> SystemSnapshotError {
    SystemSnapshotError(path: path.isEmpty ? id : "\(id)/\(path)", reason: reason)
  }

  public var description: String { path.isEmpty ? "the root: \(reason)" : "child \(path): \(reason)" }
}

/// Finds the ``ChildMachine`` for a child when a system is restored, by its snapshot's
/// ``ChildSnapshot/machine`` and ``ChildSnapshot/id``: a `ChildMachine<Event>` of its parent's
/// events, made as the parent made it (its handler and what it tells its parent; its state and
/// context come from the snapshot), or `nil` when there is none.
public typealias ChildResolver = @Sendable (_ child: ChildSnapshot) -> Any?

/// Snapshots of children as JSON, whatever their types (see ``AnyJSON``), with the errors a
/// snapshot and a restore name.
@usableFromInline
enum SystemSnapshotCoding {
  /// `value` as JSON text; `nil` when it is not `Encodable`.
  @usableFromInline
  static func encode(_ value: Any) -> String? { AnyJSON.encode(value).map { String(decoding: $0, as: UTF8.self) } }

  /// `json` read as a `T`.
  @usableFromInline
  static func decode<T>(_ type: T.Type, _ json: String) throws(SystemSnapshotError) -> T {
    let value: T?
    do {
      value = try AnyJSON.decode(type, from: Data(json.utf8))
    } catch {
      throw SystemSnapshotError(path: "", reason: "its snapshot is not a \(type): \(error)")
    }
    guard let value else { throw SystemSnapshotError(path: "", reason: "\(type) is not Decodable") }
    return value
  }
}
