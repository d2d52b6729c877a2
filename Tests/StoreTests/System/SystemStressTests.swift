import StateMachine
import Testing

@Suite("Systems of machines under concurrent producers")
struct SystemStressTests {
  typealias Host = TransitionTable<String, String, [String: Int], Command<String, Never>>

  /// A host that spawns `count` tally children (`c0` …) and counts what they say: `counted` for
  /// each message a child handled, `disorder` for one that arrived out of its producer's order.
  static func host(children count: Int) throws -> Host {
    let child = ChildMachine<String>(
      Tally.table(), context: .init(), toParent: { step in step.context.outOfOrder > 0 ? "disorder" : "counted" })
    return try Host(
      name: "host", initial: "up",
      rows: (0..<count).map { .stayInAny(on: "spawn-\($0)", effects: .invoke(child, id: EffectID("c\($0)"), scope: .global)) } + [
        .stayInAny(on: "counted").update { tally, event in tally[event, default: 0] += 1 },
        .stayInAny(on: "disorder").update { tally, event in tally[event, default: 0] += 1 },
      ],
      policy: .ignore)
  }

  @Test("8 producers messaging 1,000 children: every message handled or refused, each pair in order")
  func producers() async throws {
    let (children, perProducer) = (1_000, 2_000)
    let ledger = SystemLedger()
    let store = Store(try Self.host(children: children), context: [:], handler: { _, _ in }, inspector: { ledger.record($0) })
    for i in 0..<children { store.send("spawn-\(i)") }
    #expect(store.children.count == children)
    let accepted = Guarded(0)
    await withTaskGroup(of: Void.self) { group in
      for p in 0..<8 {
        group.addTask {
          var mine = 0
          for i in 0..<perProducer {
            // Producer p's messages to child i % children carry its sequence for that child.
            let result = store.send(Tally.Event.add(producer: p, sequence: i / children), to: "c\(i % children)")
            if result == .accepted { mine += 1 } else { Issue.record("refused: \(result)") }
          }
          accepted.withLock { $0 += mine }
        }
      }
    }
    await store.settle()
    #expect(store.context["counted"] == accepted.withLock { $0 })
    #expect(store.context["disorder"] == nil)
    #expect(accepted.withLock { $0 } == 8 * perProducer)
    await store.finish()
    #expect(store.children.isEmpty)
    // Each child started once and was cancelled once, by the finish.
    #expect(ledger.all.filter { $0.hasPrefix("start") }.count == children)
    #expect(ledger.all.filter { $0.hasPrefix("cancelled") }.count == children)
  }
}
