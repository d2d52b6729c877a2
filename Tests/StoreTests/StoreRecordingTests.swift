import Foundation
import StateMachine
import Testing

@Suite("Recording a store's session")
struct StoreRecordingTests {
  enum S: String, Hashable, Sendable, Codable, CaseIterable, Discriminated { case idle, waiting, done }
  enum E: String, Hashable, Sendable, Codable, CaseIterable, Discriminated { case start, reply, timeout }
  enum W: String, Hashable, Sendable, Codable { case ask }
  typealias Table = TransitionTable<S, E, Int, Command<E, W>>

  static let table = try! Table(
    name: "asker", initial: .idle,
    states: [.state(.idle), .state(.waiting, entry: [.perform(.ask, id: "ask", scope: .state), .send(.timeout, after: .seconds(5), scope: .state)]),
             .final(.done)],
    rows: [
      .transition(from: .idle, on: .start, to: .waiting).update { tries, _ in tries += 1 },
      .transition(from: .waiting, on: .reply, to: .done),
      .transition(from: .waiting, on: .timeout, to: .idle),
    ])

  @Test("a store session recorded through the inspector replays identically, with clock times")
  func recordStore() async throws {
    let clock = ManualClock()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-store-\(UInt32.random(in: 0...UInt32.max)).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try LogRecorder(table: Self.table, state: .idle, context: 0, file: path, durability: .every(2), clock: clock)
    let replies = Counter()
    let store = Store(Self.table, context: 0, clock: clock, handler: { _, send in
      try await clock.sleep(for: .seconds(replies.next() == 1 ? 10 : 1))  // the first ask times out
      send(.reply)
    }, inspector: recorder.storeInspector())
    store.send(.start)
    await clock.advance(by: .seconds(5))
    store.send(.start)
    await clock.advance(by: .seconds(1))
    await store.finish()
    try recorder.close()

    let read = EventLog<S, E, Int, Command<E, W>>.read(try Data(contentsOf: URL(fileURLWithPath: path)), for: Self.table)
    #expect(read.error == nil)
    let log = try #require(read.log)
    #expect(log.entries.map(\.event) == [.start, .timeout, .start, .reply])
    #expect(log.entries.map(\.time) == [0, 5, 5, 6])
    #expect(log.entries.last?.context == 2)
    #expect(log.entries[0].effects.count == 2)
    #expect(Self.table.replay(log).isIdentical)
  }
}
