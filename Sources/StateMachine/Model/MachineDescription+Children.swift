/// A machine drawn with the child machines it invokes: each child inside its parent's
/// diagram, led from the states that invoke it.
extension MachineDescription {
  /// A child machine a machine invokes, and the states (by name, as the machine's renderings
  /// name them) whose content invokes it.
  struct Invocation: Sendable {
    let child: MachineDescription
    let states: [String]
  }

  /// This description with `child`, a machine it invokes from `states` (named as its
  /// renderings name them), drawn with it in every format: after the machine's tables in
  /// Markdown, as a composite state in Mermaid (with a note on each invoking state), and as a
  /// dotted cluster in DOT (with a dashed edge from each invoking state). What it checks and
  /// replays is unchanged.
  ///
  /// ```swift
  /// let queue = MachineDescription(chart: UploadQueue.chart, summary: "upload queue")
  ///   .invoking(MachineDescription(Upload.table, summary: "one upload"), in: ["uploading"])
  /// print(queue.render(.dot))
  /// ```
  public func invoking(_ child: MachineDescription, in states: [String]) -> MachineDescription {
    var copy = self
    copy.invoked.append(Invocation(child: child, states: states))
    return copy
  }

  /// The Markdown rendering, then a section per child machine.
  func markdownWithChildren() -> String {
    var text = drawing.markdown()
    for invocation in invoked {
      let states = invocation.states.map { "`\($0)`" }.joined(separator: ", ")
      text += "\n## Child machine `\(invocation.child.name)`, invoked in \(states)\n\n" + invocation.child.markdownWithChildren()
    }
    return text
  }

  /// The Mermaid lines of this machine and its children, every id led by `prefix`.
  func mermaidLines(prefix: String) -> [String] {
    var lines = drawing.mermaidBody(prefix: prefix)
    for (n, invocation) in invoked.enumerated() {
      let block = "\(prefix)child\(n + 1)"
      lines.append("    state \"\(mermaidText("\(invocation.child.name) (child machine)"))\" as \(block) {")
      lines += invocation.child.mermaidLines(prefix: block + "_").map { "    " + $0 }
      lines.append("    }")
      for state in invocation.states {
        guard let id = drawing.mermaidID(of: state, prefix: prefix) else { continue }
        lines.append("    note right of \(id) : \(mermaidText("invokes \(invocation.child.name)"))")
      }
    }
    return lines
  }

  /// The DOT graph of this machine and its children.
  func dotWithChildren() -> String {
    (["digraph \(dotQuoted(name)) {", "    compound=true;", "    rankdir=LR;", "    node [shape=box, style=rounded];"] + dotLines(prefix: "")
      + ["}"]).joined(separator: "\n") + "\n"
  }

  /// The DOT lines of this machine and its children (each a cluster), every id led by `prefix`.
  func dotLines(prefix: String) -> [String] {
    var lines = drawing.dotBody(prefix: prefix)
    for (n, invocation) in invoked.enumerated() {
      let childPrefix = "\(prefix)child\(n + 1)_"
      let cluster = "cluster_\(prefix)child\(n + 1)"
      lines.append("    subgraph \(cluster) {")
      lines.append("        label=\(dotQuoted("\(invocation.child.name) (child machine)"));")
      lines.append("        style=dotted;")
      lines += invocation.child.dotLines(prefix: childPrefix).map { "    " + $0 }
      lines.append("    }")
      guard let start = invocation.child.drawing.dotStartID(prefix: childPrefix) else { continue }
      for state in invocation.states {
        guard let from = drawing.dotID(of: state, prefix: prefix) else { continue }
        lines.append("    \(from) -> \(start) [style=dashed, label=\"invokes\", lhead=\(cluster)];")
      }
    }
    return lines
  }
}
