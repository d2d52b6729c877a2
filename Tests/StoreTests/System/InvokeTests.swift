import Foundation
import StateMachine
import Testing

@Suite("Systems of machines: invoke, messages, and each child's one end")
struct InvokeTests {
  typealias Parent = SystemMachines.Parent

  static func store(
    _ chart: Parent, clock: ManualClock, ledger: SystemLedger
  ) throws -> Store<Parent> {
    try Store(chart, context: .init(), clock: clock, handler: { _, _ in }, inspector: { ledger.record($0) })
  }

  @Test("a state's child starts when the state is entered, and its done event moves the parent")
  func invokeAndDone() async throws {
    let (clock, ledger) = (ManualClock(), SystemLedger())
    let store = try Self.store(SystemMachines.parent(child: SystemMachines.jobChild()), clock: clock, ledger: ledger)
    store.start()
    #expect(store.children.isEmpty)
    store.send("start")
    #expect(store.children == ["job"])
    #expect(store.send("complete", to: "job") == .accepted)
    await store.settle()
    #expect(store.configuration == ["finished"])
    #expect(store.children.isEmpty)
    #expect(ledger.all == ["start invoke job as job (in state)", "finished invoke job as job (in state)"])
    await store.finish()
  }

  @Test("leaving the state cancels the child: its store finishes, and its own effects end with it")
  func exitCancels() async throws {
    let (clock, ledger, childLedger) = (ManualClock(), SystemLedger(), SystemLedger())
    let child = SystemMachines.jobChild(inspector: { childLedger.record($0) })
    let store = try Self.store(SystemMachines.parent(child: child), clock: clock, ledger: ledger)
    store.start()
    store.send("start")
    await clock.advance(by: .seconds(2))
    store.send("stop")
    #expect(store.configuration == ["idle"])
    #expect(store.children.isEmpty)
    #expect(store.send("note", to: "job") == .rejected(.unknownTarget))
    await store.settle()
    #expect(ledger.all == ["start invoke job as job (in state)", "cancelled invoke job as job (in state)"])
    #expect(childLedger.all == ["start every 1 s: tick (in state)", "cancelled every 1 s: tick (in state)"])
    await store.finish()
  }

  @Test("a message goes to the child running under its id now: none once it stopped, the new one once it started again")
  func messagesFollowTheRunningChild() async throws {
    let (clock, ledger) = (ManualClock(), SystemLedger())
    let store = try Self.store(SystemMachines.parent(child: SystemMachines.jobChild()), clock: clock, ledger: ledger)
    store.start()
    store.send("start")
    #expect(store.send("pause", to: "job") == .accepted)
    store.send("stop")
    #expect(store.send("pause", to: "job") == .rejected(.unknownTarget), "the stopped child is not found by the id it had")
    store.send("start")
    #expect(store.send("pause", to: "job") == .accepted)
    await store.settle()
    #expect(store.context.heard == ["jobPaused", "jobPaused"], "both children, the first and the new one, heard their message")
    await store.finish()
  }

  @Test("a child's steps reach its parent through toParent, in order")
  func toParent() async throws {
    let (clock, ledger) = (ManualClock(), SystemLedger())
    let store = try Self.store(SystemMachines.parent(child: SystemMachines.jobChild()), clock: clock, ledger: ledger)
    store.start()
    store.send("start")
    for message in ["pause", "resume", "pause"] { #expect(store.send(message, to: "job") == .accepted) }
    await store.settle()
    #expect(store.context.heard == ["jobPaused", "jobPaused"])
    await store.finish()
  }

  @Test("a machine messages its child with a command, reported finished; to a missing child, failed")
  func messageCommand() async throws {
    let (clock, ledger) = (ManualClock(), SystemLedger())
    let store = try Self.store(SystemMachines.parent(child: SystemMachines.jobChild()), clock: clock, ledger: ledger)
    store.start()
    store.send("start")
    store.send("poke")
    store.send("lost")
    await store.settle()
    #expect(store.context.heard == ["jobPaused"])
    #expect(ledger.all == [
      "start invoke job as job (in state)",
      "start send pause to job", "finished send pause to job",
      "start send pause to nobody", "failed send pause to nobody: \(SendRejection.unknownTarget)",
    ])
    await store.finish()
  }

  struct Refusal: CustomTestStringConvertible, Sendable {
    let label: String
    let path: String
    let message: any Sendable
    let expected: SendResult
    var testDescription: String { label }
  }

  /// Messages to the parent's child `job`, and what becomes of each.
  static let refusalCases: [Refusal] = [
    Refusal(label: "unknown id", path: "nobody", message: "pause", expected: .rejected(.unknownTarget)),
    Refusal(label: "path below a table", path: "job/deeper", message: "pause", expected: .rejected(.unknownTarget)),
    Refusal(label: "wrong type", path: "job", message: 42, expected: .rejected(.wrongType)),
    Refusal(label: "empty path", path: "", message: "pause", expected: .rejected(.unknownTarget)),
    Refusal(label: "accepted", path: "job", message: "note", expected: .accepted),
  ]

  @Test("a message is refused with a typed reason", arguments: refusalCases)
  func refusals(_ refusal: Refusal) async throws {
    let store = try Self.store(SystemMachines.parent(child: SystemMachines.jobChild()), clock: ManualClock(), ledger: SystemLedger())
    store.start()
    store.send("start")
    #expect(store.send(refusal.message, to: refusal.path) == refusal.expected)
    await store.finish()
  }

  @Test("a message from the parent's own step is refused with the same typed reason, or delivered", arguments: refusalCases)
  func refusalsFromTheStep(_ refusal: Refusal) async throws {
    let ledger = SystemLedger()
    let poke = MachineMessage(refusal.message, to: refusal.path)
    let store = try Self.store(SystemMachines.parent(child: SystemMachines.jobChild(), poke: poke), clock: ManualClock(), ledger: ledger)
    store.start()
    store.send("start")
    // Twice: the first looks the child up, the second may find it as the child last messaged.
    store.send("poke")
    store.send("poke")
    await store.settle()
    let ends = ledger.all.filter { $0.hasPrefix("finished send") || $0.hasPrefix("failed send") }
    switch refusal.expected {
    case .accepted: #expect(ends == Array(repeating: "finished send \(poke)", count: 2))
    case .rejected(let reason): #expect(ends == Array(repeating: "failed send \(poke): \(reason)", count: 2))
    }
    await store.finish()
  }

  /// A message read back from a log: its text, nothing to deliver.
  static let logged: MachineMessage = {
    let json = #"{"message":{"message":"note","to":"job"}}"#
    guard case .message(let message)? = try? JSONDecoder().decode(Command<String, Never>.self, from: Data(json.utf8)) else {
      preconditionFailure("invalid state: a logged message decodes")
    }
    return message
  }()

  struct Made: CustomTestStringConvertible, Sendable {
    let label: String
    let message: MachineMessage
    let end: String
    var testDescription: String { label }
  }

  @Test("a machine's message reaches its child when it is one of the child's events, whatever type it was made as", arguments: [
    Made(label: "the child's event", message: MachineMessage("note", to: "job"), end: "finished send note to job"),
    Made(label: "made as any Sendable", message: MachineMessage("note" as any Sendable, to: "job"), end: "finished send note to job"),
    Made(label: "made as an optional", message: MachineMessage(Optional("note"), to: "job"), end: #"finished send Optional("note") to job"#),
    Made(label: "another type", message: MachineMessage(42, to: "job"), end: "failed send 42 to job: \(SendRejection.wrongType)"),
    Made(label: "read back from a log", message: Self.logged, end: "failed send note to job: \(SendRejection.wrongType)"),
  ])
  func madeAs(_ made: Made) async throws {
    // (Each is the one command of its step: the path a message from a machine takes.)
    let ledger = SystemLedger()
    let store = try Self.store(SystemMachines.parent(child: SystemMachines.jobChild(), poke: made.message), clock: ManualClock(), ledger: ledger)
    store.start()
    store.send("start")
    store.send("poke")
    await store.settle()
    #expect(ledger.all.last == made.end)
    await store.finish()
  }

  @Test("finishing the parent cancels its children and waits for their stores")
  func finishStopsChildren() async throws {
    let (clock, ledger, childLedger) = (ManualClock(), SystemLedger(), SystemLedger())
    let child = SystemMachines.jobChild(inspector: { childLedger.record($0) })
    let store = try Self.store(SystemMachines.parent(child: child), clock: clock, ledger: ledger)
    store.start()
    store.send("start")
    await store.finish()
    #expect(ledger.all == ["start invoke job as job (in state)", "cancelled invoke job as job (in state)"])
    // Finished before `finish()` returned: its own ticker was cancelled.
    #expect(childLedger.all == ["start every 1 s: tick (in state)", "cancelled every 1 s: tick (in state)"])
    #expect(store.children.isEmpty)
  }

  @Test("finishing the parent waits for a child that ended on its own on another thread, whose store is still finishing")
  func finishWaitsForAChildEndedMeanwhile() async throws {
    // A child done in `done` with a global ticker still running: its store cannot finish at
    // once, and its parent is told nothing when it is done (no `onDone` event). Its end is
    // decided on the thread that sent it `complete`; the parent's inspector, told of that end
    // before the child's store is stopped, holds that thread there while the parent finishes.
    let table = try SystemMachines.Job(
      name: "job", initial: "working",
      states: [.state("working", entry: [.every(.seconds(1), send: "tick", id: "ticker", scope: .global)]), .final("done")],
      rows: [.transition(from: "working", on: "complete", to: "done"), .stayInAny(on: "tick")])
    let childLedger = SystemLedger()
    let child = ChildMachine<String>(
      table, context: [], doneWhen: { $0 == "done" }, onDone: { _ in nil }, inspector: { childLedger.record($0) })
    let (ended, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let store = try Store(
      SystemMachines.parent(child: child, scope: .global), context: .init(), clock: ManualClock(), handler: { _, _ in },
      inspector: { report in
        guard case .effectFinished(_, let description) = report, description.hasPrefix("invoke job") else { return }
        ended.signal()
        // Long enough for `finish()` to return here if it does not wait for the child.
        _ = release.wait(timeout: .now() + .milliseconds(300))
      })
    store.start()
    store.send("start")
    let sender = Thread { _ = store.send("complete", to: "job") }
    sender.start()
    await waitOffThePool(for: ended)
    await store.finish()
    // The child's store had finished when `finish()` returned: its ticker was cancelled.
    #expect(childLedger.all == ["start every 1 s: tick", "cancelled every 1 s: tick"])
    release.signal()
  }

  @Test("messages from one sender arrive in the order sent")
  func ordered() async throws {
    let (clock, heard) = (ManualClock(), Guarded<[String]>([]))
    let child = ChildMachine<String>(
      SystemMachines.job, context: [],
      inspector: { report in if case .step(let step) = report, step.event.hasPrefix("n") { heard.withLock { $0.append(step.event) } } })
    let store = try Self.store(SystemMachines.parent(child: child), clock: clock, ledger: SystemLedger())
    store.start()
    store.send("start")
    let sent = (0..<200).map { "n\($0)" }
    for message in sent { store.send(message, to: "job") }
    await store.settle()
    #expect(heard.withLock { $0 } == sent)
    await store.finish()
  }
}
