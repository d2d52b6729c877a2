import Foundation
import StateMachine
import StateMachineTesting
import Testing

/// A document's `<invoke>` under a `TestStore`: the child machine its state runs is asserted
/// as any child is, its messages to the parent are received events, and its end the invoker's
/// `done.invoke.<id>`.
@Suite("TestStore: a chart that invokes a chart")
struct InvokedChartTestStoreTests {
  typealias DocumentChart = Chart<String, String, NoContext, Command<String, String>>

  static let document = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a" name="parent">
      <state id="a">
        <invoke id="kid"><content>
          <scxml version="1.0" initial="k1" name="kid">
            <state id="k1"><transition event="poke" target="k2"><send target="#_parent" event="poked"/></transition></state>
            <final id="k2"/>
          </scxml>
        </content></invoke>
        <transition event="go"><send target="#_kid" event="poke"/></transition>
        <transition event="nobody"><send target="#_nobody" event="poke"/></transition>
        <transition event="poked" target="b"/>
        <transition event="error.communication" target="lost"/>
      </state>
      <state id="b"><transition event="done.invoke.kid" target="c"/></state>
      <state id="lost"/>
      <final id="c"/>
    </scxml>
    """

  static func store(exhaustivity: Exhaustivity = .on) throws -> TestStore<DocumentChart> {
    let chart = try DocumentChart(scxml: Data(document.utf8), file: "parent.scxml", bindings: SCXMLBindings(state: { $0 }, event: { $0 }))
    return try TestStore(chart, context: NoContext(), exhaustivity: exhaustivity) { _, _ in }
  }

  @Test("a message to #_<id> steps the child; its message to #_parent, then its done.invoke.<id>, are the parent's next events")
  func messagesAndDone() async throws {
    let store = try Self.store()
    await store.start()
    try await store.send("go", effects: [.message(MachineMessage("poke", to: "#_kid"))])
    try await store.receiveChildStep(at: "kid", "poke", to: "k2")
    try await store.receive("poked", to: ["b"])
    try await store.receive("done.invoke.kid", to: ["c"])
    try await store.finish()
  }

  @Test("a message that reaches no machine fails, and raises error.communication in its sender")
  func communicationError() async throws {
    let store = try Self.store()
    await store.start()
    let lost = Command<String, String>.message(MachineMessage("poke", to: "#_nobody"))
    try await store.send("nobody", effects: [lost])
    try await store.receiveFailure(of: lost, error: "no running child machine has that id")
    // (Leaving `a` cancels the child.)
    try await store.receive("error.communication", to: ["lost"])
    try await store.finish()
  }
}
