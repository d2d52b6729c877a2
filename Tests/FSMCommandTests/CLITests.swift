import FSMTool
import Foundation
import FSMCommand
import StateMachine
import StateMachineExamples
import Testing

@Suite("The fsm command")
struct CLITests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
  static let planted = fixtures.appendingPathComponent("planted-bugs.md").path

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let arguments: [String]
    let code: Int32
    /// Text the standard output must contain (empty: must be empty).
    let output: String
    /// Text the standard error must contain (empty: must be empty).
    let error: String
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    .init(label: "no command", arguments: [], code: 2, output: "", error: "error: no command given"),
    .init(label: "unknown command", arguments: ["frobnicate"], code: 2, output: "", error: "error: unknown command 'frobnicate'"),
    .init(label: "help", arguments: ["--help"], code: 0, output: "usage: fsm <command>", error: ""),
    .init(label: "help for a command", arguments: ["help", "check"], code: 0, output: "usage: fsm check", error: ""),
    .init(label: "help --help", arguments: ["help", "--help"], code: 0, output: "usage: fsm <command>", error: ""),
    .init(label: "help for an unknown command", arguments: ["help", "nope"], code: 2, output: "", error: "unknown command 'nope'"),
    .init(label: "list", arguments: ["list"], code: 0, output: "cd-player     Boost.SML", error: ""),
    .init(label: "list --help", arguments: ["list", "--help"], code: 0, output: "usage: fsm list", error: ""),
    .init(label: "list with an extra argument", arguments: ["list", "x"], code: 2, output: "", error: "unexpected argument 'x'"),
    .init(label: "show --help", arguments: ["show", "--help"], code: 0, output: "usage: fsm show", error: ""),
    .init(label: "show, default table", arguments: ["show", "cd-player"], code: 0, output: "| from | event | guard | to | effects |", error: ""),
    .init(label: "show mermaid", arguments: ["show", "cd-player", "--format", "mermaid"], code: 0, output: "stateDiagram-v2\n    [*] --> empty", error: ""),
    .init(label: "show dot, inline value", arguments: ["show", "cd-player", "--format=dot"], code: 0, output: "digraph \"cd-player\" {", error: ""),
    .init(label: "show a system: its invoked child drawn in it", arguments: ["show", "upload-queue", "--format", "dot"], code: 0,
          output: "    subgraph cluster_child1 {\n        label=\"upload (child machine)\";", error: ""),
    .init(label: "show with a bad format", arguments: ["show", "cd-player", "--format", "svg"], code: 2, output: "",
          error: "option '--format': 'svg'; expected table, mermaid, dot or scxml"),
    .init(label: "show without a machine", arguments: ["show"], code: 2, output: "", error: "missing argument <machine>"),
    .init(label: "show an unknown machine", arguments: ["show", "jukebox"], code: 2, output: "",
          error: "unknown machine 'jukebox'; expected one of: login, loader, captcha, registration, phone-login, radio, upload-queue, upload, name-length, counter, cd-player"),
    .init(label: "show with an unknown option", arguments: ["show", "cd-player", "--colour"], code: 2, output: "", error: "unknown option '--colour'"),
    .init(label: "show a spec file", arguments: ["show", planted, "--format", "mermaid"], code: 0, output: "idle --> busy : go / start", error: ""),
    .init(label: "show a missing file", arguments: ["show", "/nonexistent/x.md"], code: 2, output: "", error: "/nonexistent/x.md: no such file"),
    .init(label: "check --help", arguments: ["check", "--help"], code: 0, output: "usage: fsm check", error: ""),
    .init(label: "check a clean machine", arguments: ["check", "cd-player"], code: 0, output: "clean: no findings", error: ""),
    .init(label: "check planted nondeterminism", arguments: ["check", planted], code: 1,
          output: "planted-bugs.md:18,19: problem: nondeterminism: rows 1, 2 all handle 'go' in 'idle'", error: ""),
    .init(label: "check planted unreachable state", arguments: ["check", planted], code: 1,
          output: "planted-bugs.md: unreachable: state 'ghost' is not reachable from 'idle'", error: ""),
    .init(label: "check counts the findings", arguments: ["check", planted], code: 1, output: "\n2 findings\n", error: ""),
    .init(label: "bench --help", arguments: ["bench", "--help"], code: 0, output: "usage: fsm bench", error: ""),
    .init(label: "bench with a bad scale", arguments: ["bench", "--scale", "zero"], code: 2, output: "",
          error: "option '--scale': 'zero'; expected a number"),
    .init(label: "bench with an unknown workload", arguments: ["bench", "--workload", "nope"], code: 2, output: "",
          error: "expected one of loader, cd-player, complex, store-effects, store-8-producers, replay, walk, explore"),
    .init(label: "bench option without a value", arguments: ["bench", "--repetitions"], code: 2, output: "",
          error: "option '--repetitions' needs a value"),
  ]

  @Test("exit codes and messages", arguments: cases)
  func command(_ c: Case) {
    let result = PackageFSM.run(c.arguments)
    #expect(result.code == c.code, "stdout: \(result.output)\nstderr: \(result.errorOutput)")
    if c.output.isEmpty { #expect(result.output.isEmpty) } else { #expect(result.output.contains(c.output), "\(result.output)") }
    if c.error.isEmpty { #expect(result.errorOutput.isEmpty) } else { #expect(result.errorOutput.contains(c.error), "\(result.errorOutput)") }
  }

  @Test("every usage error ends with a newline", arguments: [["frobnicate"], ["check"], ["show", "cd-player", "--format", "png"], ["explore", "x", "--depth", "-1"]])
  func usageEndsWithNewline(_ arguments: [String]) {
    let result = PackageFSM.run(arguments)
    #expect(result.code == 2)
    #expect(result.errorOutput.hasSuffix("\n"))
  }

  @Test("fsm explore takes every machine fsm list names, a system of machines among them", arguments: MachineCatalog.all.map(\.name))
  func everyListedMachineExplores(name: String) {
    let result = PackageFSM.run(["explore", name, "--depth", "12", "--walks", "5", "--seed", "1"])
    #expect(result.code == 0, "\(result.output)\(result.errorOutput)")
    #expect(result.output.contains("\nconfigurations: "), "\(result.output)")
    #expect(result.output.contains("walks: 5 walks"), "\(result.output)")
  }

  @Test("fsm explore upload-queue explores the queue with its uploads as one system: 91 configurations, its invariants kept")
  func exploreSystem() {
    let result = PackageFSM.run(["explore", "upload-queue"])
    #expect(result.code == 0, "\(result.errorOutput)")
    #expect(result.output.contains("configurations: 91 (depth 12)\n"), "\(result.output)")
    #expect(result.output.contains("  finished: add(a), succeeded to a\n"), "\(result.output)")
    #expect(!result.output.contains("violation"), "\(result.output)")
  }

  @Test("fsm explore names the rows never hit by what they do")
  func rowsNeverHitDescribed() {
    let result = PackageFSM.run(["explore", "captcha", "--depth", "2"])
    #expect(result.output.contains("never hit: row 4, row 5, row 6, row 7, row 8"), "\(result.output)")
    #expect(result.output.contains("  never taken: row 5: from requesting on codeSent -> counting"), "\(result.output)")
    // A chart names its transitions never taken the same way.
    let chart = PackageFSM.run(["explore", "loader", "--depth", "3"])
    #expect(chart.output.contains("  never taken: loading: failed / count failure -> retry"), "\(chart.output)")
    // One report for both kinds: the same sections, in the same order.
    let sections = { (output: String) in output.split(separator: "\n").compactMap { $0.first == " " ? nil : $0.split(separator: ":").first } }
    #expect(sections(result.output) == sections(chart.output), "\(result.output)\n\(chart.output)")
  }

  @Test("fsm check on a spec without a states table says no state is marked initial, not a bare initial")
  func initialWithoutStates() throws {
    let path = FileManager.default.temporaryDirectory.path + "/fsm-nostates-\(UInt32.random(in: 0...UInt32.max)).md"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try "| from | event | guard | to | effects |\n| --- | --- | --- | --- | --- |\n| idle | go |  | busy |  |\n"
      .write(toFile: path, atomically: true, encoding: .utf8)
    let result = PackageFSM.run(["check", path])
    #expect(result.output.contains("initial: (none marked; idle stands in)"))
    #expect(!result.output.contains("initial: idle\n"))
    #expect(result.output.contains("no initial state"))
  }

  @Test("fsm list prints one machine per line, name first")
  func listLines() {
    let lines = PackageFSM.run(["list"]).output.split(separator: "\n")
    #expect(lines.map { String($0.split(separator: " ")[0]) } == MachineCatalog.all.map(\.name))
  }

  @Test("show --format table of a shipped machine is the spec format: it reads back to the same text")
  func showRoundTrip() throws {
    let text = PackageFSM.run(["show", "cd-player"]).output
    let spec = try SpecDocument.parse(text, file: "cd-player.md")
    #expect(spec.table.markdown() == text)
  }

  @Test("A malformed spec fails with its line number, exit 2")
  func malformedSpec() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-bad-\(UInt32.random(in: 0...UInt32.max)).md")
    try "| from | event | guard | to | effects |\n| --- | --- | --- | --- | --- |\n| a | go |\n".write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = PackageFSM.run(["check", url.path])
    #expect(result.code == 2)
    #expect(result.errorOutput == "error: \(url.path):3: 2 cells; expected 5 (from, event, guard, to, effects)\n")
  }

  @Test("the FSMCommand library links no benchmarks and no examples: bench and the shipped machines are the package's fsm's")
  func benchIsNotInTheLibrary() {
    let result = FSM.run(["bench", "--workload", "cd-player"])
    #expect(result.code == 2)
    #expect(result.errorOutput.hasPrefix("error: unknown command 'bench'"), "\(result.errorOutput)")
    #expect(PackageFSM.run(["bench", "--help"]).output.hasPrefix("usage: fsm bench"))
    #expect(PackageFSM.run(["help", "bench"]).output.hasPrefix("usage: fsm bench"))
    #expect(FSM.run(["list"]).output.isEmpty, "the library alone knows no machines")
    #expect(FSM.run(["show", "cd-player"]).code == 2)
    #expect(PackageFSM.run(["show", "cd-player"]).code == 0)
  }

  @Test("Specs/ files are what fsm show prints for the shipped machines")
  func specsMatch() throws {
    let specs = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Specs")
    for machine in MachineCatalog.all {
      let url = specs.appendingPathComponent("\(machine.name).md")
      let text = try String(contentsOf: url, encoding: .utf8)
      let table = machine.render(.table)
      let mermaid = "```mermaid\n" + machine.render(.mermaid) + "```\n"
      #expect(text.contains(table), "\(url.path) differs from `fsm show \(machine.name)`; regenerate it with Scripts/regenerate-specs.sh")
      #expect(text.contains(mermaid), "\(url.path) differs from `fsm show \(machine.name) --format mermaid`; regenerate it with Scripts/regenerate-specs.sh")
    }
  }
}

extension CLITests {
  /// `fsm bench` blocks its thread while a store finishes (its closures are synchronous): two
  /// at once could hold both of a two-core machine's cooperative threads and wait forever for
  /// the tasks they wait on, so these run one after the other.
  @Suite("fsm bench", .serialized)
  struct Bench {
    /// A workload's notes are printed under the table whatever its baseline is called (the
    /// system workload's is a store's send, not a `switch`).
    @Test("bench prints the system workload's notes: the bytes of an idle child")
    func benchNotes() {
      let result = PackageFSM.run(["bench", "--workload", "system", "--scale", "0.0005", "--repetitions", "1"])
      #expect(result.code == 0, "\(result.errorOutput)")
      #expect(result.output.contains("system: idle_bytes_per_child = "), "\(result.output)")
    }

    @Test("bench --json prints every workload with its ratio to the switch")
    func benchJSON() throws {
      let result = PackageFSM.run(["bench", "--json", "--scale", "0.0005", "--repetitions", "1"])
      #expect(result.code == 0, "\(result.errorOutput)")
      let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
      // (`view` opens pages in a browser: listed where one is installed.)
      let browser: Set<String> = HeadlessChromium.path == nil ? [] : ["view"]
      #expect(Set(entries.compactMap { $0["workload"] as? String }) == Set(["loader", "cd-player", "complex", "store-effects", "store-8-producers", "replay", "walk", "explore", "spec-check", "chart", "chart-parallel", "chart-log-write", "shipped", "chart-walk", "chart-explore", "identity", "system", "system-explore"]).union(browser))
      // The page's own times, read once the openings are measured, are the view workload's notes.
      for entry in entries where entry["workload"] as? String == "view" {
        let notes = try #require(entry["notes"] as? [String: Double])
        #expect(notes["shown_ms_1_step"].map { $0 >= 0 } == true, "\(notes)")
        #expect(notes.keys.filter { $0.hasPrefix("shown_ms_step_") }.count == 2, "\(notes)")
      }
      for entry in entries {
        let variant = try #require(entry["variant"] as? String)
        let ratio = try #require(entry["ratio_to_switch"] as? Double)
        #expect((entry["ns_per_event"] as? Double).map { $0 > 0 } == true)
        if variant == "switch" || variant.hasPrefix("switch ") { #expect(ratio == 1) }
        #expect(ratio > 0)
      }
      // (The system workload's variants are stores of children and messages, and the checkers'
      // synchronous system, counted apart.)
      let frameworkVariants = entries.filter { $0["workload"] as? String != "system" }.compactMap { $0["variant"] as? String }
        .filter { !$0.contains("switch") && !$0.contains("dictionary") }
      let system = entries.filter { $0["workload"] as? String == "system" }.compactMap { $0["variant"] as? String }
      #expect(system.count == 13)
      // A child's start and stop, its machine shared by every start, and made for each.
      #expect(system.filter { $0.hasPrefix("child start and stop") }.count == 2)
      #expect(system.filter { $0.hasPrefix("MachineSystem.step") }.count == 2)
      // A chart parent's message is measured beside the chart parent's own plain send too.
      #expect(system.filter { $0.contains("parent chart's store.send") }.count == 1)
      // The parent's part of a message is measured beside the whole of it, for a table parent
      // and a chart parent.
      #expect(system.filter { $0.contains("Command.message") }.count == 5)
      // A parent messaging two children in turn (each message looks its child up anew).
      #expect(system.filter { $0.contains("two children in turn") }.count == 1)
      #expect(system.filter { $0.contains("Command.message") && $0.contains("chart") }.count == 2)
      #expect(frameworkVariants.contains("machine.send"))
      #expect(
        frameworkVariants.filter { $0.contains("store") }.count == 7,
        "store variants beside the bare step, a store recording to a file (each entry written at once, and batched), and the table store beside each chart store")
    }
  }
}
