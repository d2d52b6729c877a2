import Foundation

/// `<invoke>` (SCXML §6.4), without a datamodel: an SCXML document given inline in `<content>`
/// or by `src` (relative to the invoking document), with its `id` and `autoforward`.
extension SCXMLReader {
  /// The invocation `node` declares, or `nil` (with what is wrong recorded).
  mutating func invoke(_ node: XMLElementNode) -> ChartInvoke<ID, Event, Context, Effect>? {
    let scripted = bindings.scripting != nil
    for attribute in ["typeexpr", "srcexpr", "idlocation", "namelist"] where node.attributes[attribute] != nil {
      if !scripted || attribute == "typeexpr" { needsDatamodel(node, attribute: attribute) }
    }
    if let type = node.attributes["type"], type != "http://www.w3.org/TR/scxml/", type != "http://www.w3.org/TR/scxml", type != "scxml" {
      invalid(node, "type '\(type)'; expected http://www.w3.org/TR/scxml/ (an SCXML document)")
      return nil
    }
    var autoforward = false
    switch node.attributes["autoforward"] {
    case nil, "false"?: break
    case "true"?: autoforward = true
    case let text?:
      invalid(node, "autoforward '\(text)'; expected true or false")
      return nil
    }
    var contents: [XMLElementNode] = []
    for child in node.children where ours(child) {
      switch child.name {
      case "param": if !scripted { needsDatamodel(child) }
      case "finalize": if !scripted, child.children.contains(where: ours) { needsDatamodel(child) }
      case "content": contents.append(child)
      default: invalid(child, "unexpected in <invoke>")
      }
    }
    guard chain.depth < SCXMLDocument.maxInvokeDepth else {
      invalid(node, "invocations nested more than \(SCXMLDocument.maxInvokeDepth) documents deep")
      return nil
    }
    let id = node.attributes["id"]
    let script = scripted ? invokeScript(node) : nil
    switch (node.attributes["src"], contents.count) {
    case (let src?, 0):
      guard let chart = document(at: src, node) else { return nil }
      var invoke = ChartInvoke(id: id, chart: chart, source: src, autoforward: autoforward)
      invoke.script = script
      return invoke
    case (nil, 1):
      let content = contents[0]
      if content.attributes["expr"] != nil {
        guard scripted else {
          needsDatamodel(content, attribute: "expr")
          return nil
        }
        return runTimeInvoke(node, id: id, autoforward: autoforward, script: script)
      }
      let documents = content.children.filter(ours)
      guard documents.count == 1, documents[0].name == "scxml" else {
        invalid(content, "expected one <scxml> document")
        return nil
      }
      return inline(documents[0], name: id ?? "invoked").map {
        var invoke = ChartInvoke(id: id, chart: $0, source: nil, autoforward: autoforward)
        invoke.script = script
        return invoke
      }
    case (nil, 0) where scripted && node.attributes["srcexpr"] != nil:
      return runTimeInvoke(node, id: id, autoforward: autoforward, script: script)
    default:
      if node.attributes["srcexpr"] == nil { invalid(node, "expected either a src attribute or one <content>") }
      return nil
    }
  }

  /// An invocation whose document is named when it starts (`srcexpr`, `<content expr>`): its
  /// chart until then is an empty one (a single final state), which the runtime replaces.
  mutating func runTimeInvoke(
    _ node: XMLElementNode, id: String?, autoforward: Bool, script: SCXMLInvokeScript?
  ) -> ChartInvoke<ID, Event, Context, Effect>? {
    guard let final = bindings.state("(read when invoked)") else { return nil }
    do {
      var invoke = ChartInvoke(
        id: id, chart: try make(("(read when invoked)", nil, [State(id: final, kind: .final)], [])), source: nil, autoforward: autoforward)
      invoke.script = script
      return invoke
    } catch {
      invalid(node, "\(error)")
      return nil
    }
  }

  /// The chart of a document given inline, named `name` unless it names itself; its problems
  /// are this document's.
  mutating func inline(_ root: XMLElementNode, name: String) -> Chart<ID, Event, Context, Effect>? {
    var reader = SCXMLReader(file: file, bindings: bindings, chain: chain.inline(), make: make)
    let tree = reader.chart(root).map { (root.attributes["name"] ?? name, $0.initial, $0.states, $0.initialActions) }
    (problems, datamodelPlaces, unbound) = (problems + reader.problems, datamodelPlaces + reader.datamodelPlaces, unbound + reader.unbound)
    generated = max(generated, reader.generated)
    guard let tree, reader.problems.isEmpty, reader.datamodelPlaces.isEmpty, reader.unbound.isEmpty else { return nil }
    do {
      return try make(tree)
    } catch {
      problems += error.problems.map { .init(line: $0.line ?? root.line, column: nil, element: $0.state.map { "state '\($0)'" }, message: $0.message) }
      return nil
    }
  }

  /// The chart of the document at `src`, relative to this one's folder; what is wrong with it
  /// is a problem of `node`, naming it.
  mutating func document(at src: String, _ node: XMLElementNode) -> Chart<ID, Event, Context, Effect>? {
    let written = src.hasPrefix("file:") ? String(src.dropFirst("file:".count)) : src
    let path = written.hasPrefix("/") ? written : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(written).path
    let below: SCXMLInvokeChain
    switch chain.reading(path, from: file) {
    case .success(let chain): below = chain
    case .failure(let refusal):
      invalid(node, "src '\(src)': \(refusal.message)")
      return nil
    }
    do throws(SCXMLError) {
      return try SCXMLDocument.read(Data(SCXMLDocument.contents(of: path)), file: path, bindings: bindings, chain: below, make: make)
    } catch {
      invalid(node, "src '\(src)': \(error.description)")
      return nil
    }
  }
}
