#if ECMAScript
import Foundation
import FSMCommand
import StateMachine
import StateMachineChecking
import StateMachineECMAScript
import Testing

/// A differential fuzzer of ECMAScript documents that invoke others: each mutated document
/// that `fsm run` runs without an error runs in a store (on a manual clock) and in a synchronous
/// system too, and both must leave the configuration `fsm run` left, after the start and after
/// every input. The pieces bring what the datamodel adds to `<invoke>`: params, `idlocation`,
/// `<finalize>`, `targetexpr`, `namelist` and done data, a param that fails
/// (`error.execution`), conditions on what the children said, and messages as an invoking state
/// is left and after. `FSM_ECMASCRIPT_FUZZ_COUNT` documents (600 by default).
@Suite("Fuzzing ECMAScript <invoke>: a store and a system take the configurations fsm run takes")
struct ECMAScriptInvokeFuzzTests {
  static let count = ProcessInfo.processInfo.environment["FSM_ECMASCRIPT_FUZZ_COUNT"].flatMap(Int.init) ?? 600

  /// Counts its `step`s up to its param `limit`, telling its parent `progress` (with `n`) on
  /// each, and is done at the limit (its done data `total`); answers `ping` with `pong`.
  static let worker = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="worker" initial="counting">
      <datamodel><data id="limit" expr="2"/><data id="n" expr="0"/></datamodel>
      <state id="counting">
        <onentry><send target="#_parent" event="started"/></onentry>
        <transition event="step" cond="n + 1 &lt; limit"><assign location="n" expr="n + 1"/><send target="#_parent" event="progress" namelist="n"/></transition>
        <transition event="step" target="done"><assign location="n" expr="n + 1"/></transition>
        <transition event="ping"><send target="#_parent" event="pong"/></transition>
      </state>
      <final id="done"><donedata><param name="total" expr="n"/></donedata></final>
    </scxml>
    """

  /// The document mutated: a boss invoking the worker with a param and a `<finalize>` in
  /// `session`, whose `running` steps it and reacts to what it says.
  static let boss = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="boss" initial="session">
      <datamodel><data id="n" expr="0"/><data id="got" expr="0"/><data id="kid" expr="'none'"/></datamodel>
      <state id="session" initial="busy">
        <invoke id="w"><param name="limit" expr="3"/><finalize><assign location="got" expr="got + 1"/></finalize><content>\(worker)</content></invoke>
        <state id="busy"><transition event="started" target="running"/></state>
        <state id="running">
          <transition event="go"><send target="#_w" event="step"/></transition>
          <transition event="nobody"><send target="#_nobody" event="step"/></transition>
          <transition event="progress" cond="got &gt; 2" target="counted"/>
          <transition event="done.invoke.w" cond="_event.data.total == 3" target="finished"/>
          <transition event="error.communication" target="unreachable"/>
          <transition event="error.execution" target="broken"/>
        </state>
        <transition event="leave" target="idle"/>
      </state>
      <state id="idle"><transition event="back" target="session"/></state>
      <final id="finished"/><state id="counted"/><state id="unreachable"/><state id="broken"/>
    </scxml>
    """

  static let pieces = [
    "<assign location=\"n\" expr=\"n + 1\"/>", "<send target=\"#_w\" event=\"ping\"/>", "<send targetexpr=\"'#_' + kid\" event=\"step\"/>",
    "<raise event=\"go\"/>", "<send event=\"go\" delay=\"1s\"/>", "<script>n = n * 2 + got</script>",
    "<invoke idlocation=\"kid\"><param name=\"limit\" expr=\"n + 1\"/><content>\(worker)</content></invoke>",
    "<invoke id=\"q\" autoforward=\"true\"><content>\(worker)</content></invoke>",
    "<invoke id=\"bad\"><param name=\"limit\" expr=\"nothing.here\"/><content>\(worker)</content></invoke>",
    "<if cond=\"n &gt; 0\"><send target=\"#_w\" event=\"step\"/><else/><raise event=\"x\"/></if>",
    "<transition event=\"x\" target=\"running\"><send target=\"#_w\" event=\"ping\"/></transition>",
    "<transition event=\"pong\" cond=\"n == 0\" target=\"counted\"/>",
    "<transition event=\"error.communication\"><assign location=\"n\" expr=\"n + 10\"/></transition>",
    "<transition event=\"progress\" cond=\"_event.data.n == 1\" target=\"counted\"/>", "<onexit><send target=\"#_w\" event=\"step\"/></onexit>",
    "<finalize><assign location=\"n\" expr=\"n + 1\"/></finalize>", "<transition event=\"done.invoke\" target=\"idle\"/>",
  ].map { Array($0.utf8) }

  /// The inputs each run takes, six of them (`after 1s` lets a second pass; not in a system).
  static let inputs = ["started", "go", "ping", "leave", "back", "nobody", "x", "step", "pong"]

  /// The configuration lines of a store of `chart` on a manual clock, as `fsm run` prints them.
  static func store(_ chart: ECMAScriptChart, inputs: [String]) async throws -> [String] {
    let clock = ManualClock()
    let store = try Store(chart, context: SCXMLSession(for: chart, sessionID: "store"), clock: clock, handler: { _, _ in })
    var lines: [String] = []
    func line(_ input: String) { lines.append("\(input) -> [\(store.configuration.sorted().joined(separator: ", "))]" + (store.isHalted ? " (halted)" : "")) }
    store.start()
    await store.settle()
    line("start")
    for input in inputs {
      if input.hasPrefix("after "), let delay = SCXMLDocument.duration(String(input.dropFirst("after ".count))) {
        await clock.advance(by: delay)
      } else {
        store.send(SCXMLEvent(input))
      }
      await store.settle()
      line(input)
    }
    await store.finish()
    #expect(store.children.isEmpty)
    return lines
  }

  /// The configuration lines of a synchronous system of `chart` (no time passes there).
  static func system(_ chart: ECMAScriptChart, inputs: [String]) throws -> [String] {
    var system = SystemMachine(MachineSystem(chart: chart), context: SCXMLSession(for: chart, sessionID: "system"))
    try system.begin()
    var lines = ["start -> [\(system.configuration.root.sorted().joined(separator: ", "))]"]
    for input in inputs {
      _ = try system.step(.root(SCXMLEvent(input)))
      lines.append("\(input) -> [\(system.configuration.root.sorted().joined(separator: ", "))]")
    }
    return lines
  }

  /// Runs `fsm run` on mutated documents, and `runner` (`name`) on each it ran without an error:
  /// `runner`'s lines must be `fsm run`'s (without the marks of a halt unless `marksHalts`).
  static func agree(
    _ name: String, seed: UInt64, time: Bool, marksHalts: Bool, runner: (ECMAScriptChart, [String]) async throws -> [String]
  ) async throws {
    try await ECMAScriptStoreTests.inFolder { folder in
      let path = folder + "/boss.scxml"
      var generator = SplitMix64(seed: seed)
      var compared = 0
      for _ in 0..<count {
        var bytes = Array(boss.utf8)
        for _ in 0..<(1 + Int(generator.next() % 2)) {
          let ends = bytes.indices.filter { bytes[$0] == UInt8(ascii: ">") }
          bytes.insert(contentsOf: pieces[Int(generator.next() % UInt64(pieces.count))], at: ends[Int(generator.next() % UInt64(ends.count))] + 1)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var chosen = (0..<(time ? 5 : 6)).map { _ in inputs[Int(generator.next() % UInt64(inputs.count))] }
        if time { chosen.insert("after 1s", at: Int(generator.next() % 6)) }
        let run = ECMAScriptStoreTests.fsm(["run", path, "--events", chosen.joined(separator: ",")])
        guard run.code == 0, let chart = try? ECMAScriptChart(ecmascript: Data(bytes), file: path) else { continue }
        compared += 1
        let expected = run.output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("  ") && $0.contains(" -> [") }
          .map { marksHalts ? $0 : $0.replacingOccurrences(of: " (halted)", with: "") }
        let lines: [String]
        do {
          lines = try await runner(chart, chosen)
        } catch {
          Issue.record("the \(name) failed where fsm run did not: \(error)\n\(text)")
          return
        }
        if lines != expected {
          Issue.record("the \(name) and fsm run differ on \(chosen):\nfsm run:\n\(expected.joined(separator: "\n"))\n\(name):\n\(lines.joined(separator: "\n"))\n\(text)")
          return
        }
      }
      #expect(compared > count / 8, "\(compared) documents compared")
    }
  }

  @Test("mutated ECMAScript invoking documents: a store takes the configurations fsm run takes, input by input")
  func storeAgreesWithRun() async throws {
    try await Self.agree("store", seed: 0xEC_A6EE, time: true, marksHalts: true) { try await Self.store($0, inputs: $1) }
  }

  @Test("mutated ECMAScript invoking documents: a system takes the configurations fsm run takes, input by input")
  func systemAgreesWithRun() async throws {
    try await Self.agree("system", seed: 0xEC_5A6E, time: false, marksHalts: false) { try Self.system($0, inputs: $1) }
  }
}
#endif
