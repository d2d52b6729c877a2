import FSMTool
import Foundation
import Testing

/// Every command runs a chart file that invokes others as the one system it is: `fsm demo` runs
/// it in a store with its children and records the system's one log, which `fsm replay` replays
/// (naming the child where it diverges) and `fsm view` shows; the simulator steps the system.
@Suite("SCXML <invoke> in the fsm commands: demo, record, replay, view")
struct SCXMLInvokeCLITests {
  /// The parent and its inline worker (see ``SCXMLInvokeTests/parent(_:running:)``), written to a
  /// folder of its own; `body` gets the document's path and the folder's.
  static func withDocument(_ body: (_ path: String, _ folder: String) async throws -> Void) async throws {
    let path = try SCXMLInvokeTests.write(SCXMLInvokeTests.parent(SCXMLInvokeTests.inline))
    defer { SCXMLInvokeTests.remove(path) }
    try await body(path, URL(fileURLWithPath: path).deletingLastPathComponent().path)
  }

  /// ``withDocument(_:)``, with the log `fsm demo --record` wrote of the document's `go`
  /// (the parent messages its worker, which finishes), at `log` in the folder.
  static func withRecording(_ body: (_ path: String, _ folder: String, _ log: String) async throws -> Void) async throws {
    try await withDocument { path, folder in
      let log = folder + "/session.jsonl"
      let (result, _) = await ExampleMachinesCLITests.demo([path, "--events", "go", "--record", log])
      try #require(result.code == 0, "\(result.errorOutput)")
      try await body(path, folder, log)
    }
  }

  @Test("fsm demo runs the document with its child in a store: each machine's step, the child's after its path, its end, and the events refused once the document halted")
  func demo() async throws {
    try await Self.withDocument { path, _ in
      let (result, text) = await ExampleMachinesCLITests.demo([path, "--events", "ping,go,go"])
      #expect(result.code == 0, "\(result.errorOutput)")
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(
        lines == [
          "parent (chart \(path), with the charts it invokes): 3 events given", "",
          "time    event                             from → to                                       effects",
          // The child starts with the document, and its first words move its parent.
          "0.0 s   (start)                           → busy                                          invoke worker as w (in state)",
          "0.0 s   started                           busy → running                                  -",
          // Without autoforward, the child does not hear its parent's events.
          "0.0 s   ping                              running → running (ignored)                     -",
          "0.0 s   go                                running → running                               send finish to #_w",
          "0.0 s   [w] finish                        working → done                                  worker: finishing",
          "0.0 s   [w] (finished)",
          "0.0 s   done.invoke.w                     running → finished                              -",
          "0.0 s   go                                (refused: the chart has halted (it reached a final state)) -",
          "", "ends in: finished (halted)",
        ], "\(text)")
    }
  }

  @Test("time passes in a demo: the child's delayed send fires after 1s, and its message moves the parent")
  func demoTime() async throws {
    try await Self.withDocument { path, _ in
      let (result, text) = await ExampleMachinesCLITests.demo([path, "--events", "after 500ms,after 500ms"])
      #expect(result.code == 0, "\(result.errorOutput)")
      #expect(text.contains("1.0 s   [w] tick                          working → working"), "\(text)")
      #expect(text.contains("1.0 s   tock                              running → ticked"), "\(text)")
      // Leaving the state cancelled the child.
      #expect(text.contains("1.0 s   [w] (cancelled)"), "\(text)")
      #expect(text.hasSuffix("ends in: ticked"), "\(text)")
    }
  }

  @Test("a demo's walk picks among the events from outside the system (never done.invoke.* or error.*), the same for the same seed, and stops when the document halts")
  func walk() async throws {
    try await Self.withDocument { path, _ in
      let (result, text) = await ExampleMachinesCLITests.demo([path, "--steps", "40", "--seed", "5"])
      #expect(result.code == 0, "\(result.errorOutput)")
      let (_, again) = await ExampleMachinesCLITests.demo([path, "--steps", "40", "--seed", "5"])
      #expect(text == again)
      let walked = text.split(separator: "\n").dropFirst(4).compactMap { line -> String? in
        let event = line.dropFirst(8).prefix { $0 != " " }
        return event.isEmpty || event.hasPrefix("[") ? nil : String(event)
      }
      let inputs: Set<String> = ["go", "leave", "nobody", "pong", "started", "tock"]
      // What the system raised itself is a step too, but was not picked: only `done.invoke.w`
      // and `error.communication` come from it, each after the event that caused it.
      let picked = walked.filter { $0 != "done.invoke.w" && $0 != "error.communication" }
      #expect(Set(picked).isSubset(of: inputs), "\(walked)")
      #expect(!picked.isEmpty)
      if text.hasSuffix("(halted)") { #expect(picked.count < 40, "a walk stops when the document halts") }
    }
  }

  @Test("fsm demo --record writes the system's one log: fsm replay replays it identical, its child's step with it, and fsm view shows the child's lane")
  func recordReplayView() async throws {
    try await Self.withRecording { path, folder, log in
      let replay = PackageFSM.run(["replay", path, log])
      #expect(replay.code == 0, "\(replay.output)\(replay.errorOutput)")
      #expect(replay.output == "\(log): replayed 3 entries and 1 child steps: identical\n")

      let page = folder + "/session.html"
      let view = PackageFSM.run(["view", path, log, "-o", page])
      #expect(view.code == 0, "\(view.errorOutput)")
      #expect(view.output == "\(page): 3 steps of parent, replays identically\n")
      let html = try String(contentsOfFile: page, encoding: .utf8)
      #expect(html.contains(#""lanes":[{"after":"#) && html.contains(#""path":"w""#), "the page has the child's lane")
    }
  }

  @Test("a child's step changed in the log is the divergence fsm replay reports, naming the child")
  func replayNamesTheChild() async throws {
    try await Self.withRecording { path, folder, log in
      let text = try String(contentsOfFile: log, encoding: .utf8)
      let changed = text.split(separator: "\n").map { line in
        line.contains(#""child":"w""#) && line.contains(#""event":"finish""#)
          ? line.replacingOccurrences(of: #"["done"]"#, with: #"["working"]"#) : String(line)
      }
      #expect(changed.joined(separator: "\n") != text.trimmingCharacters(in: .newlines))
      try Data((changed.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log))
      let replay = PackageFSM.run(["replay", path, log])
      #expect(replay.code == 1, "\(replay.output)\(replay.errorOutput)")
      #expect(replay.output.contains("child w"), "\(replay.output)")
      let view = PackageFSM.run(["view", path, log, "-o", folder + "/changed.html"])
      #expect(view.output.hasSuffix("diverges at step 3 (child w)\n"), "\(view.output)")
    }
  }

  @Test("the simulator of a document that invokes steps it with its children: as many configurations as fsm explore counts")
  func simulator() async throws {
    try await Self.withDocument { path, folder in
      let explored = PackageFSM.run(["explore", path])
      let count = try #require(explored.output.split(separator: "\n").first { $0.hasPrefix("configurations: ") })
        .dropFirst("configurations: ".count).prefix { $0 != " " }
      let page = folder + "/simulator.html"
      let view = PackageFSM.run(["view", path, "-o", page])
      #expect(view.code == 0, "\(view.errorOutput)")
      #expect(view.output == "\(page): simulator of parent, \(count) configurations\n")
      // Each way to go carries the log lines of the child's steps too (as JSON in the page's).
      let html = try String(contentsOfFile: page, encoding: .utf8)
      #expect(html.contains(#"child\":\"w\",\"ended\":\"finished\""#), "the simulator's paths carry the child's lines")
    }
  }

  @Test("fsm check finds what is wrong in the charts a document invokes, each finding led by its invocation, and a done.invoke.<id> that never comes")
  func check() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-check-\(UInt64.random(in: 0...UInt64.max))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // The worker never halts (no final state), has a state nothing enters, and a transition its
    // twin before it always takes.
    let worker = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a" name="worker">
        <state id="a"><transition event="x" target="b"/><transition event="x" target="c"/></state>
        <state id="b"/><state id="c"/><state id="orphan"/>
      </scxml>
      """
    let parent = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
        <state id="s"><invoke id="k" src="worker.scxml"/><transition event="done.invoke.k" target="f"/></state>
        <final id="f"/>
      </scxml>
      """
    try Data(worker.utf8).write(to: URL(fileURLWithPath: folder + "/worker.scxml"))
    try Data(parent.utf8).write(to: URL(fileURLWithPath: folder + "/parent.scxml"))
    let result = PackageFSM.run(["check", folder + "/parent.scxml"])
    #expect(result.code == 1, "\(result.output)\(result.errorOutput)")
    let file = folder + "/parent.scxml"
    let place = "the chart invoked as 'k' in 's' (worker.scxml)"
    #expect(
      result.output.split(separator: "\n").dropFirst(2).map(String.init) == [
        "\(file): unreachable: \(place): state 'orphan' is not reachable from the start",
        "\(file): problem: \(place): in 'a', the transition 'x' never fires: 'x' before it always matches first",
        "\(file): problem: a transition waits for 'done.invoke.k', which never comes: \(place) has no final state at its top level, so it never halts",
        "3 findings",
      ], "\(result.output)")

    // With a final state the worker halts, and its done event comes: its own findings remain.
    try Data(worker.replacingOccurrences(of: #"<state id="c"/>"#, with: #"<final id="c"/>"#).utf8).write(to: URL(fileURLWithPath: folder + "/worker.scxml"))
    let fixed = PackageFSM.run(["check", file])
    #expect(fixed.output.hasSuffix("2 findings\n"), "\(fixed.output)")
    #expect(!fixed.output.contains("never comes"), "\(fixed.output)")
  }
}
