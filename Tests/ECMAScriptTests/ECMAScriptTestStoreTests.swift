#if ECMAScript
import Foundation
import StateMachine
import StateMachineECMAScript
import StateMachineTesting
import Testing

/// A `TestStore` on an ECMAScript chart: its session is compared by what it holds, before and
/// after each step, so a step that changed the data fails an assertion that says it did not.
@Suite("ECMAScript charts in a test store")
struct ECMAScriptTestStoreTests {
  /// What a tick in `counting` asks for besides its log: entering `counting` again sends the
  /// reminder anew (from session `s1`).
  static let reminder = Command<SCXMLEvent, String>.send(
    SCXMLEvent("remind", sendid: "reminder", origin: "#_scxml_s1", origintype: "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"),
    after: .seconds(2), id: "reminder")

  static func testStore(_ chart: ECMAScriptChart) throws -> TestStore<ECMAScriptChart> {
    try TestStore(reportsFailures: false) { clock, inspector in
      try Store(chart, context: SCXMLSession(for: chart, sessionID: "s1"), clock: clock, handler: { _, _ in }, inspector: inspector)
    }
  }

  @Test("a step that changed the session's data fails an assertion of no change")
  func unassertedChangeFails() async throws {
    let store = try Self.testStore(ECMAScriptStoreTests.chart())
    await store.start()
    await #expect(throws: TestStoreFailure.self) {
      try await store.send(SCXMLEvent("tick"), effects: [.perform("count: 1"), Self.reminder])
    }
  }

  @Test("the session's expected data, set in the change, passes; a wrong value fails and says both")
  func assertedChange() async throws {
    let store = try Self.testStore(ECMAScriptStoreTests.chart())
    await store.start()
    try await store.send(SCXMLEvent("tick", data: #"{"by": 5}"#), effects: [.perform("count: 1"), Self.reminder]) {
      try $0.setData(#"{"count":1,"total":5}"#)
    }
    #expect(store.context.data == #"{"count":1,"total":5}"#)
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(SCXMLEvent("tick"), effects: [.perform("count: 2"), Self.reminder]) { try $0.setData(#"{"count":2,"total":5}"#) }
    }
    #expect(failure.map { "\($0)" }?.contains(#"{"count":2,"total":6}"#) == true)
  }

  /// The README's test store on the counter (its snippet's lines, in order).
  @Test("the README's test store: a tick asserted with the data it leaves")
  func readmeTestStore() async throws {
    let chart = try ECMAScriptStoreTests.chart()
    let session = SCXMLSession(for: chart)
    let test = try TestStore { clock, inspector in
        try Store(chart, context: session, clock: clock, handler: { _, _ in }, inspector: inspector)
    }
    await test.start()
    let reminder = session.sentEvent("remind", id: "reminder")    // what the <send> of the reminder makes
    try await test.send(SCXMLEvent("tick"), effects: [.perform("count: 1"), .send(reminder, after: .seconds(2), id: "reminder")]) {
        try $0.setData(#"{"count":1,"total":1}"#)
    }
    #expect(test.configuration == ["counting"])
  }

  @Test("data that is not a JSON object is refused")
  func setDataRefusesNonObjects() throws {
    let session = SCXMLSession(for: try ECMAScriptStoreTests.chart(), sessionID: "s1")
    #expect(throws: DecodingError.self) { try session.setData("[1, 2]") }
    #expect(session.data == "{}")
  }
}
#endif
