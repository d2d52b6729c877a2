import Foundation
import StateMachine

/// The `fsm` command: inspect, check and benchmark the shipped machines and spec files.
public enum FSM {
  static let help = """
    fsm: explicit finite-state machines, as transition tables

    usage: fsm <command> [options]

    commands:
      list                     the machines it knows (the package's examples), one per line, name first
      show <machine|spec.md>   print a machine as a table, Mermaid or Graphviz DOT
      check <machine|spec.md>  validate and analyse a machine; exit 1 when there are findings
      replay <machine> <log>   replay an event log against the machine; exit 1 at a divergence
      view <machine> <log>     write a log as a page to scrub through (one HTML file)
      explore <machine>        exhaustive exploration: coverage, shortest paths, violations
      demo <machine>           a scripted run (or given events, or a random walk), step by step
      run <chart.scxml>        walk through an SCXML chart: events from stdin or --events
      conform <path>...        run SCION-style SCXML conformance tests (chart + trace)
      bench                    measure the step against hand-written baselines (use -c release;
                               the package's own fsm only)
      help [command]           this text, or a command's

    <machine> is a name from `fsm list`, the path of a Markdown spec file in the format
    `fsm show --format table` prints, or the path of an SCXML chart (.scxml); every command
    that takes a machine takes all three. Every command takes --help. To run these commands
    over your own Swift machines, build a `Catalog` and call `FSM.main(_:catalog:)` (library
    product `FSMCommand`).

    exit codes: 0 success, 1 findings or a divergence, 2 bad usage or unreadable input
    """

  /// The machines the commands take by name: none unless given (the package's `fsm` gives the
  /// package's examples).
  @TaskLocal static var catalog = Catalog(machines: [])

  /// A command an executable adds to the library's (the package's own `fsm` adds `bench`,
  /// whose workloads are not in this library). An empty `help` keeps it out of `fsm help`.
  package struct Added: Sendable {
    package let run: @Sendable ([String]) -> CommandResult
    package let help: String

    package init(run: @escaping @Sendable ([String]) -> CommandResult, help: String) { (self.run, self.help) = (run, help) }
  }

  /// The commands added by the executable running the library (see ``Added``).
  @TaskLocal package static var added: [String: Added] = [:]

  /// Makes an ECMAScript datamodel for an SCXML session, when the executable was built with
  /// the `ECMAScript` trait (the package's `fsm` sets it then); `nil`: a document that needs
  /// the datamodel is refused, naming the trait.
  @TaskLocal package static var ecmascript: DatamodelMaker? = nil

  /// Makes a datamodel for each SCXML session (a task-local value is a struct: an optional
  /// closure as one was miscompiled in release builds).
  package struct DatamodelMaker: Sendable {
    package let make: @Sendable () -> any SCXMLScriptEngine
    package init(_ make: @escaping @Sendable () -> any SCXMLScriptEngine) { self.make = make }
  }

  /// What a document that needs the ECMAScript datamodel is told when there is none.
  static let enableECMAScript =
    "needs the ECMAScript datamodel: build fsm with the ECMAScript trait (swift build --traits ECMAScript; "
    + "libjavascriptcoregtk-4.1-dev on Linux), or link the StateMachineECMAScript product"

  /// Runs the command line `arguments` (without the program name) over `catalog` (your own
  /// machines; see ``Catalog``), or over the catalog the caller runs in when it is `nil`.
  public static func run(_ arguments: [String], catalog: Catalog? = nil) -> CommandResult {
    guard let catalog else { return command(arguments) }
    return $catalog.withValue(catalog) { command(arguments) }
  }

  /// Runs the command line `arguments` over the catalog in effect.
  static func command(_ arguments: [String]) -> CommandResult {
    guard let command = arguments.first else { return .usage("no command given", help: help) }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "list": return ListCommand.run(rest)
    case "show": return ShowCommand.run(rest)
    case "check": return CheckCommand.run(rest)
    case "replay": return ReplayCommand.run(rest)
    case "view": return ViewCommand.run(rest)
    case "explore": return ExploreCommand.run(rest)
    case "conform": return ConformCommand.run(rest)
    case "run": return RunCommand.run(rest)
    case "demo":
      return .failure("`demo` runs asynchronously: call FSM.run(_:catalog:streaming:) (the fsm executable does)")
    case "help", "--help", "-h":
      guard let topic = rest.first, topic != "--help", topic != "-h" else { return .success(help + "\n") }
      guard let text = helpText(for: topic) else { return .usage("unknown command '\(topic)'", help: help) }
      return .success(text + "\n")
    default:
      if let added = added[command] { return added.run(rest) }
      return .usage("unknown command '\(command)'", help: help)
    }
  }

  static func helpText(for command: String) -> String? {
    switch command {
    case "list": ListCommand.help
    case "show": ShowCommand.help
    case "check": CheckCommand.help
    case "replay": ReplayCommand.help
    case "view": ViewCommand.help
    case "explore": ExploreCommand.help
    case "conform": ConformCommand.help
    case "run": RunCommand.help
    case "demo": DemoCommand.help
    default: added[command].flatMap { $0.help.isEmpty ? nil : $0.help }
    }
  }

  /// Runs the command line like ``run(_:catalog:)``, and also the commands that print as they
  /// go (`demo`), handing each of their lines to `emit` as it happens.
  public static func run(
    _ arguments: [String], catalog: Catalog? = nil, streaming emit: @escaping @Sendable (String) -> Void
  ) async -> CommandResult {
    guard let catalog else { return await streamed(arguments, emit: emit) }
    return await $catalog.withValue(catalog) { await streamed(arguments, emit: emit) }
  }

  /// Runs the command line over the catalog in effect, streaming a demo's lines to `emit`.
  static func streamed(_ arguments: [String], emit: @escaping @Sendable (String) -> Void) async -> CommandResult {
    if arguments.first == "demo" { return await DemoCommand.run(Array(arguments.dropFirst()), emit: emit) }
    return command(arguments)
  }

  /// Runs the command line over `catalog` (your own machines; see ``Catalog``), or the catalog
  /// the caller runs in when it is `nil`, and prints its output; returns the exit code: the
  /// command's, or 74 when the output could not be written (a closed standard output, or a
  /// broken pipe with SIGPIPE ignored), said on standard error.
  public static func main(_ arguments: [String], catalog: Catalog? = nil) async -> Int32 {
    let output = StandardOutput()
    let result = await run(arguments, catalog: catalog) { line in output.write(line + "\n") }
    if !result.output.isEmpty { output.write(result.output) }
    if !result.errorOutput.isEmpty { printToStandardError(result.errorOutput) }
    if let failed = output.failed {
      printToStandardError("fsm: cannot write the output: \(failed)\n")
      return StandardOutput.failureCode
    }
    return result.code
  }
}
