extension TransitionTable {
  /// The table as a Mermaid `stateDiagram-v2`.
  ///
  /// Each row is an arrow labelled `event [guard] / effects`; wildcard rows are drawn from
  /// every state, internal (stay) rows as self-loops marked `(stay)`, and ignore rows are left
  /// out. Entry and exit effects are state descriptions; final states point to `[*]`.
  public func mermaid() -> String {
    (["stateDiagram-v2"] + mermaidBody(prefix: "")).joined(separator: "\n") + "\n"
  }

  /// The diagram's lines, each state's id led by `prefix` (a state whose id is not its name is
  /// declared with the name).
  func mermaidBody(prefix: String) -> [String] {
    let states = renderedStates
    var lines: [String] = []
    let diagramIDs = DiagramIDs(states.map(\.name))
    let ids = { (name: String) in prefix + diagramIDs[name] }
    for state in states where ids(state.name) != state.name {
      lines.append("    state \"\(mermaidText(state.name))\" as \(ids(state.name))")
    }
    if let initial = states.first(where: \.isInitial) { lines.append("    [*] --> \(ids(initial.name))") }
    for state in states {
      if !state.entry.isEmpty { lines.append("    \(ids(state.name)) : \(mermaidText("entry / " + state.entry.joined(separator: ", ")))") }
      if !state.exit.isEmpty { lines.append("    \(ids(state.name)) : \(mermaidText("exit / " + state.exit.joined(separator: ", ")))") }
    }
    for edge in diagramEdges(states) {
      lines.append("    \(ids(edge.from)) --> \(ids(edge.to)) : \(mermaidText(edge.label))")
    }
    for state in states where state.isFinal { lines.append("    \(ids(state.name)) --> [*]") }
    return lines
  }

  /// The Mermaid id of `state` (by its rendered name), if the table has it.
  func mermaidID(of state: String, prefix: String) -> String? {
    let names = renderedStates.map(\.name)
    return names.contains(state) ? prefix + DiagramIDs(names)[state] : nil
  }

  /// One arrow per (source, row), in row order, wildcards expanded, ignore rows left out.
  func diagramEdges(_ states: [RenderedState]) -> [(from: String, to: String, label: String)] {
    renderedRows.flatMap { row -> [(from: String, to: String, label: String)] in
      let stays = !row.targetIsState && row.target == Rendering.stay
      guard row.targetIsState || row.target != Rendering.ignore else { return [] }
      var label = row.event
      if let guardName = row.guardName { label += " [\(guardName)]" }
      if !row.effects.isEmpty { label += " / " + row.effects.joined(separator: ", ") }
      if stays { label += " " + Rendering.stay }
      let sources = row.isWildcard ? states.map(\.name) : row.sources
      return sources.map { source in
        (from: source, to: stays ? source : row.target, label: label)
      }
    }
  }
}

/// Identifiers that diagram languages accept, made from state names: letters, digits and `_`,
/// kept unique.
struct DiagramIDs {
  private var ids: [String: String] = [:]

  /// Words a Mermaid state diagram reads as its own (compared in lower case).
  static let keywords: Set<String> = [
    "state", "note", "end", "direction", "class", "classdef", "click", "style", "as", "left", "right", "of", "over",
    "linkstyle", "hide", "scale", "fork", "join", "choice", "default", "stateDiagram", "statediagram-v2", "tb", "bt", "lr", "rl",
  ]

  init(_ names: [String]) {
    var used = Set<String>()
    for name in names {
      var id = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
      if id.isEmpty || id.first!.isNumber || Self.keywords.contains(id.lowercased()) { id = "s_" + id }
      var candidate = id
      var n = 2
      while !used.insert(candidate).inserted {
        candidate = "\(id)_\(n)"
        n += 1
      }
      ids[name] = candidate
    }
  }

  subscript(name: String) -> String { ids[name] ?? name }
}
