extension TransitionTable {
  /// The table as a Graphviz DOT digraph, left to right: the initial state is marked by an
  /// arrow from a point, final states are double circles, each row is a labelled edge
  /// (wildcards expanded, ignore rows left out, like ``mermaid()``).
  public func dot() -> String {
    (["digraph \(quoted(name)) {", "    rankdir=LR;", "    node [shape=box, style=rounded];"] + dotBody(prefix: "") + ["}"])
      .joined(separator: "\n") + "\n"
  }

  /// The graph's nodes and edges, each node's id led by `prefix` (a node whose id is not its
  /// state's name is labelled with the name).
  func dotBody(prefix: String) -> [String] {
    let states = renderedStates
    var lines: [String] = []
    for state in states {
      var attributes: [String] = []
      if state.isFinal { attributes.append("peripheries=2") }
      var label = state.name
      if !state.entry.isEmpty { label += "\nentry / " + state.entry.joined(separator: ", ") }
      if !state.exit.isEmpty { label += "\nexit / " + state.exit.joined(separator: ", ") }
      if label != state.name || !prefix.isEmpty { attributes.append("label=\(quoted(label))") }
      lines.append("    \(quoted(prefix + state.name))" + (attributes.isEmpty ? ";" : " [\(attributes.joined(separator: ", "))];"))
    }
    if let initial = states.first(where: \.isInitial) {
      lines.append("    \(quoted(dotStart(prefix: prefix))) [shape=point];")
      lines.append("    \(quoted(dotStart(prefix: prefix))) -> \(quoted(prefix + initial.name));")
    }
    for edge in diagramEdges(states) {
      lines.append("    \(quoted(prefix + edge.from)) -> \(quoted(prefix + edge.to)) [label=\(quoted(edge.label))];")
    }
    return lines
  }

  /// The start point's id, quoted, when the table has an initial state.
  func dotStartID(prefix: String) -> String? {
    renderedStates.contains(where: \.isInitial) ? quoted(dotStart(prefix: prefix)) : nil
  }

  /// The start point's name: one no state has, led by `prefix`.
  func dotStart(prefix: String) -> String {
    let names = Set(renderedStates.map(\.name))
    var start = "__start"
    while names.contains(start) { start += "_" }
    return prefix + start
  }

  /// The DOT id of the node drawing `state` (by its rendered name), if the table has it.
  func dotID(of state: String, prefix: String) -> String? {
    renderedStates.contains { $0.name == state } ? quoted(prefix + state) : nil
  }

  private func quoted(_ text: String) -> String { dotQuoted(text) }
}
