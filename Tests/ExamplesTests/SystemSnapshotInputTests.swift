import Foundation
import StateMachine
import StateMachineExamples
import Synchronization
import Testing

/// A system's snapshot read back from outside (a file, another process, an older build) is
/// input: a restore either makes the whole tree or throws a ``SystemSnapshotError`` naming the
/// child and what is wrong with it, and then leaves nothing running or unreported.
@Suite("Systems of machines: a snapshot that cannot be restored is refused, and leaves nothing running")
struct SystemSnapshotInputTests {
  typealias Snapshot = SystemSnapshot<ChartSnapshot<UploadQueue.State, UploadQueue.Context>>

  /// Each effect's reports, by id: started, then one of finished, cancelled or failed.
  final class Ends: Sendable {
    let reports = Mutex<[String: [String]]>([:])

    func inspector() -> UploadQueue.Runtime.Inspector {
      { report in
        let (id, what): (String?, String) =
          switch report {
          case .effectStarted(let id, _): (id?.name, "started")
          case .effectFinished(let id, _): (id?.name, "finished")
          case .effectCancelled(let id, _): (id?.name, "cancelled")
          case .effectFailed(let description, _, _): (description.split(separator: " ").last.map(String.init), "failed")
          default: (nil, "")
          }
        if let id { self.reports.withLock { $0[id, default: []].append(what) } }
      }
    }

    /// The ids whose reports are not one start and then one end.
    var unended: [String] {
      reports.withLock { reports in
        reports.filter { _, said in said.count != 2 || said.first != "started" || said.last == "started" }.keys.sorted()
      }
    }
  }

  /// The upload queue 2 s in, as `SystemSnapshotTests` takes it: broken.gif sending, flaky.png
  /// waiting for its retry, both started in `uploading` (the chart's state 2).
  static func snapshot() async throws -> Snapshot {
    let store = await SystemSnapshotTests.midSession(clock: ManualClock())
    let snapshot = try store.systemSnapshot()
    await store.finish()
    return snapshot
  }

  /// `child` with another id, scope or owner.
  static func edited(_ child: ChildSnapshot, id: String? = nil, scope: EffectScope? = nil, owner: Int? = nil) -> ChildSnapshot {
    ChildSnapshot(
      id: id ?? child.id, machine: child.machine, scope: scope ?? child.scope, owner: owner ?? child.owner, snapshot: child.snapshot,
      children: child.children)
  }

  struct Hostile: CustomTestStringConvertible, Sendable {
    let label: String
    let edit: @Sendable (inout Snapshot) -> Void
    /// The path the error names, and a part of its reason.
    let path: String
    let reason: String
    var testDescription: String { label }
  }

  @Test("a snapshot the store could not run as it says is refused, naming the child", arguments: [
    Hostile(
      label: "two children with one id", edit: { $0.children[1] = edited($0.children[1], id: $0.children[0].id) },
      path: "broken.gif", reason: "names it twice"),
    Hostile(
      label: "an id holding a '/'", edit: { $0.children[0] = edited($0.children[0], id: "uploads/broken.gif") },
      path: "uploads/broken.gif", reason: "'/'"),
    Hostile(
      label: "a state-scoped child of a state that is not active", edit: { $0.children[1] = edited($0.children[1], scope: .state, owner: 1) },
      path: "flaky.png", reason: "state 1"),
    Hostile(
      label: "a state-scoped child of no state", edit: { $0.children[0] = edited($0.children[0], scope: .state, owner: 99) },
      path: "broken.gif", reason: "state 99"),
    Hostile(
      label: "children of a halted root", edit: { $0.root.isHalted = true }, path: "broken.gif", reason: "halted"),
  ])
  func refused(_ hostile: Hostile) async throws {
    var snapshot = try await Self.snapshot()
    hostile.edit(&snapshot)
    let ends = Ends()
    let clock = ManualClock()
    let error = #expect(throws: SystemSnapshotError.self) {
      try UploadQueue.Runtime(
        UploadQueue.chart(services: .fake(clock: clock)), restoring: snapshot, children: SystemSnapshotTests.children(.fake(clock: clock)),
        clock: clock, handler: { _, _ in }, inspector: ends.inspector())
    }
    #expect(error?.path == hostile.path)
    #expect(error?.reason.contains(hostile.reason) == true, "\(String(describing: error))")
    // Refused before any child started.
    #expect(ends.reports.withLock { $0.isEmpty })
  }

  @Test("a restore that fails part-way ends every child it had restored: each is reported started and then cancelled")
  func failsPartWay() async throws {
    var snapshot = try await Self.snapshot()
    // The second child's machine is one the resolver does not know.
    let second = snapshot.children[1]
    snapshot.children[1] = ChildSnapshot(
      id: second.id, machine: "download", scope: second.scope, owner: second.owner, snapshot: second.snapshot, children: [])
    let ends = Ends()
    let clock = ManualClock()
    #expect(throws: SystemSnapshotError.self) {
      try UploadQueue.Runtime(
        UploadQueue.chart(services: .fake(clock: clock)), restoring: snapshot, children: SystemSnapshotTests.children(.fake(clock: clock)),
        clock: clock, handler: { _, _ in }, inspector: ends.inspector())
    }
    #expect(ends.reports.withLock { $0["broken.gif"] } == ["started", "cancelled"])
    #expect(ends.unended == [])
  }
}
