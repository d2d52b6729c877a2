extension Chart {
  /// The chart as a Mermaid `stateDiagram-v2` with nested `state X { ... }` blocks: each
  /// compound starts at its initial state, the regions of a parallel state are separated by
  /// `--`, history states are drawn as `H` / `H*`, final states point to `[*]`.
  ///
  /// An edge is drawn in the innermost block that holds both its ends. Mermaid cannot draw an
  /// edge into the inside of another block: such an edge goes to (or from) that block's box,
  /// and its label names the real state (`→ target`).
  public func mermaid() -> String {
    (["stateDiagram-v2"] + mermaidBody(prefix: "")).joined(separator: "\n") + "\n"
  }

  /// The Mermaid id of `state` (by its id's description), if the chart has it.
  func mermaidID(of state: String, prefix: String) -> String? {
    let labels = (1..<count).map { label($0) }
    return labels.contains(state) ? prefix + DiagramIDs(labels)[state] : nil
  }

  /// The diagram's lines, each state's id led by `prefix`.
  func mermaidBody(prefix: String) -> [String] {
    let diagramIDs = DiagramIDs((1..<count).map { label($0) })
    let id = { (s: Int) in prefix + diagramIDs[self.label(s)] }
    var lines: [String] = []
    var edgesByBlock = [[String]](repeating: [], count: count)
    for t in sources.indices where defaultTransition[sources[t]] != t {
      let source = sources[t]
      let ends = targets[t].isEmpty ? [source] : targets[t]
      for target in ends {
        let block = commonBlock(source, target)
        let from = visible(source, in: block)
        let to = visible(target, in: block)
        var text = transitionLabel(t)
        if to != target { text += " → " + label(target) }
        if from != source { text = label(source) + ": " + text }
        edgesByBlock[block].append("\(id(from)) --> \(id(to)) : \(mermaidText(text))")
      }
    }
    func emit(_ s: Int, indent: String) {
      let inner = indent + "    "
      // Declarations with names and kinds.
      for child in children[s] + histories[s] {
        let name = label(child)
        if isHistory(child) {
          lines.append("\(indent)state \"\(kinds[child] == .deepHistory ? "H*" : "H")\" as \(id(child))")
        } else if id(child) != name, self.children[child].isEmpty {
          lines.append("\(indent)state \"\(mermaidText(name))\" as \(id(child))")
        }
      }
      if kinds[s] == .compound, let first = targets[defaultTransition[s]].first {
        lines.append("\(indent)[*] --> \(id(visible(first, in: s)))")
      }
      for child in children[s] {
        let described = onEntry[child].map(actionLabel).map { "entry / " + $0 } + onExit[child].map(actionLabel).map { "exit / " + $0 }
        for text in described { lines.append("\(indent)\(id(child)) : \(mermaidText(text))") }
        if kinds[child] == .final { lines.append("\(indent)\(id(child)) --> [*]") }
        guard !self.children[child].isEmpty else { continue }
        let title = id(child) == label(child) ? id(child) : "\"\(mermaidText(label(child)))\" as \(id(child))"
        lines.append("\(indent)state \(title) {")
        if kinds[child] == .parallel {
          for (n, region) in self.children[child].enumerated() {
            if n > 0 { lines.append("\(inner)--") }
            emitRegion(region, indent: inner)
          }
        } else {
          emit(child, indent: inner)
        }
        lines.append("\(indent)}")
      }
      lines += edgesByBlock[s].map { indent + $0 }
    }
    func emitRegion(_ region: Int, indent: String) {
      if self.children[region].isEmpty {
        let name = label(region)
        lines.append(id(region) == name ? "\(indent)\(id(region))" : "\(indent)state \"\(mermaidText(name))\" as \(id(region))")
        lines += edgesByBlock[region].map { indent + $0 }
        return
      }
      let title = id(region) == label(region) ? id(region) : "\"\(mermaidText(label(region)))\" as \(id(region))"
      lines.append("\(indent)state \(title) {")
      emit(region, indent: indent + "    ")
      lines.append("\(indent)}")
    }
    emit(0, indent: "    ")
    return lines
  }

  /// The innermost state whose block holds both `a` and `b` (0: the root).
  func commonBlock(_ a: Int, _ b: Int) -> Int {
    var block = parents[a]
    // A parallel block is split into regions by `--`: an edge between its regions is drawn
    // one level up, to and from its box.
    while block > 0, !(b == block || isDescendant(b, of: block)) || kinds[block] == .parallel { block = parents[block] }
    return max(block, 0)
  }

  /// `s` itself when it is drawn directly in `block`, else its ancestor that is.
  func visible(_ s: Int, in block: Int) -> Int {
    var v = s
    while v > 0, parents[v] != block { v = parents[v] }
    return v > 0 ? v : s
  }

  /// `event1 event2 [guard] / actions`, as every chart rendering prints a transition.
  func transitionLabel(_ t: Int) -> String {
    var text = descriptors[t].isEmpty ? "always" : descriptors[t].map { $0 == "*" ? "*" : $0 }.joined(separator: " ")
    if let name = guards[t]?.name { text += " [\(name)]" }
    if !actions[t].isEmpty { text += " / " + actions[t].map(actionLabel).joined(separator: ", ") }
    if isInternal[t] { text += " (internal)" }
    return text
  }

  func actionLabel(_ action: Action) -> String {
    switch action {
    case .effect(let effect): "\(effect)"
    case .make(let name, _): name
    case .raise(let event): "raise \(eventName(event))"
    case .send(let event, let delay, _): delay == .zero ? "send \(eventName(event))" : "send \(eventName(event)) after \(Command<String, String>.format(delay))"
    case .cancel(let id): "cancel \(id)"
    case .message(let event, let target): "send \(eventName(event)) to \(target)"
    case .delayedMessage(let message): "send \(messageName(message)) to \(message.target) after \(Command<String, String>.format(message.delay))"
    case .update(let name, _): name ?? "update"
    case .error(let name): name
    }
  }
}

/// Text as Mermaid shows it literally (see ``TransitionTable/mermaid()``).
func mermaidText(_ text: String) -> String {
  var out = ""
  for scalar in Rendering.visible(text).unicodeScalars {
    switch scalar {
    case ":", ";", "#", "\"", "<", ">", "&", "{", "}", "|", "%": out += "#\(scalar.value);"
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out
}
