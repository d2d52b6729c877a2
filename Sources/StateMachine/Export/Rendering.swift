/// Names and cells shared by every rendering of a table, so all formats agree.
enum Rendering {
  static let stay = "(stay)"
  static let ignore = "(ignore)"
  static let any = "*"

  /// `text` with its control characters (which diagrams cannot show) replaced by their
  /// visible symbols: U+0000…U+001F as U+2400…U+241F, DEL as U+2421.
  static func visible(_ text: String, keepingNewlines: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if keepingNewlines, scalar == "\n" {
        out.append(scalar)
      } else if scalar.value < 0x20 {
        out.append(Unicode.Scalar(0x2400 + scalar.value)!)
      } else if scalar.value == 0x7F {
        out.append(Unicode.Scalar(0x2421)!)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// How a name is written in a Markdown cell so that it reads back as itself: as it is when
  /// it can be, otherwise as a code span, `` `…` ``, with `\`` for a backtick, `\\` for a
  /// backslash and `\n`, `\r`, `\t` or `\u{…}` for control characters. Quoted are: the
  /// reserved words (`*`, `(stay)`, `(ignore)`), the empty name, names with spaces at either
  /// end, names a list would split (a comma outside brackets, an unbalanced bracket or quote),
  /// and names with a backtick, backslash or control character.
  static func cellName(_ name: String) -> String {
    let plain =
      !name.isEmpty && name != any && name != stay && name != ignore && name.trimmingSpaces() == name
      && !name.contains(where: { $0 == "`" || $0 == "\\" || $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } })
      && splitList(name) == [name] && isBalanced(name)
    return plain ? name : quoted(name)
  }

  /// Whether `name`'s brackets close in order and its double quotes pair up, so that in a
  /// list it does not change how the items after it are split (see ``splitList(_:)``).
  static func isBalanced(_ name: String) -> Bool {
    var depth = 0
    var quoted = false
    for character in name {
      switch character {
      case "\"": quoted.toggle()
      case "(", "[", "{": if !quoted { depth += 1 }
      case ")", "]", "}":
        if !quoted {
          depth -= 1
          if depth < 0 { return false }
        }
      default: break
      }
    }
    return depth == 0 && !quoted
  }

  /// A name where a cell is read as words (an action, an initial target before ` / `, an
  /// event list): quoted when it holds whitespace, so it reads back as one word.
  static func wordName(_ name: String) -> String {
    name.contains(where: \.isWhitespace) ? quoted(name) : cellName(name)
  }

  /// Splits a cell into words at spaces outside code spans (a quoted name stays one word).
  static func words(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    var code = false
    var escaped = false
    for character in text {
      if code {
        current.append(character)
        if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "`" { code = false }
        continue
      }
      if character == " " {
        if !current.isEmpty { words.append(current) }
        current = ""
        continue
      }
      if character == "`" { code = true }
      current.append(character)
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// Where `separator` first occurs in `text` outside code spans.
  static func range(of separator: String, outsideCodeIn text: String) -> Range<String.Index>? {
    var code = false
    var escaped = false
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if code {
        if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "`" { code = false }
      } else if character == "`" {
        code = true
      } else if text[index...].hasPrefix(separator) {
        return index..<text.index(index, offsetBy: separator.count)
      }
      index = text.index(after: index)
    }
    return nil
  }

  /// `name` as a code span, always (see ``cellName(_:)``).
  static func quoted(_ name: String) -> String {
    var out = "`"
    for scalar in name.unicodeScalars {
      switch scalar {
      case "`": out += "\\`"
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "`"
  }

  /// A name read from a cell: a code span is unquoted (and is never a reserved word).
  static func readName(_ text: String) -> (name: String, quoted: Bool) {
    guard text.count >= 2, text.hasPrefix("`"), text.hasSuffix("`") else { return (text, false) }
    var out = ""
    var scalars = Array(text.unicodeScalars.dropFirst().dropLast())[...]
    while let scalar = scalars.popFirst() {
      guard scalar == "\\", let next = scalars.popFirst() else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch next {
      case "n": out += "\n"
      case "r": out += "\r"
      case "t": out += "\t"
      case "u":
        var hex = ""
        if scalars.first == "{" {
          scalars.removeFirst()
          while let h = scalars.popFirst(), h != "}" { hex.unicodeScalars.append(h) }
        }
        out.unicodeScalars.append(UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init) ?? "\u{FFFD}")
      default: out.unicodeScalars.append(next)
      }
    }
    return (out, true)
  }

  /// Splits a comma-separated cell, ignoring commas inside brackets, quotes and code spans.
  static func splitList(_ cell: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var depth = 0
    var quoted = false
    var code = false
    var escaped = false
    for character in cell {
      if code {
        current.append(character)
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "`" {
          code = false
        }
        continue
      }
      switch character {
      case "`":
        code = true
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
  var targetIsState: Bool
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
  /// Row `index` (from 0) as one line: `from loading on failed [retries left] -> failure / retry`.
  func describeRow(_ index: Int) -> String {
    guard renderedRows.indices.contains(index) else { return "no row \(index + 1)" }
    let row = renderedRows[index]
    var text = "from " + (row.isWildcard ? Rendering.any : row.sources.joined(separator: ", ")) + " on " + row.event
    if let guardName = row.guardName { text += " [\(guardName)]" }
    text += " -> " + row.target
    if !row.effects.isEmpty { text += " / " + row.effects.joined(separator: ", ") }
    return text
  }

  var renderedRows: [RenderedRow] {
    rows.map { row in
      RenderedRow(
        sources: row.sourceStates.map { String(describing: $0) },
        event: String(describing: row.event),
        guardName: row.guardCondition?.name,
        target: row.targetDescription,
        targetIsState: row.targetCase != nil,
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
