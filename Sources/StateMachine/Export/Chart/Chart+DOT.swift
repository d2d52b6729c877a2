extension Chart {
  /// The chart as a Graphviz DOT digraph with `compound=true`: each compound or parallel state
  /// is a cluster (a parallel one dashed, its regions clusters inside it), history states are
  /// small circles `H` / `H*`, final states double circles. An edge to or from a compound
  /// state is drawn to its initial leaf and clipped at the cluster's border (`lhead`/`ltail`).
  public func dot() -> String {
    (["digraph \(dotQuoted(name)) {", "    compound=true;", "    rankdir=LR;", "    node [shape=box, style=rounded];"] + dotBody(prefix: "") + ["}"])
      .joined(separator: "\n") + "\n"
  }

  /// The graph's nodes, clusters and edges, each id led by `prefix`.
  func dotBody(prefix: String) -> [String] {
    var lines: [String] = []
    let node = { (s: Int) in "\(prefix)n\(s)" }
    func emit(_ s: Int, indent: String) {
      for child in children[s] + histories[s] {
        if self.children[child].isEmpty {
          var attributes = ["label=\(dotQuoted(label(child)))"]
          switch kinds[child] {
          case .final: attributes.append("peripheries=2")
          case .shallowHistory, .deepHistory:
            attributes = ["label=\(dotQuoted(kinds[child] == .deepHistory ? "H*" : "H"))", "shape=circle", "tooltip=\(dotQuoted(label(child)))"]
          default: break
          }
          lines.append("\(indent)\(node(child)) [\(attributes.joined(separator: ", "))];")
        } else {
          lines.append("\(indent)subgraph cluster_\(prefix)\(child) {")
          lines.append("\(indent)    label=\(dotQuoted(label(child)));")
          if kinds[child] == .parallel { lines.append("\(indent)    style=dashed;") }
          emit(child, indent: indent + "    ")
          lines.append("\(indent)}")
        }
      }
    }
    emit(0, indent: "    ")
    if let first = targets[defaultTransition[0]].first {
      lines.append("    \(dotStart(prefix: prefix)) [shape=point];")
      lines.append("    \(dotStart(prefix: prefix)) -> \(node(leaf(first)))\(clip(head: first, prefix: prefix));")
    }
    for t in sources.indices where defaultTransition[sources[t]] != t {
      let source = sources[t]
      for target in targets[t].isEmpty ? [source] : targets[t] {
        var attributes = ["label=\(dotQuoted(transitionLabel(t)))"]
        if !self.children[source].isEmpty { attributes.append("ltail=cluster_\(prefix)\(source)") }
        if !self.children[target].isEmpty, target != source { attributes.append("lhead=cluster_\(prefix)\(target)") }
        lines.append("    \(node(leaf(source))) -> \(node(leaf(target))) [\(attributes.joined(separator: ", "))];")
      }
    }
    return lines
  }

  /// The start point's id, led by `prefix`.
  func dotStart(prefix: String) -> String { prefix + "__start" }

  /// The start point's id (a chart always has an initial state).
  func dotStartID(prefix: String) -> String? { dotStart(prefix: prefix) }

  /// The DOT id of the node an edge from `state` (by its id's description) leaves, if the
  /// chart has it: the state's own, or its first leaf's.
  func dotID(of state: String, prefix: String) -> String? {
    (1..<count).first { label($0) == state }.map { "\(prefix)n\(leaf($0))" }
  }

  /// The state an edge to `s` is drawn to: `s` itself, or, for a composite, its first leaf.
  func leaf(_ s: Int) -> Int {
    var v = s
    while !children[v].isEmpty {
      let d = defaultTransition[v]
      v = (d >= 0 ? targets[d].first : nil) ?? children[v][0]
      if isHistory(v) { v = targets[defaultTransition[v]].first ?? children[parents[v]][0] }
    }
    return v
  }

  func clip(head s: Int, prefix: String) -> String { children[s].isEmpty ? "" : " [lhead=cluster_\(prefix)\(s)]" }
}

/// A DOT quoted string Graphviz shows as `text` (see ``TransitionTable/dot()``).
func dotQuoted(_ text: String) -> String {
  var out = "\""
  for c in Rendering.visible(text, keepingNewlines: true) {
    switch c {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    default: out.append(c)
    }
  }
  return out + "\""
}
