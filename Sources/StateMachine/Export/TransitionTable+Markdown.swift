extension TransitionTable {
  /// The table as Markdown: a short header, a table of states (role, entry, exit) and the
  /// transition table with the columns from, event, guard, to, effects.
  ///
  /// The output is deterministic, and ``SpecDocument`` reads it back into a run-time table
  /// with `String` states and events, so a spec file can be written before any Swift.
  ///
  /// ```text
  /// - machine: `light`
  /// - unhandled events: `reject`
  ///
  /// | state | role | entry | exit |
  /// | --- | --- | --- | --- |
  /// | red | initial | | |
  /// ...
  /// | from | event | guard | to | effects |
  /// | --- | --- | --- | --- | --- |
  /// | red | next | | green | |
  /// ```
  public func markdown() -> String {
    var lines = [
      "- machine: `\(name)`",
      "- unhandled events: `\(policy.rawValue)`",
      "",
      "| state | role | entry | exit |",
      "| --- | --- | --- | --- |",
    ]
    for state in renderedStates {
      let role = [state.isInitial ? "initial" : nil, state.isFinal ? "final" : nil].compactMap { $0 }
      lines.append(markdownRow([Rendering.cellName(state.name), role.joined(separator: ", "), list(state.entry), list(state.exit)]))
    }
    lines += ["", "| from | event | guard | to | effects |", "| --- | --- | --- | --- | --- |"]
    for row in renderedRows {
      let from = row.isWildcard ? Rendering.any : list(row.sources)
      let target = row.targetIsState ? Rendering.cellName(row.target) : row.target
      lines.append(markdownRow([from, Rendering.cellName(row.event), row.guardName.map(Rendering.cellName) ?? "", target, list(row.effects)]))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func list(_ names: [String]) -> String { names.map(Rendering.cellName).joined(separator: ", ") }

  private func markdownRow(_ cells: [String]) -> String {
    "| " + cells.map { $0.replacingAll("|", with: "\\|") }.joined(separator: " | ") + " |"
  }
}

extension String {
  func replacingAll(_ target: Character, with replacement: String) -> String {
    var out = ""
    for c in self { if c == target { out += replacement } else { out.append(c) } }
    return out
  }
}
