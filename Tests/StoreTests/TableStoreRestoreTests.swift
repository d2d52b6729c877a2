import Foundation
import StateMachine
import Testing

/// A table's store restored from a snapshot, as a chart's is: where it was, with nothing
/// entered again.
@Suite("A table's store restored from a snapshot")
struct TableStoreRestoreTests {
  typealias Job = SystemMachines.Job

  @Test("it continues where the snapshot was, through JSON, and asks for no entry effect again")
  func continues() async throws {
    let clock = ManualClock()
    let store = Store(SystemMachines.job, context: [], clock: clock, handler: { _, _ in })
    store.start()
    store.send("note")
    #expect(store.runningEffectCount == 1, "the ticker of working")
    let saved = try JSONEncoder().encode(store.snapshot)
    await store.finish()

    let snapshot = try JSONDecoder().decode(TableSnapshot<String, [String]>.self, from: saved)
    let again = try Store(SystemMachines.job, restoring: snapshot, clock: clock, handler: { _, _ in })
    #expect(again.state == "working")
    #expect(again.context == ["note"])
    again.start()
    #expect(again.runningEffectCount == 0, "working was not entered again: its ticker is not asked for")
    again.send("pause")
    again.send("resume")
    #expect(again.runningEffectCount == 1, "entering working again starts its ticker")
    #expect(again.stepCount == 2)
    await again.finish()
  }

  @Test("a snapshot whose state is not one of the table's is refused")
  func refusesUnknownState() {
    #expect(throws: TableValidationError.self) {
      try Store(SystemMachines.job, restoring: TableSnapshot(state: "nowhere", context: []), handler: { _, _ in })
    }
  }
}
