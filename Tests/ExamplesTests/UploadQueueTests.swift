import StateMachine
import StateMachineExamples
import StateMachineTesting
import Synchronization
import Testing

@Suite("The upload queue: one child machine per file, two at a time")
struct UploadQueueTests {
  /// Children's steps and the most children running at once, as the queue's inspector saw them.
  final class Watch: Sendable {
    let lines = Mutex<[String]>([])
    func record(_ report: StoreReport<UploadQueue.Event, StoreStep<Chart<UploadQueue.State, UploadQueue.Event, UploadQueue.Context, UploadQueue.Effect>>>) {
      if case .childStep(let step) = report { lines.withLock { $0.append("\(step.path): \(step.event) \(step.from) → \(step.to)") } }
    }
  }

  @Test("every file ends uploaded or failed, at most two upload at once, and a flaky one is retried")
  func queue() async {
    let (clock, watch) = (ManualClock(), Watch())
    let store = UploadQueue.store(services: .fake(clock: clock), clock: clock, inspector: { watch.record($0) })
    store.start()
    store.send(.add(["a.jpg", "flaky.png", "broken.gif", "d.mov"]))
    #expect(store.children == ["a.jpg", "flaky.png"])
    var most = 0
    for second in 1...15 {
      await clock.advance(by: .seconds(1))
      most = max(most, store.children.count)
      if second == 3 { store.send(.add(["e.txt"])) }
    }
    #expect(most == UploadQueue.limit)
    #expect(store.configuration == [.finished])
    #expect(Set(store.context.uploaded) == ["a.jpg", "flaky.png", "d.mov", "e.txt"])
    #expect(store.context.failed == ["broken.gif"])
    #expect(store.children.isEmpty)
    let steps = watch.lines.withLock { $0 }
    #expect(steps.filter { $0.hasPrefix("flaky.png: retryNow") }.count == 1)
    #expect(steps.filter { $0.hasPrefix("broken.gif: retryNow") }.count == Upload.retries)
    #expect(steps.last == "broken.gif: attemptFailed sending → failed")
    await store.finish()
  }

  @Test("a file's upload can be reached by its name while it runs")
  func messageAFile() async {
    let clock = ManualClock()
    let store = UploadQueue.store(services: .fake(clock: clock), clock: clock)
    store.start()
    store.send(.add(["broken.gif"]))
    await clock.advance(by: .seconds(2))
    // Waiting for its backoff: a retry sent by hand starts the next attempt now.
    #expect(store.send(Upload.Event.retryNow, to: "broken.gif") == .accepted)
    #expect(store.send("retry", to: "broken.gif") == .rejected(.wrongType))
    await store.finish()
  }
}

@Suite("README: Systems of machines")
struct ReadmeSystemsTests {
  @Test("the README's child machine runs, spawned by id, and is done when sent")
  func readmeChild() async throws {
    let upload = ChildMachine<UploadQueue.Event>(
        Upload.table, context: Upload.Context(file: "a.jpg"),
        handler: { _, send in send(.succeeded) },
        doneWhen: { $0 == .sent || $0 == .failed },
        onDone: { context in context.sent ? .uploaded(context.file) : .failed(context.file) })
    let effect: UploadQueue.Effect = .invoke(upload, id: "a.jpg", scope: .global)
    let heard = Mutex<[UploadQueue.Event]>([])
    let host = try TransitionTable<String, UploadQueue.Event, Int, UploadQueue.Effect>(
      name: "host", initial: "on",
      rows: [
        .stayInAny(on: .add, effects: effect),
        .stayInAny(on: .uploaded).update { _, event in heard.withLock { $0.append(event) } },
      ], policy: .ignore)
    let store = Store(host, context: 0, clock: ManualClock(), handler: { _, _ in })
    store.send(.add([]))
    await store.settle()
    #expect(heard.withLock { $0 } == [.uploaded("a.jpg")])
    #expect(store.children.isEmpty)
    await store.finish()
  }
}

@Suite("TestStore over a system of machines")
struct SystemTestStoreTests {
  static func queue(_ reportsFailures: Bool = true) -> TestStore<Chart<UploadQueue.State, UploadQueue.Event, UploadQueue.Context, UploadQueue.Effect>> {
    TestStore(reportsFailures: reportsFailures) { clock, inspector in
      UploadQueue.store(services: .fake(clock: clock), clock: clock, inspector: inspector)
    }
  }

  @Test("the queue's steps and its child's, asserted in order; the child's effect ends finished")
  func asserted() async throws {
    let store = Self.queue()
    await store.start()
    let child = UploadQueue.upload("a.jpg", services: .fake(clock: store.clock))
    try await store.send(.add(["a.jpg"]), to: [.uploading], effects: [.invoke(child, id: "a.jpg", scope: .global)]) {
      $0.active = ["a.jpg"]
    }
    await store.advance(by: .seconds(2))
    try await store.receiveChildStep(at: "a.jpg", "succeeded", to: "sent")
    try await store.receive(.uploaded("a.jpg"), to: [.finished]) {
      $0.active = []
      $0.uploaded = ["a.jpg"]
    }
    try await store.finish()
  }

  @Test("exhaustive: a child's step left unasserted fails the test, and a wrong one says what it was")
  func exhaustive() async throws {
    let store = Self.queue(false)
    await store.start()
    let child = UploadQueue.upload("a.jpg", services: .fake(clock: store.clock))
    try await store.send(.add(["a.jpg"]), to: [.uploading], effects: [.invoke(child, id: "a.jpg", scope: .global)]) {
      $0.active = ["a.jpg"]
    }
    await store.advance(by: .seconds(2))
    let wrong = await #expect(throws: TestStoreFailure.self) { try await store.receiveChildStep(at: "a.jpg", "attemptFailed") }
    #expect(wrong?.message == "expected a step of the child a.jpg on attemptFailed, but it stepped on succeeded")
    try await store.receive(.uploaded("a.jpg"), to: [.finished]) {
      $0.active = []
      $0.uploaded = ["a.jpg"]
    }
    try await store.send(.add(["b.png"]), to: [.uploading], effects: [.invoke(child, id: "b.png", scope: .global)]) {
      $0.active = ["b.png"]
    }
    await store.advance(by: .seconds(2))
    try await store.receive(.uploaded("b.png"), to: [.finished]) {
      $0.active = []
      $0.uploaded = ["a.jpg", "b.png"]
    }
    let failure = await #expect(throws: TestStoreFailure.self) { try await store.finish() }
    #expect(failure?.message == "the test ended with 1 child step(s) not asserted: b.png: succeeded")
  }
}
