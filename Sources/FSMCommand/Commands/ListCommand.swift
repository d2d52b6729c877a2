import StateMachine

enum ListCommand {
  static let help = """
    usage: fsm list

    Prints the machines shipped with the package, one per line: the name, then what it is.
    """

  static func run(_ words: [String]) -> CommandResult {
    let arguments: Arguments
    do { arguments = try Arguments(words, options: [], flags: ["--help"]) } catch { return .usage(error.description, help: help) }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    if let extra = arguments.positionals.first { return .usage(Arguments.Problem.extraArgument(extra).description, help: help) }
    let width = FSM.catalog.machines.map(\.name.count).max() ?? 0
    let lines = FSM.catalog.machines.map { $0.name.padding(width) + "  " + $0.summary }
    return .success(lines.map { $0 + "\n" }.joined())
  }
}

extension String {
  package func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
