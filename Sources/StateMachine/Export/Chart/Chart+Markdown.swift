extension Chart {
  /// The chart as a Markdown spec: the spec-file format with what nesting needs. The states
  /// table gains `parent`, `kind` (atomic, compound, parallel, final, shallow history, deep
  /// history) and `initial` (a compound's initial targets or a history's default, then
  /// ` / actions` for their content); the transitions table has `to` as a list (empty:
  /// targetless), `type` (`internal` or empty) and `actions`. An eventless transition has an
  /// empty `event`; several descriptors are separated by spaces, as in SCXML.
  ///
  /// Actions are effects by name, `raise e`, `send e`, `send e after 500ms`, `send e after 1 s as id`,
  /// `send e to #_parent`, `cancel id`, `error error.execution`. ``ChartSpec/parse(_:file:)``
  /// reads it back. A chart that invokes charts (``ChartInvoke``) names them in an
  /// `- invokes (SCXML only):` line, which the spec reader refuses: keep such a chart in SCXML.
  ///
  /// ```text
  /// - chart: `player`
  /// - initial: `off`
  ///
  /// | state | parent | kind | initial | entry | exit |
  /// | --- | --- | --- | --- | --- | --- |
  /// | off |  | atomic |  |  |  |
  /// | on |  | parallel |  |  |  |
  /// | resume | on | deep history | stopped, normal |  |  |
  /// ...
  /// ```
  public func markdown() -> String {
    var lines = [
      "- chart: `\(name)`",
      "- initial: `\(targets[defaultTransition[0]].map { Rendering.cellName(label($0)) }.joined(separator: ", "))`",
    ]
    if !actions[defaultTransition[0]].isEmpty { lines.append("- initial actions: `\(actionList(actions[defaultTransition[0]]))`") }
    // A spec has no form for invoked charts: they are named, and reading the spec refuses them.
    let invoked = declaredInvokes.map { "`\($0.invoke.chart.name)` in `\(Rendering.cellName($0.state))`" }
    if !invoked.isEmpty { lines.append("- invokes (SCXML only): " + invoked.joined(separator: ", ")) }
    lines += ["", "| state | parent | kind | initial | entry | exit |", "| --- | --- | --- | --- | --- | --- |"]
    for s in 1..<count {
      let kind: String =
        switch kinds[s] {
        case .atomic: "atomic"
        case .compound: "compound"
        case .parallel: "parallel"
        case .final: "final"
        case .shallowHistory: "shallow history"
        case .deepHistory: "deep history"
        }
      var initial = ""
      if defaultTransition[s] >= 0 {
        let d = defaultTransition[s]
        initial = targets[d].map { Rendering.wordName(label($0)) }.joined(separator: ", ")
        if !actions[d].isEmpty { initial += " / " + actionList(actions[d]) }
      }
      let parent = parents[s] > 0 ? Rendering.cellName(label(parents[s])) : ""
      lines.append(chartRow([Rendering.cellName(label(s)), parent, kind, initial, actionList(onEntry[s]), actionList(onExit[s])]))
    }
    lines += ["", "| from | event | guard | to | type | actions |", "| --- | --- | --- | --- | --- | --- |"]
    for t in sources.indices where defaultTransition[sources[t]] != t {
      lines.append(chartRow([
        Rendering.cellName(label(sources[t])),
        descriptors[t].map(descriptorCell).joined(separator: " "),
        guards[t]?.name ?? "",
        targets[t].map { Rendering.cellName(label($0)) }.joined(separator: ", "),
        isInternal[t] ? "internal" : "",
        actionList(actions[t]),
      ]))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// An event descriptor as the event cell reads it back: as it is, unless it would not read
  /// back as one word.
  func descriptorCell(_ descriptor: String) -> String {
    descriptor.isEmpty || descriptor.hasPrefix("`") || descriptor.contains(where: { $0.isWhitespace || $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } })
      ? Rendering.quoted(descriptor) : descriptor
  }

  func chartRow(_ cells: [String]) -> String {
    "| " + cells.map { $0.replacingAll("|", with: "\\|") }.joined(separator: " | ") + " |"
  }

  func actionList(_ list: [Action]) -> String { list.map(actionCell).joined(separator: ", ") }

  /// A label (an effect's, or a named update's) as a cell: quoted when it would read back as
  /// an action keyword.
  func labelCell(_ name: String) -> String {
    let keyword = ["raise ", "send ", "cancel ", "error "].contains { name.hasPrefix($0) } || name == "(update)"
    return keyword ? Rendering.quoted(name) : Rendering.cellName(name)
  }

  /// One action as a spec cell reads it back.
  func actionCell(_ action: Action) -> String {
    switch action {
    case .effect, .make: return labelCell(action.effectLabel ?? "")
    case .raise(let event): return "raise " + Rendering.wordName(eventName(event))
    case .send(let event, let delay, let id):
      var text = "send " + Rendering.wordName(eventName(event))
      if delay != .zero { text += " after " + ChartSpec.format(delay) }
      if let id { text += " as " + Rendering.wordName(id) }
      return text
    case .cancel(let id): return "cancel " + Rendering.wordName(id)
    case .message(let event, let target): return "send " + Rendering.wordName(eventName(event)) + " to " + Rendering.wordName(target)
    case .delayedMessage(let message):
      var text = "send " + Rendering.wordName(messageName(message)) + " to " + Rendering.wordName(message.target)
      text += " after " + ChartSpec.format(message.delay)
      if let id = message.id { text += " as " + Rendering.wordName(id.name) }
      return text
    case .update(let name?, _): return labelCell(name)
    case .update(nil, _): return "(update)"
    case .error(let name): return "error " + Rendering.wordName(name)
    }
  }
}
