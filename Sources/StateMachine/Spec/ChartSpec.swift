/// Reads a chart from its Markdown spec (the format ``Chart/markdown()`` prints): `String`
/// state ids and events, `String` effects, like ``SCXMLDocument``.
///
/// ```swift
/// let chart = try ChartSpec.parse(text, file: "Specs/player.md")
/// // or, for a file that may hold a table or a chart: SpecDocument.loadMachine(contentsOf:)
/// ```
///
/// Guards are `In(id)` and `!In(id)`; any other guard name is kept as a name that never
/// holds (as spec tables do).
public enum ChartSpec {
  /// A chart read from a document: `String` ids, events and effects.
  package typealias DocumentChart = Chart<String, String, NoContext, String>
  typealias State = ChartState<String, String, NoContext, String>
  typealias Action = ChartAction<String, NoContext, String>

  static let stateColumns = ["state", "parent", "kind", "initial", "entry", "exit"]
  /// The deepest nesting a chart spec may have (the chart is built recursively), as for SCXML.
  package static let maxDepth = 256
  static let transitionColumns = ["from", "event", "guard", "to", "type", "actions"]

  /// Whether `text` is a chart spec (its states table has a `parent` column).
  package static func isChart(_ text: String) -> Bool {
    text.contains("| state | parent | kind |") || text.contains("- chart:")
  }

  /// Reads a chart spec.
  ///
  /// - Throws: ``SpecError`` naming the line and field of the first thing it cannot read, or
  ///   the chart's structural problems (each with its line).
  public static func parse(_ text: String, file: String) throws(SpecError) -> Chart<String, String, NoContext, String> {
    var name = file.split(separator: "/").last.map { String($0.split(separator: ".").first ?? $0) } ?? "chart"
    var initial: [String]?
    var initialActions: [Action] = []
    var rows: [(line: Int, cells: [String])] = []
    var transitions: [(line: Int, cells: [String])] = []
    enum Place { case prose, code, statesHeader, states, transitionsHeader, transitions, other }
    var place = Place.prose
    for (n, raw) in SpecDocument.parseLines(text).enumerated() {
      let number = n + 1
      let line = String(raw).trimmingSpaces()
      guard line.utf8.count <= SpecParser.maxLineLength else {
        throw SpecError(file: file, line: number, message: "line is \(line.utf8.count) bytes long; expected at most \(SpecParser.maxLineLength)")
      }
      if line.hasPrefix("```") {
        place = place == .code ? .prose : .code
        continue
      }
      if place == .code { continue }
      guard line.hasPrefix("|") else {
        if place == .statesHeader || place == .transitionsHeader {
          throw SpecError(file: file, line: number, message: "expected the separator row (| --- | --- | ...) under the table header")
        }
        place = .prose
        if let value = SpecParser.value(of: "- chart:", in: line) { name = value }
        if let value = SpecParser.value(of: "- initial:", in: line) { initial = Rendering.splitList(value).map { Rendering.readName($0).name } }
        if line.hasPrefix("- invokes") {
          throw SpecError(
            file: file, line: number, message: "the chart invokes charts, which a spec cannot hold; expected the chart's SCXML document")
        }
        if let value = SpecParser.value(of: "- initial actions:", in: line) {
          initialActions = try actions(value, file: file, line: number, field: "initial actions")
        }
        continue
      }
      let cells = try SpecParser.cells(of: line, at: number, file: file)
      switch place {
      case .prose:
        let lowered = cells.map { $0.lowercased() }
        place = lowered == stateColumns ? .statesHeader : lowered == transitionColumns ? .transitionsHeader : .other
      case .statesHeader, .transitionsHeader:
        guard SpecParser.isSeparatorRow(cells), cells.count == 6 else {
          throw SpecError(file: file, line: number, message: "expected the separator row (| --- | --- | ...) under the table header")
        }
        place = place == .statesHeader ? .states : .transitions
      case .states, .transitions:
        guard cells.count == 6 else { throw SpecError(file: file, line: number, message: "\(cells.count) cells; expected 6") }
        if place == .states { rows.append((number, cells)) } else { transitions.append((number, cells)) }
      case .code, .other: continue
      }
    }
    guard !rows.isEmpty else {
      throw SpecError(file: file, line: 0, message: "no states table; expected the columns \(stateColumns.joined(separator: ", "))")
    }
    // States, then their transitions, then the tree in table order.
    var states: [String: State] = [:]
    var order: [String] = []
    var parentOf: [String: String] = [:]
    for (number, cells) in rows {
      let (id, quoted) = Rendering.readName(cells[0])
      guard quoted || !id.isEmpty else { throw SpecError(file: file, line: number, field: "state", message: "empty cell; expected a state id") }
      guard states[id] == nil else { throw SpecError(file: file, line: number, field: "state", message: "'\(id)' is declared twice") }
      var (targets, content) = (cells[3], "")
      if let slash = Rendering.range(of: " / ", outsideCodeIn: cells[3]) {
        targets = String(cells[3][..<slash.lowerBound])
        content = String(cells[3][slash.upperBound...])
      }
      let targetIDs = Rendering.splitList(targets).map { Rendering.readName($0).name }
      let kind: State.Kind
      switch cells[2] {
      case "atomic": kind = .atomic
      case "compound": kind = .compound(initial: targetIDs.isEmpty ? nil : targetIDs)
      case "parallel": kind = .parallel
      case "final": kind = .final
      case "shallow history", "deep history": kind = .history(deep: cells[2] == "deep history", default: targetIDs)
      default:
        throw SpecError(file: file, line: number, field: "kind", message: "'\(cells[2])'; expected atomic, compound, parallel, final, shallow history or deep history")
      }
      // What SCXML has no place for (and what would never run) is refused, not dropped.
      if case .history = kind {
        for (cell, field) in [(cells[4], "entry"), (cells[5], "exit")] where !cell.isEmpty {
          throw SpecError(file: file, line: number, field: field, message: "'\(cell)': a history state is never active, so it has no \(field) content; expected an empty cell")
        }
      } else if case .compound = kind {
      } else if !cells[3].isEmpty {
        throw SpecError(file: file, line: number, field: "initial", message: "'\(cells[3])': only a compound or a history state has an initial; expected an empty cell for \(cells[2])")
      }
      var state = State(
        id: id, kind: kind, onEntry: try actions(cells[4], file: file, line: number, field: "entry"),
        onExit: try actions(cells[5], file: file, line: number, field: "exit"),
        initialActions: try actions(content, file: file, line: number, field: "initial"), line: number)
      state.line = number
      states[id] = state
      order.append(id)
      if !cells[1].isEmpty { parentOf[id] = Rendering.readName(cells[1]).name }
    }
    for (number, cells) in transitions {
      let source = Rendering.readName(cells[0]).name
      guard states[source] != nil else {
        throw SpecError(file: file, line: number, field: "from", message: "'\(source)' is not in the states table")
      }
      guard cells[4].isEmpty || cells[4] == "internal" || cells[4] == "external" else {
        throw SpecError(file: file, line: number, field: "type", message: "'\(cells[4])'; expected internal, external or nothing")
      }
      let guardCondition: ChartGuard<String, String, NoContext>? = cells[2].isEmpty ? nil : guardNamed(cells[2])
      states[source]!.transitions.append(ChartTransition(
        events: Rendering.words(cells[1]).map { Rendering.readName($0).name }, guard: guardCondition,
        targets: Rendering.splitList(cells[3]).map { Rendering.readName($0).name }, isInternal: cells[4] == "internal",
        actions: try actions(cells[5], file: file, line: number, field: "actions"), line: number))
    }
    for id in order {
      if let parent = parentOf[id], states[parent] == nil {
        throw SpecError(file: file, line: states[id]?.line ?? 0, field: "parent", message: "'\(parent)' is not in the states table")
      }
    }
    var childrenOf: [String: [String]] = [:]
    for id in order { if let parent = parentOf[id] { childrenOf[parent, default: []].append(id) } }
    var visiting = Set<String>()
    func tree(_ id: String, depth: Int) throws(SpecError) -> State {
      guard visiting.insert(id).inserted else {
        throw SpecError(file: file, line: states[id]?.line ?? 0, field: "parent", message: "'\(id)' is its own ancestor")
      }
      guard var state = states[id] else { throw SpecError(file: file, line: 0, field: "parent", message: "'\(id)' is not in the states table") }
      guard depth < maxDepth else {
        throw SpecError(file: file, line: state.line ?? 0, field: "parent", message: "states nested deeper than \(maxDepth) levels")
      }
      for child in childrenOf[id] ?? [] { state.children.append(try tree(child, depth: depth + 1)) }
      return state
    }
    var roots: [State] = []
    for id in order where parentOf[id] == nil { roots.append(try tree(id, depth: 0)) }
    if visiting.count < order.count, let id = order.first(where: { !visiting.contains($0) }) {
      throw SpecError(file: file, line: states[id]?.line ?? 0, field: "parent", message: "'\(id)' is its own ancestor")
    }
    do {
      return try DocumentChart(name: name, initial: initial, states: roots, initialActions: initialActions)
    } catch {
      throw SpecError(file: file, line: error.problems.first?.line ?? 0, message: error.problems.map(\.description).joined(separator: "; "))
    }
  }

  static func guardNamed(_ name: String) -> ChartGuard<String, String, NoContext> {
    if let id = SCXMLText.inPredicate(name) { return .inState(id) }
    if name.hasPrefix("!"), let id = SCXMLText.inPredicate(String(name.dropFirst())) { return .notInState(id) }
    if name.hasPrefix("In("), name.hasSuffix(")") { return .inState(Rendering.readName(String(name.dropFirst(3).dropLast())).name) }
    if name.hasPrefix("!In("), name.hasSuffix(")") { return .notInState(Rendering.readName(String(name.dropFirst(4).dropLast())).name) }
    return ChartGuard(name) { _, _ in false }
  }

  /// A cell of actions: `name`, `raise e`, `send e [after 500ms] [as id]`,
  /// `send e to target [after 500ms] [as id]`, `cancel id`, `error name`.
  static func actions(_ cell: String, file: String, line: Int, field: String) throws(SpecError) -> [Action] {
    var result: [Action] = []
    for item in Rendering.splitList(cell) where !item.isEmpty {
      let (text, quoted) = Rendering.readName(item)
      if quoted {
        result.append(.effect(text))
        continue
      }
      var words = Rendering.words(item)
      switch words.first {
      case "raise" where words.count == 2: result.append(.raise(Rendering.readName(words[1]).name))
      case "cancel" where words.count == 2: result.append(.cancel(Rendering.readName(words[1]).name))
      case "error" where words.count == 2: result.append(.error(Rendering.readName(words[1]).name))
      case "send" where words.count >= 2:
        let event = Rendering.readName(words[1]).name
        words.removeFirst(2)
        var target: String?
        if words.count >= 2, words[0] == "to" {
          target = Rendering.readName(words[1]).name
          words.removeFirst(2)
        }
        var delay = Duration.zero
        var id: String?
        while !words.isEmpty {
          if words[0] == "after", words.count >= 2, let d = SCXMLText.duration(words[1]) {
            delay = d
          } else if words[0] == "as", words.count >= 2 {
            id = Rendering.readName(words[1]).name
          } else {
            throw SpecError(
              file: file, line: line, field: field,
              message: "'\(item)'; expected send <event> [after <time>] [as <id>], or send <event> to <target> [after <time>] [as <id>]")
          }
          words.removeFirst(2)
        }
        if let target {
          result.append(.message(event, to: target, after: delay, id: id))
        } else {
          result.append(.send(event, after: delay, id: id))
        }
      default: result.append(.effect(text))
      }
    }
    return result
  }

  /// A delay as the spec writes it: `500ms`, or `1.5s` when not whole milliseconds.
  static func format(_ delay: Duration) -> String {
    let (seconds, attoseconds) = delay.components
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    return nanoseconds % 1_000_000 == 0 ? "\(nanoseconds / 1_000_000)ms" : "\(Double(nanoseconds) / 1e9)s"
  }
}
