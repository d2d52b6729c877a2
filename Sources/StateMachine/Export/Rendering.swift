/// Names and cells shared by every rendering of a table, so all formats agree.
enum Rendering {
  static let stay = "(stay)"
  static let ignore = "(ignore)"
  static let any = "*"

  /// Splits a comma-separated cell, ignoring commas inside brackets and quotes.
  static func splitList(_ cell: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var depth = 0
    var quoted = false
    for character in cell {
      switch character {
      case "\"": quoted.toggle()
      case "(", "[", "{": if !quoted { depth += 1 }
      case ")", "]", "}": if !quoted { depth -= 1 }
      case "," where depth == 0 && !quoted:
        parts.append(current.trimmingSpaces())
        current = ""
        continue
      default: break
      }
      current.append(character)
    }
    let last = current.trimmingSpaces()
    if !last.isEmpty || !parts.isEmpty { parts.append(last) }
    return parts
  }
}

/// One row as every rendering prints it.
struct RenderedRow: Equatable {
  var sources: [String]  // empty for a wildcard row
  var event: String
  var guardName: String?
  var target: String  // a state name, Rendering.stay or Rendering.ignore
  var effects: [String]

  var isWildcard: Bool { sources.isEmpty }
}

/// One state as every rendering prints it.
struct RenderedState: Equatable {
  var name: String
  var isInitial: Bool
  var isFinal: Bool
  var entry: [String]
  var exit: [String]
}

extension TransitionTable {
  var renderedRows: [RenderedRow] {
    rows.map { row in
      RenderedRow(
        sources: row.sourceStates.map { String(describing: $0) },
        event: String(describing: row.event),
        guardName: row.guardCondition?.name,
        target: row.targetDescription,
        effects: row.effectNames)
    }
  }

  var renderedStates: [RenderedState] {
    let layout = storage.layout
    let initialCase = initial.discriminant
    return layout.cases.indices.map { i in
      RenderedState(
        name: String(describing: layout.cases[i]),
        isInitial: layout.cases[i] == initialCase,
        isFinal: layout.isFinal[i],
        entry: layout.entry[i].map { String(describing: $0) },
        exit: layout.exit[i].map { String(describing: $0) })
    }
  }
}

extension String {
  func trimmingSpaces() -> String {
    var s = Substring(self)
    while s.first?.isWhitespace == true { s.removeFirst() }
    while s.last?.isWhitespace == true { s.removeLast() }
    return String(s)
  }
}
