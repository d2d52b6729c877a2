import Foundation
import StateMachine
import StateMachineExamples
import Testing

/// Reading SCXML into a chart of your own types: names bound to states, events, effects,
/// guards, updates and makes.
@Suite("SCXML read into typed charts through bindings")
struct SCXMLBindingsTests {
  // The shared test door (TestMachines.swift): its states and events, payloads included.
  typealias Input = Door.Event
  struct Lock: Hashable, Sendable { var code: Int?; var knocks = 0 }

  static let codeMatches = ChartGuard<Door.State, Input, Lock>("code matches") { lock, event in
    if case .unlock(let code)? = event { code == lock.code } else { false }
  }
  static let remember = ChartAction<Input, Lock, String>.update("remember code") { lock, event in
    if case .lock(let code)? = event { lock.code = code }
  }
  static let announce = ChartAction<Input, Lock, String>.make("announce") { lock, _ in "locked with \(lock.code ?? 0)" }
  static let bindings = SCXMLBindings<Door.State, Input, Lock, String>(
    state: Door.State.init(rawValue:), event: { $0 == "knock" ? .knock : nil }, effect: { $0 }, guards: [codeMatches],
    actions: [remember, announce, .update("count knock") { lock, _ in lock.knocks += 1 }])

  /// A designer's document: a datamodel-style `cond` naming a Swift guard, the Swift names in
  /// the namespace under a prefix of its own.
  static let door = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:swift="urn:swift-state-machine:scxml" name="door" initial="closed">
      <state id="closed">
        <transition event="open" target="open"/>
        <transition event="lock" target="locked"><swift:update name="remember code"/><log swift:make="announce"/></transition>
      </state>
      <state id="open">
        <onentry><raise event="knock"/></onentry>
        <transition event="knock"><swift:update name="count knock"/><log expr="'knocked'"/></transition>
        <transition event="close" target="closed"/>
      </state>
      <state id="locked">
        <transition event="unlock" cond="code matches" target="closed"/>
      </state>
    </scxml>
    """

  @Test("a document with bound names runs with the Swift code")
  func boundDocument() throws {
    let chart = try Chart(scxml: Data(Self.door.utf8), file: "door.scxml", bindings: Self.bindings)
    var door = ChartMachine(chart, context: Lock())
    _ = try door.start()
    #expect(try door.send(.lock(code: 42)).effects == ["locked with 42"])
    #expect(door.configuration == [.locked])
    #expect(try door.send(.unlock(code: 7)).outcome == .unhandled)
    #expect(try door.send(.unlock(code: 42)).outcome == .transitioned)
    #expect(try door.send(.open).effects == ["knocked"])
    #expect(door.configuration == [.open] && door.context == Lock(code: 42, knocks: 1))
  }

  struct Unbound: Sendable, CustomStringConvertible {
    let label: String
    let document: String
    let line: Int
    let element: String
    let message: String
    var description: String { label }
  }

  static let unbound: [Unbound] = [
    .init(label: "a state", document: #"<state id="ajar"/>"#, line: 2, element: "<state id>", message: "no state is bound to 'ajar'"),
    .init(
      label: "a target", document: #"<state id="open"><transition event="close" target="shut"/></state>"#, line: 2,
      element: "<transition target>", message: "no state is bound to 'shut'"),
    .init(
      label: "a guard", document: #"<state id="open"><transition event="close" cond="dry" target="open"/></state>"#, line: 2,
      element: "<transition cond>", message: "no guard is bound to 'dry'"),
    .init(
      label: "an update", document: #"<state id="open"><onentry><fsm:update name="oil"/></onentry></state>"#, line: 2,
      element: "<update name>", message: "no update or make is bound to 'oil'"),
    .init(
      label: "a make", document: #"<state id="open"><onentry><log fsm:make="squeak"/></onentry></state>"#, line: 2,
      element: "<log fsm:make>", message: "no update or make is bound to 'squeak'"),
    .init(
      label: "an event", document: #"<state id="open"><onentry><raise event="slam"/></onentry></state>"#, line: 2,
      element: "<raise event>", message: "no event is bound to 'slam'"),
  ]

  @Test("every unbound name is an error naming its line", arguments: unbound)
  func unboundName(_ example: Unbound) {
    let text = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:fsm="urn:swift-state-machine:scxml">
      \(example.document)
      </scxml>
      """
    let bindings = SCXMLBindings<Door.State, Input, Lock, String>(state: Door.State.init(rawValue:), effect: { $0 })
    #expect {
      _ = try Chart(scxml: Data(text.utf8), file: "door.scxml", bindings: bindings)
    } throws: { error in
      guard let error = error as? SCXMLError, error.kind == .unbound, let problem = error.problems.first else { return false }
      return error.file == "door.scxml" && problem.line == example.line && problem.element == example.element
        && problem.message == example.message
    }
  }

  @Test("the plain reader reports a named cond as needing a datamodel, and ignores the Swift namespace")
  func plainReader() throws {
    #expect(throws: SCXMLError.self) {
      _ = try SCXMLDocument.parse(Data(Self.door.utf8), file: "door.scxml")
    }
    let plain = try SCXMLDocument.parse(Data(Self.door.replacingOccurrences(of: #" cond="code matches""#, with: "").utf8), file: "door.scxml")
    var door = ChartMachine(plain, context: NoContext())
    _ = try door.start()
    #expect(try door.send("lock").effects == [""])
  }

  @Test("a typed chart with payload events and context code reads back from its export and exports the same")
  func roundTrip() throws {
    let chart = try Chart(scxml: Data(Self.door.utf8), file: "door.scxml", bindings: Self.bindings)
    let again = try Chart(scxml: Data(chart.scxml().utf8), file: "door.scxml", bindings: chart.scxmlBindings)
    #expect(try again.scxml() == chart.scxml())
    #expect(again.markdown() == chart.markdown())
  }

  @Test("README: a shipped chart read back from its export with its own bindings")
  func readme() throws {
    let exported = try PhoneLogin.chart.scxml()
    let back = try Chart(scxml: Data(exported.utf8), file: "phone-login.scxml", bindings: PhoneLogin.chart.scxmlBindings)
    #expect(try back.scxml() == exported)
    var machine = ChartMachine(back, context: PhoneLogin.Context())
    _ = try machine.start()
    _ = try machine.send(.editPhone("13800138000"))
    #expect(machine.context.phone == "13800138000")
  }
}
