extension TransitionTable {
  /// The table as a Graphviz DOT digraph, left to right: the initial state is marked by an
  /// arrow from a point, final states are double circles, each row is a labelled edge
  /// (wildcards expanded, ignore rows left out, like ``mermaid()``).
  public func dot() -> String {
    let states = renderedStates
    var lines = [
      "digraph \(quoted(name)) {",
      "    rankdir=LR;",
      "    node [shape=box, style=rounded];",
    ]
    for state in states {
      var attributes: [String] = []
      if state.isFinal { attributes.append("peripheries=2") }
      var label = state.name
      if !state.entry.isEmpty { label += "\nentry / " + state.entry.joined(separator: ", ") }
      if !state.exit.isEmpty { label += "\nexit / " + state.exit.joined(separator: ", ") }
      if label != state.name { attributes.append("label=\(quoted(label))") }
      lines.append("    \(quoted(state.name))" + (attributes.isEmpty ? ";" : " [\(attributes.joined(separator: ", "))];"))
    }
    if let initial = states.first(where: \.isInitial) {
      // The start point's name is one no state has.
      let names = Set(states.map(\.name))
      var start = "__start"
      while names.contains(start) { start += "_" }
      lines.append("    \(quoted(start)) [shape=point];")
      lines.append("    \(quoted(start)) -> \(quoted(initial.name));")
    }
    for edge in diagramEdges(states) {
      lines.append("    \(quoted(edge.from)) -> \(quoted(edge.to)) [label=\(quoted(edge.label))];")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  private func quoted(_ text: String) -> String { dotQuoted(text) }
}
