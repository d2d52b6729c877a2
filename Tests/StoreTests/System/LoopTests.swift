import StateMachine
import Testing

/// Machines that message each other back and forth: the loop stops at the stated bound with a
/// typed reason, instead of stepping forever inside one `send`.
@Suite("Systems of machines: loops between machines are bounded")
struct LoopTests {
  typealias Echo = TransitionTable<String, String, Int, Command<String, Never>>
  typealias Player = Chart<String, String, Int, Command<String, Never>>

  /// A table that counts each "ball" it gets; its parent hears "ball" back from every such step.
  static let echo: Echo = {
    do {
      return try Echo(
        name: "echo", initial: "ready", states: [.state("ready")],
        rows: [.stayInAny(on: "ball").update { count, _ in count += 1 }])
    } catch {
      preconditionFailure("invalid state: the echo table is valid: \(error)")
    }
  }()

  /// A chart that, on "ball", messages its child "echo" a ball (and on "serve" too, but the
  /// child's answer to a serve is not sent back); on "spawn", starts a child done at its start,
  /// whose done event is "spawn" again.
  static func player(child: ChildMachine<String>) throws -> Player {
    try Player(name: "player", states: [
      .atomic("playing", transitions: [
        .on("ball", do: [.update { count, _ in count += 1 }, .effect(.message(MachineMessage("ball", to: "echo")))]),
        .on("spawn", do: [.effect(.invoke(ChildMachine(echo, context: 0, doneWhen: { _ in true }, onDone: { _ in "spawn" }), id: "quick", scope: .global))]),
      ], onEntry: [.effect(.invoke(child, id: "echo", scope: .global))]),
    ])
  }

  static func store(echoesBack: Bool, ledger: SystemLedger) throws -> Store<Player> {
    let child = ChildMachine<String>(echo, context: 0, toParent: { step in echoesBack && step.event == "ball" ? "ball" : nil })
    let store = try Store(player(child: child), context: 0, clock: ManualClock(), handler: { _, _ in }, inspector: { ledger.record($0) })
    store.start()
    return store
  }

  static let loopFailure = "failed send ball to echo: \(SendRejection.loop)"

  @Test("a parent and child messaging each other stop at 10,000 steps, with the message failed as a loop")
  func pingPong() async throws {
    let ledger = SystemLedger()
    let store = try Self.store(echoesBack: true, ledger: ledger)
    // Without the bound this send would never return.
    #expect(store.send("ball") == .accepted)
    #expect(store.context == 10_000)
    #expect(ledger.all.filter { $0.hasPrefix("failed") } == [Self.loopFailure])
    #expect(ledger.all.filter { $0 == "finished send ball to echo" }.count == 9_999)
    // An event from outside begins a new cascade, bounded the same way.
    #expect(store.send("ball") == .accepted)
    #expect(store.context == 20_000)
    #expect(ledger.all.filter { $0.hasPrefix("failed") } == [Self.loopFailure, Self.loopFailure])
    await store.finish()
  }

  @Test("a long exchange driven from outside is not a loop")
  func drivenFromOutside() async throws {
    let ledger = SystemLedger()
    let store = try Self.store(echoesBack: false, ledger: ledger)
    // Each outside event is answered at once by a message; no step is fed by the child.
    for _ in 0..<12_000 { store.send("ball") }
    #expect(store.context == 12_000)
    #expect(ledger.all.filter { $0.hasPrefix("failed") }.isEmpty)
    await store.finish()
  }

  @Test("a child done at its start, restarted on its done event, stops at the bound as a failed start")
  func restartLoop() async throws {
    let ledger = SystemLedger()
    let store = try Self.store(echoesBack: false, ledger: ledger)
    #expect(store.send("spawn") == .accepted)
    let starts = ledger.all.filter { $0.hasPrefix("start invoke echo as quick") }
    let failures = ledger.all.filter { $0.hasPrefix("failed invoke echo as quick") }
    #expect(starts.count == 10_000)
    #expect(failures == ["failed invoke echo as quick: \(SendRejection.loop)"])
    // Every start ended exactly once: 9,999 done, one refused.
    #expect(ledger.all.filter { $0.hasPrefix("finished invoke echo as quick") }.count == 9_999)
    await store.finish()
  }
}
