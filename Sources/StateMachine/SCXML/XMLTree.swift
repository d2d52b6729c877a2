import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A small element tree read with Foundation's `XMLParser`: local names (namespace prefixes
/// dropped), attributes, children and the line and column of each start tag.
final class XMLElementNode {
  let name: String
  let namespace: String?
  let attributes: [String: String]
  /// The namespace prefixes in scope at this element (prefix → URI), for prefixed attributes.
  let prefixes: [String: String]
  let line: Int
  let column: Int
  var children: [XMLElementNode] = []
  /// The element's own text (its character data and CDATA sections, in order).
  var text = ""

  init(name: String, namespace: String?, attributes: [String: String], prefixes: [String: String] = [:], line: Int, column: Int) {
    (self.name, self.namespace, self.attributes, self.prefixes) = (name, namespace, attributes, prefixes)
    (self.line, self.column) = (line, column)
  }

  /// The attribute `local` of the namespace `uri` (written with whatever prefix the document
  /// bound to it), if present.
  func attribute(_ local: String, namespace uri: String) -> String? {
    for (key, value) in attributes {
      guard let colon = key.firstIndex(of: ":"), key[key.index(after: colon)...] == local else { continue }
      if prefixes[String(key[..<colon])] == uri { return value }
    }
    return nil
  }

  /// Parses `data`; the root element, or the parser's error with its line and column.
  static func parse(_ input: Data) -> Result<XMLElementNode, XMLReadError> {
    let data: Data
    switch XMLPreflight.clean(input) {
    case .success(let cleaned): data = cleaned
    case .failure(let error): return .failure(error)
    }
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = true
    parser.shouldReportNamespacePrefixes = true
    parser.shouldResolveExternalEntities = false
    let delegate = TreeBuilder()
    parser.delegate = delegate
    let ok = parser.parse()
    if let deep = delegate.tooDeep {
      return .failure(XMLReadError(line: deep.line, column: deep.column, message: "elements nested deeper than \(maxDepth) levels"))
    }
    if let mismatch = delegate.mismatch { return .failure(mismatch) }
    if let refused = delegate.refused { return .failure(refused) }
    if let open = delegate.stack.last {
      return .failure(XMLReadError(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber), message: "<\(open.name)> opened on line \(open.line) is not closed"))
    }
    if !ok || delegate.root == nil {
      let error = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not an XML document"
      return .failure(XMLReadError(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber), message: error))
    }
    return .success(delegate.root!)
  }
}

extension XMLElementNode {
  /// The element written back as XML: its name, attributes (sorted), text, then children (the
  /// text's place among the children is not kept). What a datamodel gets for XML content.
  var xml: String {
    let attributes = attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\"\(SCXMLText.escaped($0.value))\"" }.joined()
    let text = SCXMLText.escaped(text.trimmingCharacters(in: .whitespacesAndNewlines))
    let inner = text + children.map(\.xml).joined()
    return inner.isEmpty ? "<\(name)\(attributes)/>" : "<\(name)\(attributes)>\(inner)</\(name)>"
  }

  /// The deepest nesting accepted (the chart is built recursively).
  static let maxDepth = 256
  /// The most attributes one element may have (Foundation's parser is quadratic in them).
  static let maxAttributes = 1_000
}

struct XMLReadError: Error {
  let line: Int
  let column: Int
  let message: String
}

/// Builds the tree as the parser reports elements.
private final class TreeBuilder: NSObject, XMLParserDelegate {
  var root: XMLElementNode?
  var stack: [XMLElementNode] = []
  var tooDeep: (line: Int, column: Int)?
  var mismatch: XMLReadError?
  /// Well-formed XML this reader still refuses: a second root, an undeclared prefix.
  var refused: XMLReadError?
  /// Prefixes declared on the element about to start.
  var pending: [String: String] = [:]

  func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
    pending[prefix] = namespaceURI
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    guard stack.count < XMLElementNode.maxDepth else {
      if tooDeep == nil { tooDeep = (parser.lineNumber, parser.columnNumber) }
      parser.abortParsing()
      return
    }
    let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
    let prefixes = pending.isEmpty ? stack.last?.prefixes ?? [:] : (stack.last?.prefixes ?? [:]).merging(pending) { $1 }
    pending = [:]
    if stack.isEmpty, let root {
      refuse(parser, "<\(local)> after the root element <\(root.name)> (closed before it); expected nothing after the root element")
      return
    }
    let names = [qualifiedName ?? elementName] + attributes.keys.sorted()
    for name in names {
      guard let colon = name.firstIndex(of: ":") else { continue }
      let prefix = String(name[..<colon])
      if prefix != "xml", prefix != "xmlns", prefixes[prefix] == nil {
        refuse(parser, "the prefix '\(prefix)' of '\(name)' is not declared; expected an xmlns:\(prefix) declaration in scope")
        return
      }
    }
    let node = XMLElementNode(
      name: local, namespace: namespaceURI, attributes: attributes, prefixes: prefixes, line: parser.lineNumber,
      column: parser.columnNumber)
    if let parent = stack.last { parent.children.append(node) } else if root == nil { root = node }
    stack.append(node)
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if stack.isEmpty, let root, string.contains(where: { !$0.isWhitespace }) {
      refuse(parser, "text after the root element <\(root.name)>; expected nothing after the root element")
    }
    stack.last?.text += string
  }

  func parser(_ parser: XMLParser, foundCDATA block: Data) {
    stack.last?.text += String(decoding: block, as: UTF8.self)
  }

  func refuse(_ parser: XMLParser, _ message: String) {
    if refused == nil { refused = XMLReadError(line: parser.lineNumber, column: parser.columnNumber, message: message) }
    parser.abortParsing()
  }

  func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
    let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
    guard let open = stack.last, open.name == local else {
      if mismatch == nil {
        let expected = stack.last.map { "</\($0.name)> for <\($0.name)> opened on line \($0.line)" } ?? "no end tag"
        mismatch = XMLReadError(line: parser.lineNumber, column: parser.columnNumber, message: "end tag </\(local)>; expected \(expected)")
      }
      parser.abortParsing()
      return
    }
    stack.removeLast()
  }
}
