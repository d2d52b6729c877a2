import Foundation
import StateMachine
import StateMachineExamples
import Testing

@Suite("Systems of machines: a system snapshotted and restored as a tree")
struct SystemSnapshotTests {
  typealias Snapshot = SystemSnapshot<ChartSnapshot<UploadQueue.State, UploadQueue.Context>>

  /// The upload queue 2 s in: a.jpg sent, flaky.png waiting for its retry, broken.gif sending,
  /// d.mov waiting for room.
  static func midSession(clock: ManualClock) async -> UploadQueue.Runtime {
    let store = UploadQueue.store(services: .fake(clock: clock), clock: clock)
    store.start()
    store.send(.add(["a.jpg", "flaky.png", "broken.gif", "d.mov"]))
    await clock.advance(by: .seconds(2))
    await store.settle()
    return store
  }

  /// The resolver the README shows: each upload made again for its file (its id).
  static func children(_ services: UploadServices) -> ChildResolver {
    { child in child.machine == "upload" ? UploadQueue.upload(child.id, services: services) : nil }
  }

  /// The queue restored from `snapshot` on `clock`, its uploads on a fake service of that clock.
  static func restore(_ snapshot: Snapshot, clock: ManualClock) throws -> UploadQueue.Runtime {
    try UploadQueue.Runtime(
      UploadQueue.chart(services: .fake(clock: clock)), restoring: snapshot, children: children(.fake(clock: clock)),
      clock: clock, handler: { _, _ in })
  }

  @Test("a snapshot holds the root and every running child, survives JSON, and restores to the same tree")
  func roundTrip() async throws {
    let clock = ManualClock()
    let store = await Self.midSession(clock: clock)
    let snapshot = try store.systemSnapshot()
    #expect(snapshot.children.map(\.id) == ["broken.gif", "flaky.png"])
    #expect(snapshot.children.allSatisfy { $0.machine == "upload" && $0.scope == .global && $0.children.isEmpty })
    let flaky = try #require(snapshot.children.last)
    #expect(flaky.snapshot.contains(#""state":"waiting""#))
    await store.finish()

    let decoded = try JSONDecoder().decode(Snapshot.self, from: try JSONEncoder().encode(snapshot))
    #expect(decoded == snapshot)
    let restored = try Self.restore(decoded, clock: ManualClock())
    #expect(restored.children == ["broken.gif", "flaky.png"])
    #expect(restored.context == store.context)
    #expect(restored.configuration == store.configuration)
    #expect(try restored.systemSnapshot() == snapshot)
    await restored.finish()
  }

  @Test("a restored child goes on from where it was, and its end reaches the restored parent")
  func goesOn() async throws {
    let store = await Self.midSession(clock: ManualClock())
    let snapshot = try store.systemSnapshot()
    await store.finish()
    let later = ManualClock()
    let restored = try Self.restore(snapshot, clock: later)
    // Its backoff timer did not survive: a message retries it now. (The fake service of this
    // process fails its first try again; the retry after it sends it, 5 s on.)
    #expect(restored.send(Upload.Event.retryNow, to: "flaky.png") == .accepted)
    for _ in 1...5 { await later.advance(by: .seconds(1)) }
    await restored.settle()
    #expect(restored.context.uploaded == ["a.jpg", "flaky.png"])
    #expect(restored.children.contains("d.mov"))
    await restored.finish()
  }

  @Test("the README's snippet saves a system as JSON and makes it again")
  func readmeSnippet() async throws {
    let clock = ManualClock()
    let services = UploadServices.fake(clock: clock)
    let store = await Self.midSession(clock: clock)
    // As the README has it:
    let saved = try JSONEncoder().encode(try store.systemSnapshot())
    let snapshot = try JSONDecoder().decode(SystemSnapshot<ChartSnapshot<UploadQueue.State, UploadQueue.Context>>.self, from: saved)
    let restored = try UploadQueue.Runtime(
      UploadQueue.chart(services: services), restoring: snapshot,
      children: { child in child.machine == "upload" ? UploadQueue.upload(child.id, services: services) : nil },
      clock: clock, handler: { _, _ in })
    #expect(restored.children == store.children)
    #expect(try restored.systemSnapshot() == snapshot)
    await store.finish()
    await restored.finish()
  }

  @Test("a restore names the child it cannot make")
  func unknownMachine() async throws {
    let store = await Self.midSession(clock: ManualClock())
    let snapshot = try store.systemSnapshot()
    await store.finish()
    #expect(throws: SystemSnapshotError.self) {
      try UploadQueue.Runtime(UploadQueue.chart, restoring: snapshot, children: { _ in nil }, clock: ManualClock(), handler: { _, _ in })
    }
    do {
      _ = try UploadQueue.Runtime(UploadQueue.chart, restoring: snapshot, children: { _ in nil }, clock: ManualClock(), handler: { _, _ in })
    } catch {
      #expect(error.path == "broken.gif")
      #expect(error.description.hasPrefix("child broken.gif: no ChildMachine<"))
    }
  }
}
