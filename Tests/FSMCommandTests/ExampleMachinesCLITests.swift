import FSMTool
import Foundation
import FSMCommand
import StateMachineExamples
import Synchronization
import Testing

/// `fsm list`, `check`, `explore` and `demo` over the example machines.
@Suite("fsm over the example machines")
struct ExampleMachinesCLITests {
  static let names = ["login", "loader", "captcha", "registration", "phone-login", "radio", "upload-queue", "upload", "name-length", "counter"]

  @Test func listShowsEveryExample() {
    let listed = PackageFSM.run(["list"]).output.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
    #expect(Set(Self.names).isSubset(of: listed), "\(listed)")
  }

  @Test(arguments: names) func checkIsClean(_ name: String) {
    let result = PackageFSM.run(["check", name])
    #expect(result.code == 0)
    #expect(result.output.hasSuffix("clean: no findings\n"), "\(result.output)")
  }

  @Test(arguments: ["login", "loader", "captcha", "registration", "phone-login", "radio"])
  func exploreFindsNoViolation(_ name: String) {
    let result = PackageFSM.run(["explore", name, "--depth", "10", "--walks", "50", "--seed", "7"])
    #expect(result.code == 0, "\(result.output)")
    #expect(result.output.contains("walks: 50 walks"), "\(result.output)")
  }

  static func demo(_ arguments: [String]) async -> (CommandResult, String) {
    let lines = Mutex<[String]>([])
    let result = await PackageFSM.run(["demo"] + arguments) { line in lines.withLock { $0.append(line) } }
    return (result, lines.withLock { $0.joined(separator: "\n") })
  }

  @Test func phoneLoginDemoShowsTheCountdownAndTheOutcome() async {
    let (result, text) = await Self.demo(["phone-login", "--speed", "0"])
    #expect(result.code == 0)
    #expect(text.contains("codeSent"))
    for remaining in [60, 59, 30, 1] { #expect(text.contains("code button: \(remaining) s"), "\(remaining) s") }
    #expect(text.contains("loginFailed(\"wrong verification code\")"))
    #expect(text.contains("submitting, counting → loggedIn, counting"))
    // The last tick leaves `counting`, which ends its ticker: no cancel needed.
    #expect(text.contains("loggedIn, counting → loggedIn, idle                   -  | code button: resend, welcome, Li Lei"))
    #expect(text.contains("after 63.0 s of clock time: loggedIn, idle"))
  }

  @Test(arguments: MachineCatalog.demos.map(\.name)) func everyDemoRuns(_ name: String) async {
    let (result, text) = await Self.demo([name, "--speed", "0"])
    #expect(result.code == 0)
    #expect(text.hasPrefix("\(name): "))
    #expect(text.contains("of clock time: "))
  }

  struct BadDemo: Sendable, CustomTestStringConvertible {
    let label: String
    let arguments: [String]
    let error: String
    var testDescription: String { label }
  }

  @Test(arguments: [
    BadDemo(label: "no machine", arguments: [], error: "missing argument <machine>"),
    BadDemo(label: "a machine without a demo", arguments: ["cd-player"], error: "no demo for 'cd-player'; expected one of: login, loader"),
    BadDemo(label: "a negative speed", arguments: ["login", "--speed", "-1"], error: "option '--speed'"),
    BadDemo(label: "two machines", arguments: ["login", "loader"], error: "unexpected argument 'loader'"),
  ])
  func badDemoUsage(_ bad: BadDemo) async {
    let (result, text) = await Self.demo(bad.arguments)
    #expect(result.code == 2)
    #expect(text.isEmpty)
    #expect(result.errorOutput.contains(bad.error), "\(result.errorOutput)")
  }

  @Test func theSynchronousEntryPointPointsToTheStreamingOne() {
    let result = PackageFSM.run(["demo", "login"])
    #expect(result.code == 2)
    #expect(result.errorOutput.contains("FSM.run(_:catalog:streaming:)"))
  }
}

/// The recorded sessions in `Specs/`: each replays, through `fsm replay`, against its machine
/// and (for tables) against its spec file; each is what the machine's demo records today.
@Suite("Recorded example sessions in Specs/")
struct RecordedSessionTests {
  static let specs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Specs")

  static func session(_ name: String) -> String { specs.appendingPathComponent("\(name).session.jsonl").path }

  @Test("fsm replay <machine> Specs/<machine>.session.jsonl is identical", arguments: MachineCatalog.demos.map(\.name))
  func replays(_ name: String) {
    let result = PackageFSM.run(["replay", name, Self.session(name)])
    #expect(result.code == 0, "\(result.output)\(result.errorOutput)")
    #expect(result.output.contains(": identical"), "\(result.output)")
    // A system's session replays its children's steps too.
    if name == "upload-queue" { #expect(result.output.contains("entries and 11 child steps: identical"), "\(result.output)") }
  }

  @Test("a table machine's session also replays against its spec file, by names", arguments: ["login", "captcha", "registration", "name-length", "counter"])
  func replaysAgainstTheSpec(_ name: String) {
    let result = PackageFSM.run(["replay", Self.specs.appendingPathComponent("\(name).md").path, Self.session(name)])
    #expect(result.code == 0, "\(result.output)\(result.errorOutput)")
    #expect(result.output.contains(": identical"), "\(result.output)")
    // A system's session replays its children's steps too.
    if name == "upload-queue" { #expect(result.output.contains("entries and 11 child steps: identical"), "\(result.output)") }
  }

  @Test("each session is what the demo records now (regenerate with Scripts/regenerate-specs.sh)", arguments: MachineCatalog.demos.map(\.name))
  func upToDate(_ name: String) async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-session-\(name)-\(UInt32.random(in: 0...UInt32.max)).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = await PackageFSM.run(["demo", name, "--speed", "0", "--record", path]) { _ in }
    #expect(result.code == 0, "\(result.errorOutput)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: Self.session(name))),
            "Specs/\(name).session.jsonl differs from what `fsm demo \(name) --record` writes; run Scripts/regenerate-specs.sh")
  }

  @Test("a log that the spec does not allow, or of another machine, is reported")
  func specReplayDiverges() throws {
    let text = try String(contentsOfFile: Self.session("login"), encoding: .utf8)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-login-\(UInt32.random(in: 0...UInt32.max)).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    // The first `start` logged as going to `success`, which no row allows from `welcome`.
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[1] = lines[1].replacingOccurrences(of: #""state":"credentials""#, with: #""state":"success""#)
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    let result = PackageFSM.run(["replay", Self.specs.appendingPathComponent("login.md").path, path])
    #expect(result.code == 1, "\(result.output)\(result.errorOutput)")
    #expect(result.output.contains("entry 1 (line 2), event start:\n  step from welcome: expected transitioned to success (as logged), got credentials in the spec"), "\(result.output)")
    let other = PackageFSM.run(["replay", Self.specs.appendingPathComponent("captcha.md").path, Self.session("login")])
    #expect(other.code == 2)
    #expect(other.errorOutput.contains("recorded by machine 'login', not 'captcha'"), "\(other.errorOutput)")
  }
}

/// `fsm demo` and `fsm explore` on the user's own files: spec tables and charts.
@Suite("fsm demo and explore on spec and chart files")
struct FileCommandTests {
  static let specs = RecordedSessionTests.specs

  static func run(_ arguments: [String]) async -> (CommandResult, String) {
    let lines = Mutex<[String]>([])
    let result = await PackageFSM.run(arguments) { line in lines.withLock { $0.append(line) } }
    return (result, lines.withLock { $0.joined(separator: "\n") } + result.output)
  }

  @Test("a spec file plays the events given, with entry and row effects")
  func specDemo() async {
    let (result, text) = await Self.run(["demo", Self.specs.appendingPathComponent("login.md").path, "--events", "start,submit,editUsername,reset"])
    #expect(result.code == 0, "\(result.errorOutput)")
    #expect(text.contains("start                             welcome → credentials"), "\(text)")
    #expect(text.contains("ends in: welcome"), "\(text)")
  }

  @Test("a random walk over a spec is the same for the same seed")
  func specWalk() async {
    let path = Self.specs.appendingPathComponent("captcha.md").path
    let (_, a) = await Self.run(["demo", path, "--steps", "20", "--seed", "7"])
    let (_, b) = await Self.run(["demo", path, "--steps", "20", "--seed", "7"])
    let (_, c) = await Self.run(["demo", path, "--steps", "20", "--seed", "8"])
    #expect(a == b)
    #expect(a != c)
    #expect(a.contains("a random walk of 20 events, seed 7"))
  }

  @Test("a chart file plays its events on a virtual clock")
  func chartDemo() async {
    let (result, text) = await Self.run(["demo", Self.specs.appendingPathComponent("player.scxml").path, "--events", "power,play,after 2s,power"])
    #expect(result.code == 0, "\(result.errorOutput)")
    #expect(text.contains("off → stopped, normal"), "\(text)")
    #expect(text.contains("2.0 s   power"), "\(text)")
  }

  @Test("fsm explore on a spec: every row hit, a shortest path to each state; a dead end fails")
  func specExplore() throws {
    let result = PackageFSM.run(["explore", Self.specs.appendingPathComponent("login.md").path])
    #expect(result.code == 0)
    #expect(result.output.contains("coverage: rows 8/8, states 4/4"), "\(result.output)")
    #expect(result.output.contains("  authenticating: start, submit"), "\(result.output)")
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-dead-\(UInt32.random(in: 0...UInt32.max)).md").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try """
      - machine: `door`

      | state | role | entry | exit |
      | --- | --- | --- | --- |
      | closed | initial |  |  |
      | stuck |  |  |  |

      | from | event | guard | to | effects |
      | --- | --- | --- | --- | --- |
      | closed | push | jammed | stuck |  |
      | closed | push |  | (stay) |  |
      """.write(toFile: path, atomically: true, encoding: .utf8)
    let stuck = PackageFSM.run(["explore", path])
    #expect(stuck.code == 1, "\(stuck.output)")
    #expect(stuck.output.contains("  stuck: push [jammed]"), "\(stuck.output)")
    #expect(stuck.output.contains("violation: dead end: stuck"), "\(stuck.output)")
  }
}

@Suite("Logs written before the examples' payloads were named")
struct PositionalPayloadLogTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// Sessions recorded when a payload was written `{"editPhone":{"_0":"138…"}}`: the examples'
  /// events read `_0` as the field's name, so these logs replay as they did.
  @Test("an old log with _0 payloads still replays identically", arguments: ["login", "phone-login", "loader"])
  func oldLogsReplay(_ name: String) throws {
    let path = Self.fixtures.appendingPathComponent("\(name)-positional.session.jsonl").path
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""_0""#), "the fixture is in the old form")
    let result = PackageFSM.run(["replay", name, path])
    #expect(result.code == 0, "\(result.output)\(result.errorOutput)")
    #expect(result.output.contains(": identical"), "\(result.output)")
    // A system's session replays its children's steps too.
    if name == "upload-queue" { #expect(result.output.contains("entries and 11 child steps: identical"), "\(result.output)") }
  }

  @Test("payloads are written by name now")
  func namedNow() throws {
    let text = try String(contentsOf: RecordedSessionTests.specs.appendingPathComponent("phone-login.session.jsonl"), encoding: .utf8)
    #expect(!text.contains(#""_0""#))
    #expect(text.contains(#"{"editPhone":{"text":"13800138000"}}"#))
    #expect(text.contains(#"{"loginFailed":{"message":"wrong verification code"}}"#))
  }
}
