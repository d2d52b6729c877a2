import StateMachine

enum CheckCommand {
  static let help = """
    usage: fsm check <machine|spec.md|chart.scxml>

    Validates and analyses the machine: ambiguous or shadowed rows, unknown states,
    unreachable states, dead ends, and (when unhandled events are rejected) every
    (state, event) pair no row handles. Findings in a spec file name its line. For an SCXML
    chart: unreachable states, shadowed transitions, eventless loops without guards (a chart
    that is not valid is refused when it is read, with every problem and its line).

    exit codes: 0 clean, 1 findings, 2 bad usage or unreadable spec
    """

  static func run(_ words: [String]) -> CommandResult {
    let arguments: Arguments
    do { arguments = try Arguments(words, options: [], flags: ["--help"]) } catch { return .usage(error.description, help: help) }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    guard let name = arguments.positionals.first else { return .usage("missing argument <machine>", help: help) }
    if arguments.positionals.count > 1 { return .usage("unexpected argument '\(arguments.positionals[1])'", help: help) }
    let source: MachineSource
    switch MachineSource.resolve(name) {
    case .failure(.unknownMachine(let message)): return .usage(message, help: help)
    case .failure(let error): return .failure(error.message)
    case .success(let resolved): source = resolved
    }
    var lines = source.description?.overviewLines() ?? []
    let findings: [String]
    switch source {
    case .chart(let chart, let file):
      lines = chart.overviewLines()
      findings = chart.check().map { "\(file): \($0)" }
    case .scripted(let chart, let file):
      lines = chart.overviewLines()
      findings = chart.check().map { "\(file): \($0)" }
    case .shipped(let machine):
      findings = machine.check().map { "\(machine.name): \($0)" }
    case .spec(let spec):
      findings = spec.check().map { finding, specLines in
        let place = specLines.isEmpty ? spec.file : "\(spec.file):\(specLines.map(String.init).joined(separator: ","))"
        return "\(place): \(finding)"
      }
    }
    lines += findings
    if findings.isEmpty {
      lines.append("clean: no findings")
      return .success(lines.joined(separator: "\n") + "\n")
    }
    lines.append("\(findings.count) finding\(findings.count == 1 ? "" : "s")")
    return .findings(lines.joined(separator: "\n") + "\n")
  }
}
