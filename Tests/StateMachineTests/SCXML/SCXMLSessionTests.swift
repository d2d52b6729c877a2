import Foundation
@testable import StateMachine
import Testing

/// The datamodel runtime of SCXML documents (`SCXMLSession` over an `SCXMLScriptEngine`,
/// through the chart machine's scripting hook), over a scripted engine that knows a few
/// expressions by name: what runs, in which order, and what fails, without JavaScriptCore.
@Suite("SCXML sessions: content blocks, failing guards, platform events and done data")
struct SCXMLSessionTests {
  /// An engine whose expressions are names: `ok` is `1`, `yes` and `no` are conditions, and
  /// anything else fails. Data are kept as JSON; everything it is asked is recorded.
  final class NamedEngine: SCXMLScriptEngine {
    struct Failure: Error {}
    /// Declared data (a `nil` value: declared, `undefined`).
    var data: [String: String?] = [:]
    var calls: [String] = []
    var active: Set<String> = []
    /// Whether restoring a snapshot fails (as a datamodel past its limits would).
    var failsRestore = false

    func value(_ expression: String) throws -> String? {
      calls.append(expression)
      switch expression {
      case "ok": return "1"
      case "yes": return "true"
      case "no": return "false"
      case "in": return active.contains("inner") ? "true" : "false"
      default:
        if let value = data[expression] { return value }
        throw Failure()
      }
    }
    func evaluate(_ expression: String) throws -> String? { try value(expression) }
    func text(of expression: String) throws -> String { try value(expression) ?? "undefined" }
    func condition(_ expression: String) throws -> Bool { try value(expression) == "true" }
    func elements(of expression: String) throws -> [String?] { _ = try value(expression); return ["1", "2"] }
    func declare(_ name: String, _ expression: String?) throws { data.updateValue(try expression.map(value) ?? nil, forKey: name) }
    func declare(_ name: String, json: String) throws { data.updateValue(json, forKey: name) }
    func assign(_ location: String, _ expression: String) throws {
      guard data.keys.contains(location) else { throw Failure() }
      data.updateValue(try value(expression), forKey: location)
    }
    func assign(_ location: String, json: String?) throws {
      guard data.keys.contains(location) else { throw Failure() }
      data.updateValue(json, forKey: location)
    }
    func isDeclared(_ location: String) -> Bool { data.keys.contains(location) }
    func run(_ script: String) throws { _ = try value(script) }
    func setSystemVariable(_ name: String, json: String) throws {}
    func setEvent(_ event: SCXMLEvent?) throws {
      data.updateValue(event.map { "\"\($0.name)\"" }, forKey: "_event.name")
      data.updateValue(event?.data, forKey: "_event.data")
    }
    func setActive(_ id: String, _ isActive: Bool) { if isActive { active.insert(id) } else { active.remove(id) } }
    func snapshotJSON() -> String {
      "{" + data.keys.sorted().filter { !$0.hasPrefix("_") }.map { "\"\($0)\":\((data[$0] ?? nil) ?? "null")" }.joined(separator: ",") + "}"
    }
    func restore(snapshotJSON json: String) throws {
      if failsRestore { throw Failure() }
      let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
      for (name, value) in object {
        data.updateValue(String(decoding: try JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed), as: UTF8.self), forKey: name)
      }
    }
  }

  /// Starts the document made of `body` on a `NamedEngine`; the machine and the engine.
  static func start(_ body: String) throws -> (ChartMachine<String, SCXMLEvent, SCXMLSession, String>, NamedEngine, ChartStep<SCXMLEvent, String>) {
    let chart = try SCXMLDocument.parseScripted(
      Data("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" datamodel=\"ecmascript\">\(body)</scxml>".utf8), file: "test.scxml", datamodel: { NamedEngine() })
    let engine = NamedEngine()
    var machine = ChartMachine(chart, context: SCXMLSession(engine: engine, sessionID: "s", name: chart.name))
    let step = try machine.start()
    return (machine, engine, step)
  }

  @Test("a failure stops its block, raises error.execution where it happened, and the next block runs")
  func blockStops() throws {
    let (machine, engine, step) = try Self.start("""
      <datamodel><data id="a"/><data id="b"/></datamodel>
      <state id="s"><onentry><log expr="ok"/><assign location="a" expr="bad"/><log expr="never"/></onentry>
        <onentry><assign location="b" expr="ok"/></onentry>
        <transition event="error.execution" target="caught"/></state>
      <final id="caught"/>
      """)
    #expect(machine.configuration == ["caught"])
    #expect(step.effects == ["1"], "the log before the failure ran, the one after it did not")
    #expect(engine.data["b"] == "1", "the next block ran")
    #expect(!engine.calls.contains("never"))
  }

  @Test("a cond that fails is false, and its error.execution comes before the content the step runs")
  func failingGuard() throws {
    let (machine, _, step) = try Self.start("""
      <state id="s"><transition cond="bad" target="wrong"/><transition target="t"/></state>
      <state id="t"><onentry><raise event="later"/></onentry>
        <transition event="error.execution" target="caught"/><transition event="later" target="wrong"/></state>
      <final id="caught"/><final id="wrong"/>
      """)
    #expect(machine.configuration == ["caught"])
    #expect(step.outcome != .unhandled)
  }

  @Test("a final state's donedata is the data of its parent's done event; done and error events are platform events")
  func doneData() throws {
    let (machine, engine, _) = try Self.start("""
      <datamodel><data id="seen"/><data id="kind"/></datamodel>
      <state id="p"><state id="inner"><transition target="end"/></state>
        <final id="end"><donedata><content expr="ok"/></donedata></final>
        <transition event="done.state.p" target="done"><assign location="seen" expr="_event.data"/></transition></state>
      <final id="done"/>
      """)
    #expect(machine.configuration == ["done"])
    #expect(engine.data["seen"] == "1")
    #expect(engine.data["_event.name"] == "\"done.state.p\"")
  }

  @Test("In() follows the states entered and exited, content ran in them seeing them active")
  func active() throws {
    let (machine, engine, _) = try Self.start("""
      <datamodel><data id="there"/></datamodel>
      <state id="outer"><state id="inner"><onentry><assign location="there" expr="in"/></onentry><transition target="gone"/></state></state>
      <state id="gone"/>
      """)
    #expect(machine.configuration == ["gone"])
    #expect(engine.data["there"] == "true", "inner was active in its own entry content")
    #expect(engine.active == ["gone"], "outer and inner were exited")
  }

  @Test("a store's session is read (data, hash, JSON, snapshot) from other tasks while 4 tasks send: every event handled, no race")
  func readWhileStepping() async throws {
    let chart = try SCXMLDocument.readStoreScripted(
      Data(
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" datamodel="ecmascript"><datamodel><data id="n"/></datamodel>
          <state id="s"><transition event="tick" target="s"><assign location="n" expr="ok"/><log expr="ok"/></transition></state></scxml>
        """.utf8), file: "ticks.scxml", datamodel: { NamedEngine() })
    let store = try Store(chart, context: SCXMLSession(for: chart, sessionID: "t"), handler: { _, _ in })
    store.start()
    let (senders, each) = (4, 200)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<senders {
        group.addTask { for _ in 0..<each { store.send(SCXMLEvent("tick")) } }
      }
      group.addTask {
        for _ in 0..<200 {
          let session = store.context
          _ = session.data
          _ = session.hashValue
          _ = try? JSONEncoder().encode(session)
          _ = store.snapshot.context.data
        }
      }
      await group.waitForAll()
    }
    await store.settle()
    #expect(store.stepCount == senders * each)
    #expect(store.context.data == #"{"n":1}"#)
    await store.finish()
  }

  @Test("a session read from JSON whose data its new datamodel cannot take raises error.execution, not silence")
  func restoreFails() throws {
    let chart = try SCXMLDocument.parseScripted(
      Data(
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" datamodel="ecmascript"><state id="s"><transition event="go" target="t"/></state>
          <state id="t"><onentry><log expr="ok"/></onentry><transition event="error.execution" target="failed"/></state><final id="failed"/></scxml>
        """.utf8), file: "restore.scxml",
      datamodel: {
        let engine = NamedEngine()
        engine.failsRestore = true
        return engine
      })
    let session = try JSONDecoder().decode(SCXMLSession.self, from: Data(#"{"sessionid":"r","name":"n","data":"{\"a\":1}"}"#.utf8))
    var machine = try ChartMachine(chart, restoring: ChartSnapshot(configuration: ["s"], history: [:], context: session))
    _ = try machine.send(SCXMLEvent("go"))
    #expect(machine.configuration == ["failed"])
  }
}
