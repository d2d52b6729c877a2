import StateMachine
import Testing

/// A message that is its step's one command (a table's) or one output (a chart's). The store
/// commits it apart from other effects and finds its receiver in the lock that keeps the step
/// (a chart's message among other outputs registers with them, as any effect). Either way it
/// must end as any message does (finished, failed or, delayed, cancelled), and loops through it
/// stay bounded.
@Suite("Systems of machines: a step whose one command is a message")
struct StepMessageTests {
  typealias Host = LoopTests.Echo
  typealias ChartHost = LoopTests.Player

  /// The echo (``LoopTests/echo``: a table that counts each "ball" it gets) as child `echo`;
  /// with `echoesBack`, it says "ball" back after each of its balls.
  static func child(echoesBack: Bool) -> ChildMachine<String> {
    ChildMachine<String>(LoopTests.echo, context: 0, toParent: { step in echoesBack && step.event == "ball" ? "ball" : nil })
  }

  /// A store running the echo as child `echo`, and what its inspector and clock saw.
  struct Run {
    let store: HeldStore<String, Int>
    let clock: ManualClock
    let ledger: SystemLedger
  }

  /// A host of `kind`, with the same events: `ball` messages the child a ball (and counts),
  /// `lost` messages a child that does not exist, `later` messages it a ball in 5 s (id `later`),
  /// `never` cancels that. A chart also has the same by its own actions: `ownLater` (a
  /// ``ChartAction/message(_:to:after:id:)``, id `own`), `ownNever` (its ``ChartAction/cancel(_:)``)
  /// and `ownNow` (a delay of zero: a message delivered at once). A table's rows each have one
  /// command. A chart's transitions each have one output (`lost`'s a
  /// ``ChartAction/message(_:to:)``, the others' a ``Command/message(_:)`` effect), and it has
  /// two more: `both` messages the child and then no one (two outputs, registered in order), and
  /// `quit` messages the child as it halts the chart (sent after the halt cancelled the child).
  static func run(_ kind: HostKind, echoesBack: Bool = false) throws -> Run {
    let (clock, ledger) = (ManualClock(), SystemLedger())
    let child = child(echoesBack: echoesBack)
    let ball = Command<String, Never>.message(MachineMessage("ball", to: "echo"))
    let later = Command<String, Never>.message(MachineMessage("ball", to: "echo", after: .seconds(5), id: "later"))
    switch kind {
    case .table:
      let host = try Host(
        name: "player", initial: "playing", states: [.state("playing", entry: [.invoke(child, id: "echo", scope: .global)])],
        rows: [
          Host.Row.stayInAny(on: "ball", effects: ball).update { count, _ in count += 1 },
          .stayInAny(on: "lost", effects: .message(MachineMessage("ball", to: "nobody"))),
          .stayInAny(on: "later", effects: later),
          .stayInAny(on: "never", effects: .cancel("later")),
        ])
      let store = Store(host, context: 0, clock: clock, handler: { _, _ in }, inspector: { ledger.record($0) })
      store.start()
      return Run(store: HeldStore(store), clock: clock, ledger: ledger)
    case .chart:
      let host = try ChartHost(name: "player", states: [
        .atomic("playing", transitions: [
          .on("ball", do: [.update { count, _ in count += 1 }, .effect(ball)]),
          .on("lost", do: [.message("ball", to: "nobody")]),
          .on("later", do: [.effect(later)]),
          .on("never", do: [.effect(.cancel("later"))]),
          .on("both", do: [.effect(ball), .message("ball", to: "nobody")]),
          .on("ownLater", do: [.message("ball", to: "echo", after: .seconds(5), id: "own")]),
          .on("ownNever", do: [.cancel("own")]),
          .on("ownNow", do: [.message("ball", to: "echo", after: .zero, id: "own")]),
          .on("quit", to: "over", actions: [.effect(ball)]),
        ], onEntry: [.effect(.invoke(child, id: "echo", scope: .global))]),
        .final("over"),
      ])
      let store = try Store(host, context: 0, clock: clock, handler: { _, _ in }, inspector: { ledger.record($0) })
      store.start()
      return Run(store: HeldStore(store), clock: clock, ledger: ledger)
    }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let kinds: [HostKind]
    let events: [String]
    /// How long the clock runs after the events.
    let wait: Duration
    /// The message's reports, in order (the child's start and stop aside).
    let reports: [String]
    /// The child's steps.
    let childSteps: Int
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(
      label: "to its child: delivered at once, reported started then finished", kinds: HostKind.allCases, events: ["ball"], wait: .zero,
      reports: ["start send ball to echo", "finished send ball to echo"], childSteps: 1),
    Case(
      label: "to an id no child has: refused, reported started then failed", kinds: HostKind.allCases, events: ["lost"], wait: .zero,
      reports: ["start send ball to nobody", "failed send ball to nobody: \(SendRejection.unknownTarget)"], childSteps: 0),
    Case(
      label: "delayed: a timer until it is due, then delivered", kinds: HostKind.allCases, events: ["later"], wait: .seconds(5),
      reports: ["start after 5 s: send ball to echo", "finished after 5 s: send ball to echo"], childSteps: 1),
    Case(
      label: "delayed and cancelled by its id before it is due: never delivered", kinds: HostKind.allCases, events: ["later", "never"],
      wait: .seconds(10), reports: ["start after 5 s: send ball to echo", "cancelled after 5 s: send ball to echo"], childSteps: 0),
    Case(
      label: "a chart's own delayed message: a timer until it is due, then delivered", kinds: [.chart], events: ["ownLater"],
      wait: .seconds(5), reports: ["start after 5 s: send ball to echo", "finished after 5 s: send ball to echo"], childSteps: 1),
    Case(
      label: "a chart's own delayed message, cancelled by the chart's cancel of its id: never delivered", kinds: [.chart],
      events: ["ownLater", "ownNever"], wait: .seconds(10),
      reports: ["start after 5 s: send ball to echo", "cancelled after 5 s: send ball to echo"], childSteps: 0),
    Case(
      label: "a chart's own message with a delay of zero: delivered at once", kinds: [.chart], events: ["ownNow"], wait: .zero,
      reports: ["start send ball to echo", "finished send ball to echo"], childSteps: 1),
    Case(
      label: "one of two outputs: each delivered or refused, in order", kinds: [.chart], events: ["both"], wait: .zero,
      reports: [
        "start send ball to echo", "finished send ball to echo",
        "start send ball to nobody", "failed send ball to nobody: \(SendRejection.unknownTarget)",
      ], childSteps: 1),
    // (Sent, as a chart's last word to another machine is; but the halt cancelled the child first:
    // refused as by the child's finished store.)
    Case(
      label: "from the macrostep that halts the chart: sent after the halt ended the child, so it fails", kinds: [.chart],
      events: ["quit"], wait: .zero,
      reports: ["start send ball to echo", "failed send ball to echo: \(SendRejection.finished)"], childSteps: 0),
  ]

  static let runs: [(HostKind, Case)] = cases.flatMap { c in c.kinds.map { ($0, c) } }

  @Test("each message ends exactly once, as it should", arguments: runs)
  func ends(_ kind: HostKind, _ c: Case) async throws {
    let run = try Self.run(kind)
    for event in c.events { #expect(run.store.send(event) == .accepted) }
    await run.clock.advance(by: c.wait)
    await run.store.settle()
    #expect(run.ledger.all.filter { !$0.contains("invoke") } == c.reports)
    #expect(run.ledger.childSteps.count == c.childSteps)
    await run.store.finish()
  }

  /// A host whose state `a` runs the echo as its child while it is active, and whose one step,
  /// on `go`, leaves `a` for `b` with one command: a ball for the echo.
  static func leaving(_ kind: HostKind) throws -> Run {
    let (clock, ledger) = (ManualClock(), SystemLedger())
    let child = child(echoesBack: false)
    let ball = Command<String, Never>.message(MachineMessage("ball", to: "echo"))
    switch kind {
    case .table:
      let host = try Host(
        name: "leaver", initial: "a", states: [.state("a", entry: [.invoke(child, id: "echo")]), .state("b")],
        rows: [.transition(from: "a", on: "go", to: "b", effects: ball)])
      let store = Store(host, context: 0, clock: clock, handler: { _, _ in }, inspector: { ledger.record($0) })
      store.start()
      return Run(store: HeldStore(store), clock: clock, ledger: ledger)
    case .chart:
      let host = try ChartHost(name: "leaver", states: [
        .atomic("a", transitions: [.on("go", to: "b", actions: [.effect(ball)])], onEntry: [.effect(.invoke(child, id: "echo"))]),
        .atomic("b"),
      ])
      let store = try Store(host, context: 0, clock: clock, handler: { _, _ in }, inspector: { ledger.record($0) })
      store.start()
      return Run(store: HeldStore(store), clock: clock, ledger: ledger)
    }
  }

  /// The step's exit ends the child before its message goes out (the state's invocations are
  /// cancelled as it is exited), and the message is reported failed after the child's cancel.
  /// A table's row sends it while the child ran, as all of a table step's messages are: it
  /// finds the child's store finished (``SendRejection/finished``: the child ended in this
  /// step, see `Family.endedDuring`). A chart's transition sends it after the exit, as SCXML
  /// orders a macrostep: it finds no child (``SendRejection/unknownTarget``).
  @Test("a message from the step that leaves its receiver's state: the child is cancelled, then the message fails", arguments: HostKind.allCases)
  func toTheChildItsStepEnds(_ kind: HostKind) async throws {
    let run = try Self.leaving(kind)
    #expect(run.store.send("go") == .accepted)
    await run.store.settle()
    let reports = run.ledger.all
    let reason = kind == .table ? SendRejection.finished : .unknownTarget
    let cancelled = try #require(reports.firstIndex { $0.hasPrefix("cancelled") && $0.contains("echo") })
    let failed = try #require(reports.firstIndex(of: "failed send ball to echo: \(reason)"))
    #expect(cancelled < failed)
    #expect(reports.filter { $0.contains("send ball") } == ["start send ball to echo", "failed send ball to echo: \(reason)"])
    #expect(run.ledger.childSteps.isEmpty)
    await run.store.finish()
  }

  @Test("a host and its child messaging each other stop at 10,000 steps, with the message failed as a loop", arguments: HostKind.allCases)
  func pingPong(_ kind: HostKind) async throws {
    let run = try Self.run(kind, echoesBack: true)
    // Without the bound this send would never return.
    #expect(run.store.send("ball") == .accepted)
    #expect(run.store.context() == 10_000)
    #expect(run.ledger.all.filter { $0.hasPrefix("failed") } == ["failed send ball to echo: \(SendRejection.loop)"])
    #expect(run.ledger.all.filter { $0 == "finished send ball to echo" }.count == 9_999)
    // An event from outside begins a new cascade, bounded the same way.
    #expect(run.store.send("ball") == .accepted)
    #expect(run.store.context() == 20_000)
    await run.store.finish()
  }
}
