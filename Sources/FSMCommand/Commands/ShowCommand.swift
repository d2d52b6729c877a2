import StateMachine

enum ShowCommand {
  static let help = """
    usage: fsm show <machine|spec.md|chart.scxml> [--format table|mermaid|dot|scxml]

    Prints the machine's transition table (the default: Markdown, the format spec files use),
    its Mermaid stateDiagram-v2, or its Graphviz DOT graph. For a chart (.scxml, or a Markdown
    chart spec): its Markdown chart spec, a nested Mermaid diagram, DOT with clusters, or its
    SCXML document (guards, updates and makes named in the urn:swift-state-machine:scxml
    namespace, so Chart(scxml:file:bindings:) reads it back with the Swift code). A machine
    that invokes child machines (upload-queue) is drawn with them: a section per child in
    Markdown, a composite state in Mermaid, a dotted cluster in DOT.
    """

  static func run(_ words: [String]) -> CommandResult {
    let arguments: Arguments
    do { arguments = try Arguments(words, options: ["--format"], flags: ["--help"]) } catch { return .usage(error.description, help: help) }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    guard let name = arguments.positionals.first else { return .usage("missing argument <machine>", help: help) }
    if arguments.positionals.count > 1 { return .usage("unexpected argument '\(arguments.positionals[1])'", help: help) }
    let formatName = arguments.options["--format"] ?? "table"
    if formatName == "scxml" { return scxml(name) }
    guard let format = MachineDescription.Format(rawValue: formatName) else {
      return .usage("option '--format': '\(formatName)'; expected table, mermaid, dot or scxml", help: help)
    }
    switch MachineSource.resolve(name) {
    case .failure(.unknownMachine(let message)): return .usage(message, help: help)
    case .failure(let error): return .failure(error.message)
    case .success(let source): return .success(source.render(format))
    }
  }

  /// The chart `name` as SCXML; a flat table has none.
  static func scxml(_ name: String) -> CommandResult {
    switch MachineSource.resolve(name) {
    case .failure(.unknownMachine(let message)): return .usage(message, help: help)
    case .failure(let error): return .failure(error.message)
    case .success(.chart(let chart, _)):
      do throws(ExportError) { return .success(try chart.scxml()) } catch { return .failure("\(error)") }
    case .success(.scripted(_, let file)):
      return .failure("\(file) is SCXML with the ECMAScript datamodel already; its content is script, which is not written back")
    case .success(let source):
      let text: String?
      do throws(ExportError) { text = try source.description?.scxml() } catch { return .failure("\(error)") }
      guard let text else {
        return .usage("option '--format': 'scxml' is for charts; '\(name)' is a flat transition table", help: help)
      }
      return .success(text)
    }
  }
}
