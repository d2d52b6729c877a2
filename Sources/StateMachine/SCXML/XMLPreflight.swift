import Foundation

/// One pass over a document's bytes before Foundation's `XMLParser` sees them, for what that
/// parser does badly: it dereferences a NULL string for a processing instruction without data
/// (`<?x?>`), and its attribute handling is quadratic in the attributes of one element.
///
/// Processing instructions are legal XML that SCXML gives no meaning to: they are blanked out
/// (every byte but newlines becomes a space, so lines and columns stay where they were). The
/// XML declaration at the very start is kept. An element with more than
/// ``XMLElementNode/maxAttributes`` attributes is refused with its line, and so is a `<` inside
/// a tag or an attribute value (not well-formed, and where the parser would otherwise find a
/// `<?x?>`).
enum XMLPreflight {
  /// The document with its processing instructions blanked, or why it is refused.
  static func clean(_ data: Data) -> Result<Data, XMLReadError> {
    var bytes = [UInt8](data)
    var i = 0
    var line = 1
    var lineStart = 0
    let n = bytes.count
    /// Open elements, and whether the root element has been closed.
    var depth = 0
    var rootClosed = false
    func afterRoot(_ what: String) -> XMLReadError {
      XMLReadError(line: line, column: i - lineStart + 1, message: "\(what) after the root element; expected nothing but comments after it")
    }
    func starts(_ text: StaticString, at k: Int) -> Bool {
      let count = text.utf8CodeUnitCount
      guard k + count <= n else { return false }
      return text.withUTF8Buffer { t in (0..<count).allSatisfy { bytes[k + $0] == t[$0] } }
    }
    /// Moves `i` past the next `terminator`, counting lines; false when the input ends first.
    func skip(past terminator: StaticString) -> Bool {
      while i < n {
        if starts(terminator, at: i) {
          i += terminator.utf8CodeUnitCount
          return true
        }
        if bytes[i] == UInt8(ascii: "\n") { (line, lineStart) = (line + 1, i + 1) }
        i += 1
      }
      return false
    }
    while i < n {
      let byte = bytes[i]
      if byte == UInt8(ascii: "\n") {
        (line, lineStart) = (line + 1, i + 1)
        i += 1
        continue
      }
      guard byte == UInt8(ascii: "<"), i + 1 < n else {
        if rootClosed, ![0x20, 0x09, 0x0D].contains(byte) { return .failure(afterRoot("text")) }
        i += 1
        continue
      }
      if starts("<!--", at: i) {
        i += 4
        if !skip(past: "-->") { break }
      } else if starts("<![CDATA[", at: i) {
        i += 9
        if !skip(past: "]]>") { break }
      } else if bytes[i + 1] == UInt8(ascii: "?") {
        let start = i
        let isDeclaration = start == 0 && starts("<?xml", at: 0) && (n > 5 && [0x20, 0x09, 0x0A, 0x0D, 0x3F].contains(bytes[5]))
        i += 2
        let (firstLine, firstColumn) = (line, start - lineStart + 1)
        if !skip(past: "?>") {
          return .failure(XMLReadError(line: firstLine, column: firstColumn, message: "a processing instruction is not closed with '?>'"))
        }
        if !isDeclaration {
          for k in start..<i where bytes[k] != UInt8(ascii: "\n") { bytes[k] = UInt8(ascii: " ") }
        } else if bytes[(start + 2)..<(i - 2)].contains(UInt8(ascii: "<")) {
          // The declaration holds only version, encoding and standalone: a `<` means it was not
          // closed, and what follows would reach the parser as part of it.
          return .failure(XMLReadError(line: firstLine, column: firstColumn, message: "the XML declaration is not closed with '?>' before the next '<'"))
        }
      } else if bytes[i + 1] == UInt8(ascii: "!") {
        i += 2
      } else if bytes[i + 1] == UInt8(ascii: "/") {
        let (tagLine, tagColumn) = (line, i - lineStart + 1)
        i += 2
        while i < n, bytes[i] != UInt8(ascii: ">") {
          if bytes[i] == UInt8(ascii: "<") {
            return .failure(XMLReadError(
              line: line, column: i - lineStart + 1, message: "'<' inside the end tag opened at line \(tagLine), column \(tagColumn); expected '>' first"))
          }
          if bytes[i] == UInt8(ascii: "\n") { (line, lineStart) = (line + 1, i + 1) }
          i += 1
        }
        if i >= n { break }
        i += 1
        depth -= 1
        if depth == 0 { rootClosed = true }
      } else {
        if rootClosed { return .failure(afterRoot("an element")) }
        // A start tag: count its attributes (an `=` outside quoted values each).
        let (tagLine, tagColumn) = (line, i - lineStart + 1)
        var attributes = 0
        var quote: UInt8?
        i += 1
        while i < n {
          let c = bytes[i]
          if c == UInt8(ascii: "\n") { (line, lineStart) = (line + 1, i + 1) }
          if c == UInt8(ascii: "<") {
            // Not well-formed XML; the parser's recovery would read a `<?x?>` here as a
            // processing instruction, the one it crashes on.
            return .failure(XMLReadError(
              line: line, column: i - lineStart + 1,
              message: quote == nil
                ? "'<' inside the tag opened at line \(tagLine), column \(tagColumn); expected '>' first"
                : "'<' inside an attribute value; expected it written as &lt;"))
          }
          if let q = quote {
            if c == q { quote = nil }
          } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
            quote = c
          } else if c == UInt8(ascii: "=") {
            attributes += 1
            if attributes > XMLElementNode.maxAttributes {
              return .failure(XMLReadError(
                line: tagLine, column: tagColumn,
                message: "an element with more than \(XMLElementNode.maxAttributes) attributes; expected at most \(XMLElementNode.maxAttributes)"))
            }
          } else if c == UInt8(ascii: ">") {
            if bytes[i - 1] != UInt8(ascii: "/") {
              depth += 1
            } else if depth == 0 {
              rootClosed = true
            }
            i += 1
            break
          }
          i += 1
        }
      }
    }
    return .success(Data(bytes))
  }
}
