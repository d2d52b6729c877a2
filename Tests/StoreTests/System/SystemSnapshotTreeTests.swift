import Foundation
import StateMachine
import Testing

@Suite("Systems of machines: nested snapshots, scopes restored, and what cannot be snapshotted")
struct SystemSnapshotTreeTests {
  typealias Level = SystemLogReplayTests.Level

  /// The three levels' children, made again by machine name.
  static let children: ChildResolver = { child in
    switch child.machine {
    case "group": ChildMachine<String>(try! SystemLogReplayTests.level("group", child: SystemLogReplayTests.job), context: [], onDone: { _ in "jobDone" })
    case "job": SystemLogReplayTests.job
    default: nil
    }
  }

  @Test("a grandchild is in its child's snapshot, and comes back where it was")
  func nested() async throws {
    let store = try Store(try SystemLogReplayTests.system(), context: [], clock: ManualClock(), handler: { _, _ in })
    store.start()
    for message in ["pause", "note"] { #expect(store.send(message, to: "job/job") == .accepted) }
    await store.settle()
    let snapshot = try store.systemSnapshot()
    #expect(snapshot.children.map(\.id) == ["job"])
    #expect(snapshot.children.first?.children.map(\.id) == ["job"])
    #expect(snapshot.children.first?.children.first?.snapshot == #"{"context":["note"],"state":"paused"}"#)
    await store.finish()

    let restored = try Store(try SystemLogReplayTests.system(), restoring: snapshot, children: Self.children, clock: ManualClock(), handler: { _, _ in })
    #expect(restored.children == ["job", "job/job"])
    #expect(try restored.systemSnapshot() == snapshot)
    // It goes on: the grandchild resumes, completes, and its parent and the root end with it.
    for message in ["resume", "complete"] { #expect(restored.send(message, to: "job/job") == .accepted) }
    await restored.settle()
    #expect(restored.isHalted)
    #expect(restored.context == ["jobDone"])
    await restored.finish()
  }

  @Test("a restored state-scoped child is cancelled when its state is left, as it was before")
  func scopeRestored() async throws {
    let ledger = SystemLedger()
    let parent = try SystemMachines.parent(child: SystemMachines.jobChild())
    let store = try Store(parent, context: .init(), clock: ManualClock(), handler: { _, _ in })
    store.start()
    store.send("start")
    // The parent's context is not Codable, but a system snapshot in memory needs only its
    // children's to be.
    let snapshot = try store.systemSnapshot()
    await store.finish()
    let restored = try Store(
      parent, restoring: snapshot, children: { $0.machine == "job" ? SystemMachines.jobChild() : nil }, clock: ManualClock(),
      handler: { _, _ in }, inspector: { ledger.record($0) })
    #expect(restored.children == ["job"])
    restored.send("stop")
    #expect(restored.children.isEmpty)
    #expect(ledger.all == ["start invoke job as job (in state)", "cancelled invoke job as job (in state)"])
    await restored.finish()
  }

  /// A snapshot a restore must refuse, and the path and words its error must have.
  struct Refused: Sendable, CustomTestStringConvertible {
    let label: String
    /// The root's configuration, or `nil`: as it was.
    let root: [String]?
    /// The grandchild's (`job/job`) snapshot JSON, or `nil`: as it was.
    let grandchild: String?
    /// The grandchild's owner (the state of its parent it belongs to), or `nil`: as it was.
    var owner: Int? = nil
    let path: String
    let words: String
    var testDescription: String { label }
  }

  static let refused: [Refused] = [
    Refused(label: "the root in a state its chart has not", root: ["nowhere"], grandchild: nil, path: "", words: "nowhere"),
    Refused(
      label: "a grandchild in a state its table has not", root: nil, grandchild: #"{"context":[],"state":"nowhere"}"#, path: "job/job",
      words: "nowhere"),
    Refused(label: "a grandchild's snapshot that is not JSON", root: nil, grandchild: "{", path: "job/job", words: "its snapshot is not a"),
    Refused(
      label: "a grandchild owned by a state number past 32 bits", root: nil, grandchild: nil, owner: Int(Int32.max) + 1, path: "job/job",
      words: "its owner, 2147483648, is not a state of its parent"),
    Refused(
      label: "a grandchild owned by a negative state number", root: nil, grandchild: nil, owner: -1, path: "job/job",
      words: "its owner, -1, is not a state of its parent"),
  ]

  @Test("a snapshot that is not one of its machine's is refused, naming the machine", arguments: refused)
  func refusedSnapshot(_ refused: Refused) async throws {
    let store = try Store(try SystemLogReplayTests.system(), context: [], clock: ManualClock(), handler: { _, _ in })
    store.start()
    #expect(store.send("pause", to: "job/job") == .accepted)
    await store.settle()
    var snapshot = try store.systemSnapshot()
    await store.finish()
    if let root = refused.root { snapshot.root.configuration = root }
    if refused.grandchild != nil || refused.owner != nil, let child = snapshot.children.first, let grandchild = child.children.first {
      let changed = ChildSnapshot(
        id: grandchild.id, machine: grandchild.machine, scope: grandchild.scope, owner: refused.owner ?? grandchild.owner,
        snapshot: refused.grandchild ?? grandchild.snapshot, children: [])
      snapshot.children = [
        ChildSnapshot(id: child.id, machine: child.machine, scope: child.scope, owner: child.owner, snapshot: child.snapshot, children: [changed])
      ]
    }
    let error = #expect(throws: SystemSnapshotError.self) {
      try Store(try SystemLogReplayTests.system(), restoring: snapshot, children: Self.children, clock: ManualClock(), handler: { _, _ in })
    }
    #expect(error?.path == refused.path)
    #expect(error.map { "\($0)".contains(refused.words) } == true, "\(String(describing: error))")
  }

  @Test("a child whose snapshot is not Encodable is named")
  func notEncodable() async throws {
    // The group's context (ParentContext) is not Codable.
    let group = ChildMachine<String>(try SpawnTests.group(), context: .init(), onDone: { _ in "jobDone" })
    let store = try Store(try SystemLogReplayTests.level("root", child: group), context: [], clock: ManualClock(), handler: { _, _ in })
    store.start()
    #expect(throws: SystemSnapshotError(path: "job", reason: "its snapshot (ChartSnapshot<String, ParentContext>) is not Encodable")) {
      try store.systemSnapshot()
    }
    await store.finish()
  }

  @Test("start() does its work once: a second call starts nothing")
  func startOnce() async throws {
    let ledger = SystemLedger()
    let store = Store(SystemMachines.job, context: [], clock: ManualClock(), handler: { _, _ in }, inspector: { ledger.record($0) })
    store.start()
    store.start()
    #expect(ledger.all == ["start every 1 s: tick (in state)"])
    await store.finish()
  }
}
