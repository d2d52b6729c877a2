import FSMCommand
import StateMachineExamples
import Synchronization
import Testing

/// `fsm list`, `check`, `explore` and `demo` over the example machines.
@Suite("fsm over the example machines")
struct ExampleMachinesCLITests {
  static let names = ["login", "loader", "captcha", "registration", "phone-login", "radio", "name-length", "counter"]

  @Test func listShowsEveryExample() {
    let listed = FSM.run(["list"]).output.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
    #expect(Set(Self.names).isSubset(of: listed), "\(listed)")
  }

  @Test(arguments: names) func checkIsClean(_ name: String) {
    let result = FSM.run(["check", name])
    #expect(result.code == 0)
    #expect(result.output.hasSuffix("clean: no findings\n"), "\(result.output)")
  }

  @Test(arguments: ["login", "loader", "captcha", "registration", "phone-login", "radio"])
  func exploreFindsNoViolation(_ name: String) {
    let result = FSM.run(["explore", name, "--depth", "10", "--walks", "50", "--seed", "7"])
    #expect(result.code == 0, "\(result.output)")
    #expect(result.output.contains("walks: 50 walks"), "\(result.output)")
  }

  static func demo(_ arguments: [String]) async -> (CommandResult, String) {
    let lines = Mutex<[String]>([])
    let result = await FSM.run(["demo"] + arguments) { line in lines.withLock { $0.append(line) } }
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
    let result = FSM.run(["demo", "login"])
    #expect(result.code == 2)
    #expect(result.errorOutput.contains("FSM.run(_:streaming:)"))
  }
}
