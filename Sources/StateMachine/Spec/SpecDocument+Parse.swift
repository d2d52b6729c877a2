extension SpecDocument {
  /// Reads a spec. Everything outside the two tables and the two header lines is prose and
  /// is skipped, as are fenced code blocks (a Mermaid diagram, for example).
  ///
  /// - Throws: ``SpecError`` naming the line and field of the first thing it cannot read.
  /// Lines may end with `\n`, `\r\n` or `\r`.
  public static func parse(_ text: String, file: String) throws(SpecError) -> SpecDocument {
    var parser = SpecParser(file: file)
    let lines = parseLines(text)
    for (n, line) in lines.enumerated() { try parser.read(String(line), at: n + 1) }
    return try parser.finish(lineCount: lines.count)
  }
}

extension SpecDocument {
  /// Reads the spec file at `path`: a table spec, or (with a `parent` column) a chart, as
  /// ``ChartSpec`` reads it.
  package static func loadMachine(contentsOf path: String) throws(SpecError) -> Either {
    let text = try readText(path)
    return ChartSpec.isChart(text) ? .chart(try ChartSpec.parse(text, file: path)) : .table(try parse(text, file: path))
  }

  /// A spec file's machine: a table or a chart.
  package enum Either: Sendable {
    /// A spec with a transitions table.
    case table(SpecDocument)
    /// A chart spec (its states table has `parent` and `kind` columns).
    case chart(ChartSpec.DocumentChart)
  }

  /// The lines of `text`, ended by `\n`, `\r\n` or `\r`. ("\r\n" is one `Character` in
  /// Swift: splitting on "\n" alone would keep a CRLF file on one line.)
  static func parseLines(_ text: String) -> [Substring] {
    text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
  }

  /// The largest spec file ``load(contentsOf:)`` reads: 8 MiB (a 16,000-row table is under 1 MiB).
  public static let maxFileSize = 8 << 20

  /// Reads the spec file at `path`.
  ///
  /// - Throws: ``SpecError`` naming the file: it is missing, not a regular file (a directory,
  ///   a FIFO, a device), unreadable, larger than ``maxFileSize`` (refused before it is read),
  ///   not UTF-8 (with the offending byte), or not a valid spec (with the line and field).
  public static func load(contentsOf path: String) throws(SpecError) -> SpecDocument {
    try parse(readText(path), file: path)
  }

  /// The text of the spec file at `path`, refused up front when it is not a regular UTF-8
  /// file of at most ``maxFileSize`` bytes.
  static func readText(_ path: String) throws(SpecError) -> String {
    let bytes: [UInt8]
    do {
      bytes = try InputFile(path: path).readAll(limit: maxFileSize)
    } catch {
      throw SpecError(file: path, line: 0, message: error.reason)
    }
    if let bad = invalidUTF8(in: bytes) {
      throw SpecError(file: path, line: bad.line, message: "invalid UTF-8 at byte \(bad.offset + 1); expected UTF-8 text")
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// The line-by-line reader behind ``SpecDocument/parse(_:file:)``.
struct SpecParser {
  static let stateColumns = ["state", "role", "entry", "exit"]
  static let transitionColumns = ["from", "event", "guard", "to", "effects"]
  static let maxLineLength = 10_000

  enum Place { case prose, code, stateHeader, states, transitionHeader, transitions, otherTable }

  let file: String
  var place = Place.prose
  var name: String?
  var policy = InvalidTransitionPolicy.reject
  var states: [SpecDocument.State] = []
  var transitions: [SpecDocument.Transition] = []
  var sawStates = false
  /// The state marked initial so far, and its line.
  var initialState: (name: String, line: Int)?
  var sawTransitions = false

  init(file: String) { self.file = file }

  func error(_ line: Int, _ field: String?, _ message: String) -> SpecError {
    SpecError(file: file, line: line, field: field, message: message)
  }

  mutating func read(_ raw: String, at n: Int) throws(SpecError) {
    guard raw.utf8.count <= Self.maxLineLength else {
      throw error(n, nil, "line is \(raw.utf8.count) bytes long; expected at most \(Self.maxLineLength)")
    }
    let line = raw.trimmingSpaces()
    if line.hasPrefix("```") {
      place = place == .code ? .prose : .code
      return
    }
    if place == .code { return }
    guard line.hasPrefix("|") else {
      if [.stateHeader, .transitionHeader].contains(place) {
        throw error(n, nil, "expected the separator row (| --- | --- | ...) under the table header")
      }
      place = .prose
      try readHeaderLine(line, at: n)
      return
    }
    let cells = try Self.cells(of: line, at: n, file: file)
    switch place {
    case .prose, .code: try startTable(cells, at: n)
    case .stateHeader, .transitionHeader:
      guard Self.isSeparatorRow(cells) else {
        throw error(n, nil, "expected the separator row (| --- | --- | ...) under the table header")
      }
      let expected = place == .stateHeader ? Self.stateColumns.count : Self.transitionColumns.count
      guard cells.count == expected else { throw error(n, nil, "separator has \(cells.count) cells; expected \(expected)") }
      place = place == .stateHeader ? .states : .transitions
    case .states: try readState(cells, at: n)
    case .transitions: try readTransition(cells, at: n)
    case .otherTable: return
    }
  }

  mutating func readHeaderLine(_ line: String, at n: Int) throws(SpecError) {
    if let value = Self.value(of: "- machine:", in: line) {
      guard !value.isEmpty else { throw error(n, "machine", "empty name; expected `name`") }
      name = value
    } else if let value = Self.value(of: "- unhandled events:", in: line) {
      guard let parsed = InvalidTransitionPolicy(rawValue: value) else {
        throw error(n, "unhandled events", "'\(value)'; expected `reject` or `ignore`")
      }
      policy = parsed
    }
  }

  mutating func startTable(_ header: [String], at n: Int) throws(SpecError) {
    let lowered = header.map { $0.lowercased() }
    switch lowered.first {
    case "state":
      try expectFirst("state", header, lowered, columns: Self.stateColumns, seenBefore: sawStates, at: n)
      (sawStates, place) = (true, .stateHeader)
    case "from":
      try expectFirst("transition", header, lowered, columns: Self.transitionColumns, seenBefore: sawTransitions, at: n)
      (sawTransitions, place) = (true, .transitionHeader)
    default:
      place = .otherTable  // a table of the prose: not ours
    }
  }

  /// A `kind` table's header (`header`, lowercased `lowered`) must name `columns`, and be the
  /// first table of its kind (`seenBefore`: one came before).
  func expectFirst(_ kind: String, _ header: [String], _ lowered: [String], columns: [String], seenBefore: Bool, at n: Int) throws(SpecError) {
    guard lowered == columns else {
      throw error(n, nil, "\(kind) table columns are \(header.joined(separator: ", ")); expected \(columns.joined(separator: ", "))")
    }
    guard !seenBefore else { throw error(n, nil, "a second \(kind) table; expected one") }
  }

  mutating func readState(_ cells: [String], at n: Int) throws(SpecError) {
    guard cells.count == Self.stateColumns.count else {
      throw error(n, nil, "\(cells.count) cells; expected \(Self.stateColumns.count) (state, role, entry, exit)")
    }
    let (name, quoted) = Rendering.readName(cells[0])
    guard quoted || !name.isEmpty else { throw error(n, "state", "empty cell; expected a state name") }
    guard quoted || (name != Rendering.any && name != Rendering.stay && name != Rendering.ignore) else {
      throw error(n, "state", "'\(name)' is reserved; expected a state name (write `\(name)` for a state of that name)")
    }
    var isInitial = false
    var isFinal = false
    for role in Rendering.splitList(cells[1]) {
      switch role {
      case "initial": isInitial = true
      case "final": isFinal = true
      default: throw error(n, "role", "'\(role)'; expected initial, final, both, or nothing")
      }
    }
    if isInitial, let other = initialState {
      throw error(n, "role", "a second initial state (the first is '\(other.name)' on line \(other.line)); expected one")
    }
    if isInitial { initialState = (name, n) }
    states.append(.init(
      name: name, isInitial: isInitial, isFinal: isFinal, entry: Rendering.splitList(cells[2]).map { Rendering.readName($0).name },
      exit: Rendering.splitList(cells[3]).map { Rendering.readName($0).name }, line: n))
  }

  mutating func readTransition(_ cells: [String], at n: Int) throws(SpecError) {
    guard cells.count == Self.transitionColumns.count else {
      throw error(n, nil, "\(cells.count) cells; expected \(Self.transitionColumns.count) (from, event, guard, to, effects)")
    }
    let sources = cells[0] == Rendering.any ? [] : Rendering.splitList(cells[0])
    guard cells[0] == Rendering.any || (!sources.isEmpty && !sources.contains("")) else {
      throw error(n, "from", "empty state name; expected a state, a comma-separated list of states, or *")
    }
    let from = sources.map { Rendering.readName($0).name }
    guard !cells[1].isEmpty else { throw error(n, "event", "empty cell; expected an event name") }
    guard !cells[3].isEmpty else { throw error(n, "to", "empty cell; expected a state name, (stay) or (ignore)") }
    let effectCells = Rendering.splitList(cells[4])
    guard !effectCells.contains("") else { throw error(n, "effects", "empty effect name in '\(cells[4])'; expected names separated by commas") }
    let effects = effectCells.map { Rendering.readName($0).name }
    // A quoted target is a state, even one named like (stay).
    let (target, quotedTarget) = Rendering.readName(cells[3])
    var transition = SpecDocument.Transition(
      from: from, event: Rendering.readName(cells[1]).name, guardName: cells[2].isEmpty ? nil : Rendering.readName(cells[2]).name,
      to: target, effects: effects, line: n)
    transition.targetIsState = quotedTarget
    transitions.append(transition)
  }

  func finish(lineCount: Int) throws(SpecError) -> SpecDocument {
    if place == .code { throw error(lineCount, nil, "a code block (```) is not closed") }
    if [.stateHeader, .transitionHeader].contains(place) {
      throw error(lineCount, nil, "the table ends after its header; expected the separator row")
    }
    guard sawTransitions else {
      throw error(0, nil, "no transition table; expected a table with the columns \(Self.transitionColumns.joined(separator: ", "))")
    }
    let fallback = file.split(separator: "/").last.map { String($0.split(separator: ".").first ?? $0) } ?? "spec"
    return SpecDocument(file: file, name: name ?? fallback, policy: policy, states: states, transitions: transitions)
  }

  /// Whether a table row is the separator under a header (`| --- | :-: |`).
  static func isSeparatorRow(_ cells: [String]) -> Bool {
    cells.allSatisfy { $0.allSatisfy { "-: ".contains($0) } && $0.contains("-") }
  }

  /// `value` in a line `<key> `value``, or `nil` when the line is not that header.
  static func value(of key: String, in line: String) -> String? {
    guard line.hasPrefix(key) else { return nil }
    var value = String(line.dropFirst(key.count)).trimmingSpaces()
    if value.hasPrefix("`"), value.hasSuffix("`"), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
    return value.trimmingSpaces()
  }

  /// The cells of a table line, `\|` read as a literal bar.
  static func cells(of line: String, at n: Int, file: String) throws(SpecError) -> [String] {
    guard line.hasSuffix("|"), line.count >= 2 else {
      throw SpecError(file: file, line: n, message: "table row does not end with '|'")
    }
    var cells: [String] = []
    var current = ""
    var escaped = false
    for c in line.dropFirst() {
      if escaped {
        if c != "|" { current.append("\\") }
        current.append(c)
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else if c == "|" {
        cells.append(current.trimmingSpaces())
        current = ""
      } else {
        current.append(c)
      }
    }
    return cells
  }
}
