import StateMachine
import StateMachineExamples

/// The `fsm` command: inspect, check and benchmark the shipped machines and spec files.
public enum FSM {
  static let help = """
    fsm: explicit finite-state machines, as transition tables

    usage: fsm <command> [options]

    commands:
      list                     the machines shipped with the package, one per line, name first
      show <machine|spec.md>   print a machine as a table, Mermaid or Graphviz DOT
      check <machine|spec.md>  validate and analyse a machine; exit 1 when there are findings
      replay <machine> <log>   replay an event log against the machine; exit 1 at a divergence
      explore <machine>        exhaustive exploration: coverage, shortest paths, violations
      bench                    measure the step against hand-written baselines (use -c release)
      help [command]           this text, or a command's

    <machine> is a name from `fsm list` or the path of a Markdown spec file in the format
    `fsm show --format table` prints. Every command takes --help.

    exit codes: 0 success, 1 findings or a divergence, 2 bad usage or unreadable input
    """

  /// Runs the command line `arguments` (without the program name).
  public static func run(_ arguments: [String]) -> CommandResult {
    guard let command = arguments.first else { return .usage("no command given", help: help) }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "list": return ListCommand.run(rest)
    case "show": return ShowCommand.run(rest)
    case "check": return CheckCommand.run(rest)
    case "bench": return BenchCommand.run(rest)
    case "replay": return ReplayCommand.run(rest)
    case "explore": return ExploreCommand.run(rest)
    case "__log-writer": return LogWriterCommand.run(rest)
    case "help", "--help", "-h":
      guard let topic = rest.first else { return .success(help + "\n") }
      guard let text = helpText(for: topic) else { return .usage("unknown command '\(topic)'", help: help) }
      return .success(text + "\n")
    default:
      return .usage("unknown command '\(command)'", help: help)
    }
  }

  static func helpText(for command: String) -> String? {
    switch command {
    case "list": ListCommand.help
    case "show": ShowCommand.help
    case "check": CheckCommand.help
    case "bench": BenchCommand.help
    case "replay": ReplayCommand.help
    case "explore": ExploreCommand.help
    default: nil
    }
  }

  /// Runs the command line and prints its output; returns the exit code.
  public static func main(_ arguments: [String]) -> Int32 {
    let result = run(arguments)
    if !result.output.isEmpty { print(result.output, terminator: "") }
    if !result.errorOutput.isEmpty { printToStandardError(result.errorOutput) }
    return result.code
  }
}
