import StateMachine
import Testing

/// A table's message that is its step's one command: a store commits it apart from other
/// effects and finds its receiver in the lock that keeps the step. It must end as any message
/// does (finished, failed or, delayed, cancelled), and loops through it stay bounded.
@Suite("Systems of machines: a table's step whose one command is a message")
struct TableMessageTests {
  typealias Host = TransitionTable<String, String, Int, Command<String, Never>>

  /// A table that counts each "ball" it gets.
  static let echo: Host = {
    do {
      return try Host(name: "echo", initial: "ready", states: [.state("ready")], rows: [.stayInAny(on: "ball").update { count, _ in count += 1 }])
    } catch {
      preconditionFailure("invalid state: the echo table is valid: \(error)")
    }
  }()

  /// Runs the echo as child `echo`; `ball` messages it a ball (and counts), `lost` messages a
  /// child that does not exist, `later` messages it a ball in 5 s (id `later`), `never`
  /// cancels that. With `echoesBack`, the child says "ball" back after each of its balls.
  static func store(echoesBack: Bool = false) throws -> (Store<Host>, ManualClock, SystemLedger) {
    let child = ChildMachine<String>(echo, context: 0, toParent: { step in echoesBack && step.event == "ball" ? "ball" : nil })
    let host = try Host(
      name: "player", initial: "playing", states: [.state("playing", entry: [.invoke(child, id: "echo", scope: .global)])],
      rows: [
        Host.Row.stayInAny(on: "ball", effects: .message(MachineMessage("ball", to: "echo"))).update { count, _ in count += 1 },
        .stayInAny(on: "lost", effects: .message(MachineMessage("ball", to: "nobody"))),
        .stayInAny(on: "later", effects: .message(MachineMessage("ball", to: "echo", after: .seconds(5), id: "later"))),
        .stayInAny(on: "never", effects: .cancel("later")),
      ])
    let (clock, ledger) = (ManualClock(), SystemLedger())
    let store = Store(host, context: 0, clock: clock, handler: { _, _ in }, inspector: { ledger.record($0) })
    store.start()
    return (store, clock, ledger)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let events: [String]
    /// How long the clock runs after the events.
    let wait: Duration
    /// The message's reports, in order (the child's start aside).
    let reports: [String]
    /// The child's steps.
    let childSteps: Int
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(
      label: "to its child: delivered at once, reported started then finished", events: ["ball"], wait: .zero,
      reports: ["start send ball to echo", "finished send ball to echo"], childSteps: 1),
    Case(
      label: "to an id no child has: refused, reported started then failed", events: ["lost"], wait: .zero,
      reports: ["start send ball to nobody", "failed send ball to nobody: \(SendRejection.unknownTarget)"], childSteps: 0),
    Case(
      label: "delayed: a timer until it is due, then delivered", events: ["later"], wait: .seconds(5),
      reports: ["start after 5 s: send ball to echo", "finished after 5 s: send ball to echo"], childSteps: 1),
    Case(
      label: "delayed and cancelled by its id before it is due: never delivered", events: ["later", "never"], wait: .seconds(10),
      reports: ["start after 5 s: send ball to echo", "cancelled after 5 s: send ball to echo"], childSteps: 0),
  ]

  @Test("each message ends exactly once, as it should", arguments: cases)
  func ends(_ c: Case) async throws {
    let (store, clock, ledger) = try Self.store()
    for event in c.events { #expect(store.send(event) == .accepted) }
    await clock.advance(by: c.wait)
    await store.settle()
    #expect(ledger.all.filter { !$0.contains("invoke") } == c.reports)
    #expect(ledger.childSteps.count == c.childSteps)
    await store.finish()
  }

  @Test("a table and its child messaging each other stop at 10,000 steps, with the message failed as a loop")
  func pingPong() async throws {
    let (store, _, ledger) = try Self.store(echoesBack: true)
    // Without the bound this send would never return.
    #expect(store.send("ball") == .accepted)
    #expect(store.context == 10_000)
    #expect(ledger.all.filter { $0.hasPrefix("failed") } == ["failed send ball to echo: \(SendRejection.loop)"])
    #expect(ledger.all.filter { $0 == "finished send ball to echo" }.count == 9_999)
    // An event from outside begins a new cascade, bounded the same way.
    #expect(store.send("ball") == .accepted)
    #expect(store.context == 20_000)
    await store.finish()
  }
}
