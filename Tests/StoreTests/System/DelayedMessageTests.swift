import StateMachine
import Testing

/// A message sent after a delay (`MachineMessage(_:to:after:id:)`): a timer on the store's
/// clock until it is due, then delivered; cancellable by its id; ending as every effect does,
/// with exactly one of finished, failed or cancelled.
@Suite("Systems of machines: delayed messages")
struct DelayedMessageTests {
  /// The parent's context is what it heard from the job (`Codable`: its log is recorded).
  typealias Parent = Chart<String, String, [String], Command<String, Never>>

  /// The parent of the system tests, running the job, with delayed messages: `later` pauses
  /// the job in 5 s (id `later`), `never` cancels that, `lostLater` messages a child that does
  /// not exist in 1 s, `finishLater` completes the job in 2 s with no id, `soon` pauses it in
  /// 20 ms.
  static func parent() throws -> Parent {
    try Parent(name: "parent", states: [
      .compound("root", children: [
        .atomic("idle", transitions: [.on("start", to: "running")]),
        .atomic("running", transitions: [
          .on("jobDone", to: "finished"),
          .on("later", do: [.effect(.message(MachineMessage("pause", to: "job", after: .seconds(5), id: "later")))]),
          .on("never", do: [.effect(.cancel("later"))]),
          .on("soon", do: [.effect(.message(MachineMessage("pause", to: "job", after: .milliseconds(20))))]),
          .on("lostLater", do: [.effect(.message(MachineMessage("pause", to: "nobody", after: .seconds(1))))]),
          .on("finishLater", do: [.effect(.message(MachineMessage("complete", to: "job", after: .seconds(2))))]),
        ], onEntry: [.effect(.invoke(SystemMachines.jobChild(), id: "job", scope: .state))]),
        .atomic("finished"),
      ], transitions: [
        .on("jobPaused", do: [.update { heard, event in heard.append(event ?? "") }]),
      ]),
    ])
  }

  /// A store of the parent on a manual clock, its job running, and the ledger of its effects.
  static func running() throws -> (Store<Parent>, ManualClock, SystemLedger) {
    let (clock, ledger) = (ManualClock(), SystemLedger())
    let store = try Store(parent(), context: [], clock: clock, handler: { _, _ in }, inspector: { ledger.record($0) })
    store.start()
    store.send("start")
    return (store, clock, ledger)
  }

  @Test("it is delivered when it is due, not before, and ends finished")
  func deliveredWhenDue() async throws {
    let (store, clock, ledger) = try Self.running()
    store.send("later")
    await clock.advance(by: .seconds(4))
    #expect(store.context.isEmpty, "not due yet")
    #expect(store.runningEffectCount == 2, "the child, and the message waiting")
    await clock.advance(by: .seconds(1))
    await store.settle()
    #expect(store.context == ["jobPaused"])
    #expect(ledger.all == [
      "start invoke job as job (in state)", "start after 5 s: send pause to job", "finished after 5 s: send pause to job",
    ])
    await store.finish()
  }

  @Test("cancelled by its id before it is due, it is never delivered")
  func cancelledByID() async throws {
    let (store, clock, ledger) = try Self.running()
    store.send("later")
    await clock.advance(by: .seconds(3))
    store.send("never")
    await clock.advance(by: .seconds(10))
    await store.settle()
    #expect(store.context.isEmpty)
    #expect(ledger.all == [
      "start invoke job as job (in state)", "start after 5 s: send pause to job", "cancelled after 5 s: send pause to job",
    ])
    await store.finish()
  }

  @Test("a new one with the same id replaces the one waiting: delivered once, when the new one is due")
  func sameIDReplaces() async throws {
    let (store, clock, ledger) = try Self.running()
    store.send("later")
    await clock.advance(by: .seconds(3))
    store.send("later")
    await clock.advance(by: .seconds(4))
    #expect(store.context.isEmpty, "the first was replaced; the second is due at 8 s")
    await clock.advance(by: .seconds(1))
    await store.settle()
    #expect(store.context == ["jobPaused"])
    #expect(ledger.all.filter { $0.contains("pause") } == [
      "start after 5 s: send pause to job", "cancelled after 5 s: send pause to job",
      "start after 5 s: send pause to job", "finished after 5 s: send pause to job",
    ])
    await store.finish()
  }

  @Test("due for a child that does not exist, it fails with the reason")
  func unknownTargetFails() async throws {
    let (store, clock, ledger) = try Self.running()
    store.send("lostLater")
    await clock.advance(by: .seconds(1))
    await store.settle()
    #expect(ledger.all.last?.hasPrefix("failed after 1 s: send pause to nobody: ") == true)
    #expect(ledger.all.filter { $0.contains("nobody") }.count == 2, "started, then failed: one end")
    await store.finish()
  }

  @Test("a message due for the child completes it, and the child's done event moves the parent")
  func dueMessageMovesTheSystem() async throws {
    let (store, clock, ledger) = try Self.running()
    store.send("finishLater")
    await clock.advance(by: .seconds(2))
    await store.settle()
    #expect(store.configuration == ["finished"])
    #expect(ledger.all.contains("finished after 2 s: send complete to job"))
    await store.finish()
  }

  @Test("the store finishing cancels a message still waiting")
  func finishCancels() async throws {
    let (store, clock, ledger) = try Self.running()
    store.send("later")
    await store.finish()
    #expect(ledger.all.contains("cancelled after 5 s: send pause to job"))
    #expect(!ledger.all.contains("finished after 5 s: send pause to job"))
    await clock.advance(by: .seconds(10))
    #expect(store.context.isEmpty)
  }

  // (The wait is for the delivery, however long the tests running beside this one keep every
  // thread busy: 20 ms on an idle machine, over a minute in the whole suite under TSan. A
  // message never delivered fails at the time limit.)
  @Test("on a real clock it is delivered after its delay", .timeLimit(.minutes(10)))
  func realClock() async throws {
    let ledger = SystemLedger()
    let store = try Store(Self.parent(), context: [], handler: { _, _ in }, inspector: { ledger.record($0) })
    store.start()
    store.send("start")
    let sent = ContinuousClock.now
    store.send("soon")
    while store.context.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    #expect(store.context == ["jobPaused"])
    #expect(ContinuousClock.now - sent >= .milliseconds(20))
    #expect(ledger.all.contains("finished after 20 ms: send pause to job"))
    await store.finish()
  }

  @Test("a system's log with a delayed message replays identical: the message, and the child's step when it was due")
  func replays() async throws {
    let clock = ManualClock()
    let store = try Store(Self.parent(), context: [], clock: clock, handler: { _, _ in })
    let recorder = try store.record()
    store.start()
    store.send("start")
    store.send("later")
    await clock.advance(by: .seconds(5))
    await store.settle()
    #expect(store.context == ["jobPaused"])
    await store.finish()
    let log = recorder.log
    // The job's ticks each second, and its pause when the message was due: lines of its own.
    #expect(log.childLines.allSatisfy { $0.path == "job" })
    #expect(log.childLines.filter { $0.text.contains(#""pause""#) }.count == 1)
    let report = try Self.parent().replay(log)
    #expect(report.isIdentical, "\(report)")
  }

  @Test("a synchronous system, where time does not pass, does not deliver it")
  func systemDoesNotDeliver() throws {
    var machine = SystemMachine(MachineSystem(chart: try Self.parent()), context: [])
    try machine.begin()
    _ = try machine.step(.root("start"))
    _ = try machine.step(.root("later"))
    _ = try machine.step(.root("jobDone"))
    #expect(machine.context.isEmpty, "the pause never came")
    #expect(machine.configuration.root == ["finished"])
  }
}
