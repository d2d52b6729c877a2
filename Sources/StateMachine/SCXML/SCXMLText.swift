import Foundation

/// How SCXML writes attribute values: lists, `In()`, string literals, times.
enum SCXMLText {
  static let namespace = "http://www.w3.org/2005/07/scxml"
  static let eventProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

  /// `text` escaped for XML text or a double-quoted attribute value (`&`, `<`, `>`, `"`).
  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// A space-separated list.
  static func list(_ text: String) -> [String] { text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init) }

  /// `In('id')` or `In("id")`: the id.
  static func inPredicate(_ text: String) -> String? {
    let t = text.trimmingCharacters(in: .whitespaces)
    guard t.hasPrefix("In("), t.hasSuffix(")") else { return nil }
    return stringLiteral(String(t.dropFirst(3).dropLast()).trimmingCharacters(in: .whitespaces))
  }

  /// `'text'` or `"text"` without quotes inside: the text.
  static func stringLiteral(_ text: String) -> String? {
    let t = text.trimmingCharacters(in: .whitespaces)
    guard t.count >= 2, let quote = t.first, quote == "'" || quote == "\"", t.last == quote else { return nil }
    let inner = t.dropFirst().dropLast()
    return inner.contains(quote) ? nil : String(inner)
  }

  /// A CSS2 time: `500ms`, `1s`, `.5s`, `1.5s` (a bare number is milliseconds).
  static func duration(_ text: String) -> Duration? {
    let t = text.trimmingCharacters(in: .whitespaces)
    let (number, scale): (Substring, Double) =
      t.hasSuffix("ms") ? (t.dropLast(2), 1) : t.hasSuffix("s") ? (t.dropLast(), 1000) : (Substring(t), 1)
    guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(number), value.isFinite,
      value * scale < 1e12
    else { return nil }
    return .nanoseconds(Int64((value * scale * 1_000_000).rounded()))
  }

  static func stem(_ file: String) -> String {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    return name.hasSuffix(".scxml") ? String(name.dropLast(6)) : name
  }
}
