import Foundation
import StateMachine
import StateMachineChecking
import Synchronization
import Testing

/// `fsm demo` prints each child's end as a line of its own, after the child's last step:
/// `[job] (finished)`, `(cancelled)` or `(failed: …)`, as `fsm view` draws it.
@Suite("fsm demo prints how each child ended")
struct DemoChildEndTests {
  typealias Job = TransitionTable<String, String, [String], Command<String, Never>>
  typealias Host = TransitionTable<String, String, [String], Command<String, Never>>

  /// working → done on `complete`; done ends it.
  static let job = try! Job(
    name: "job", initial: "working", states: [.state("working"), .final("done")],
    rows: [.transition(from: "working", on: "complete", to: "done")], policy: .ignore)

  /// A chart whose first macrostep never settles: it cannot start.
  static let loop = try! Chart<String, String, [String], Command<String, Never>>(
    name: "loop", states: [.atomic("a", transitions: [.always(to: "b")]), .atomic("b", transitions: [.always(to: "a")])])

  /// idle → running, which runs `child` as `job`; `finish` messages it `complete`, `stop` leaves
  /// running, and the child's end (`jobDone`) leaves it too.
  static func host(_ child: ChildMachine<String>, initial: String = "idle") -> Host {
    try! Host(
      name: "host", initial: initial,
      states: [.state("idle"), .state("running", entry: [.invoke(child, id: "job")]), .state("over")],
      rows: [
        .transition(from: "idle", on: "start", to: "running"),
        .transition(from: "running", on: "stop", to: "idle"),
        .transition(from: "running", on: "jobDone", to: "over"),
        .stay(in: "running", on: "finish", effects: .message(MachineMessage("complete", to: "job"))),
        .stay(in: "running", on: "again", effects: .invoke(child, id: "job")),
      ],
      policy: .ignore)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let child: ChildMachine<String>
    /// Where the host starts (in `running`: its start runs the child).
    var initial = "idle"
    let script: [String]
    /// The child's end as the demo prints it (after the time column).
    let end: String
    /// The line it comes after (after the time column; `nil`: any).
    let after: String?
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(
      label: "a child done in its final state ends finished, before its parent hears it",
      child: ChildMachine(job, context: [], doneWhen: { $0 == "done" }, onDone: { _ in "jobDone" }),
      script: ["start", "finish"], end: "[job] (finished)", after: "[job] complete"),
    Case(
      label: "a child whose state is left ends cancelled",
      child: ChildMachine(job, context: [], doneWhen: { $0 == "done" }, onDone: { _ in "jobDone" }),
      script: ["start", "stop"], end: "[job] (cancelled)", after: "stop"),
    Case(
      label: "a child the store's start ran ends as one a step started",
      child: ChildMachine(job, context: [], doneWhen: { $0 == "done" }, onDone: { _ in "jobDone" }), initial: "running",
      script: ["stop"], end: "[job] (cancelled)", after: "stop"),
    Case(
      label: "a child that cannot start ends failed, with its error",
      child: ChildMachine(loop, context: [], onError: { _ in "jobDone" }),
      script: ["start"], end: "[job] (failed: ", after: nil),
  ]

  @Test("the end of a child, once, where it ended", arguments: cases)
  func end(_ c: Case) async throws {
    let demo = MachineDemo(
      name: "host", summary: c.label, script: c.script.map { .send($0) },
      makeStore: { clock, inspector in Store(Self.host(c.child, initial: c.initial), context: [], clock: clock, handler: { _, _ in }, inspector: inspector) },
      show: { state, _ in state })
    let lines = Mutex<[String]>([])
    try await demo.run(emit: { line in lines.withLock { $0.append(line) } })
    // Each line after its time column (8 wide).
    let printed = lines.withLock { $0 }.map { $0.count > 8 ? String($0.dropFirst(8)) : $0 }
    let ends = printed.indices.filter { printed[$0].contains("(finished)") || printed[$0].contains("(cancelled)") || printed[$0].contains("(failed") }
    #expect(ends.count == 1, "\(printed)")
    let at = try #require(ends.first)
    #expect(printed[at].hasPrefix(c.end), "\(printed)")
    if let after = c.after { #expect(printed[at - 1].hasPrefix(after), "\(printed)") }
  }

  @Test("a child replaced by one of its id ends cancelled, and the new one's end is printed too")
  func replaced() async throws {
    let child = ChildMachine<String>(Self.job, context: [], doneWhen: { $0 == "done" }, onDone: { _ in "jobDone" })
    let demo = MachineDemo(
      name: "host", summary: "a child replaced", script: ["start", "again", "finish"].map { .send($0) },
      makeStore: { clock, inspector in Store(Self.host(child), context: [], clock: clock, handler: { _, _ in }, inspector: inspector) },
      show: { state, _ in state })
    let lines = Mutex<[String]>([])
    try await demo.run(emit: { line in lines.withLock { $0.append(line) } })
    let printed = lines.withLock { $0 }.map { $0.count > 8 ? String($0.dropFirst(8)) : $0 }
    #expect(printed.filter { $0.hasPrefix("[job] (") } == ["[job] (cancelled)", "[job] (finished)"], "\(printed)")
  }

  @Test("a demo without children prints no ends, and work's ends are not children's")
  func noChildren() async throws {
    let table = try Host(
      name: "timer", initial: "idle", states: [.state("idle"), .state("waiting")],
      rows: [
        .transition(from: "idle", on: "go", to: "waiting", effects: .send("ring", after: .seconds(1), id: "bell")),
        .transition(from: "waiting", on: "ring", to: "idle"),
      ])
    let demo = MachineDemo(
      name: "timer", summary: "a timer that fires", script: [.send("go"), .wait(.seconds(2))],
      makeStore: { clock, inspector in Store(table, context: [], clock: clock, handler: { _, _ in }, inspector: inspector) },
      show: { state, _ in state })
    let lines = Mutex<[String]>([])
    try await demo.run(emit: { line in lines.withLock { $0.append(line) } })
    let printed = lines.withLock { $0 }
    #expect(printed.contains { $0.contains("ring") && $0.contains("waiting → idle") }, "\(printed)")
    #expect(!printed.contains { $0.contains("(finished)") }, "\(printed)")
  }
}
