/// A small hand-written argument parser: positionals, `--name value` options and flags.
package struct Arguments {
  package enum Problem: Error, Equatable, CustomStringConvertible {
    case unknownOption(String)
    case missingValue(String)
    case badValue(option: String, value: String, expected: String)
    case extraArgument(String)
    case missingArgument(String)

    package var description: String {
      switch self {
      case .unknownOption(let o): "unknown option '\(o)'"
      case .missingValue(let o): "option '\(o)' needs a value"
      case .badValue(let o, let v, let e): "option '\(o)': '\(v)'; expected \(e)"
      case .extraArgument(let a): "unexpected argument '\(a)'"
      case .missingArgument(let a): "missing argument <\(a)>"
      }
    }
  }

  package var positionals: [String] = []
  package var options: [String: String] = [:]
  package var flags: Set<String> = []

  /// Parses `words` against the options (which take a value) and flags a command accepts.
  package init(_ words: [String], options valued: Set<String>, flags known: Set<String>) throws(Problem) {
    var i = 0
    while i < words.count {
      let word = words[i]
      if word.hasPrefix("--") {
        var name = word
        var inline: String?
        if let eq = word.firstIndex(of: "=") {
          name = String(word[..<eq])
          inline = String(word[word.index(after: eq)...])
        }
        if valued.contains(name) {
          if let inline {
            options[name] = inline
          } else {
            guard i + 1 < words.count else { throw .missingValue(name) }
            options[name] = words[i + 1]
            i += 1
          }
        } else if known.contains(name), inline == nil {
          flags.insert(name)
        } else {
          throw .unknownOption(name)
        }
      } else if word.hasPrefix("-"), word.count > 1, word != "-" {
        if valued.contains(word) {
          // A short option with its value (`-o page.html`).
          guard i + 1 < words.count else { throw .missingValue(word) }
          options[word] = words[i + 1]
          i += 1
        } else if word == "-h" {
          flags.insert("--help")
        } else {
          throw .unknownOption(word)
        }
      } else {
        positionals.append(word)
      }
      i += 1
    }
  }

  package func integer(_ name: String, default value: Int, range: ClosedRange<Int>) throws(Problem) -> Int {
    guard let text = options[name] else { return value }
    guard let parsed = Int(text), range.contains(parsed) else {
      throw .badValue(option: name, value: text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return parsed
  }

  package func number(_ name: String, default value: Double, range: ClosedRange<Double>) throws(Problem) -> Double {
    guard let text = options[name] else { return value }
    guard let parsed = Double(text), range.contains(parsed) else {
      throw .badValue(option: name, value: text, expected: "a number from \(range.lowerBound) to \(range.upperBound)")
    }
    return parsed
  }
}
