import Foundation

/// A document's datamodel content (`<data>`, `<script>`, `<assign>`, `<if>`, `<foreach>`,
/// `<send>` with expressions, `<log expr>`), read into ``SCXMLContent`` when the bindings have a
/// datamodel's hooks (``SCXMLScriptingHooks``).
extension SCXMLReader {
  /// A block of executable content.
  mutating func scriptedContent(_ nodes: [XMLElementNode]) -> [SCXMLContent] {
    var block: [SCXMLContent] = []
    for node in nodes where ours(node) {
      let count = block.count
      // Each item is kept with where it was written, for its errors.
      defer { if block.count > count { block[count] = .placed(SCXMLPlace(tagname: node.name, line: node.line, column: node.column), block[count]) } }
      switch node.name {
      case "raise":
        guard let name = node.attributes["event"] else {
          invalid(node, "needs an event attribute")
          continue
        }
        block.append(.raise(name))
      case "send": if let send = scriptedSend(node) { block.append(.send(send)) }
      case "cancel":
        guard node.attributes["sendid"] != nil || node.attributes["sendidexpr"] != nil else {
          invalid(node, "needs a sendid or sendidexpr attribute")
          continue
        }
        block.append(.cancel(id: node.attributes["sendid"], expr: node.attributes["sendidexpr"]))
      case "log": block.append(.log(label: node.attributes["label"], expr: node.attributes["expr"]))
      case "assign":
        guard let location = node.attributes["location"] else {
          invalid(node, "needs a location attribute")
          continue
        }
        // Content that is XML is assigned as its text.
        let elements = node.children.map(\.xml).joined()
        let text = node.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let json = !elements.isEmpty ? SCXMLValueText.quoted(elements) : text.isEmpty ? nil : SCXMLValueText.json(text)
        block.append(.assign(location: location, expr: node.attributes["expr"], json: json))
      case "script": if let script = script(node) { block.append(.script(script)) }
      case "if": if let branches = branches(node) { block.append(.branches(branches)) }
      case "foreach":
        guard let array = node.attributes["array"], let item = node.attributes["item"] else {
          invalid(node, "needs array and item attributes")
          continue
        }
        block.append(.foreach(array: array, item: item, index: node.attributes["index"], body: scriptedContent(node.children)))
      default: invalid(node, "not executable content")
      }
    }
    return block
  }

  /// An `<if>`'s branches: its own, then one per `<elseif>` and `<else>` among its children
  /// (an `<else>`'s condition is `nil`: it always holds).
  mutating func branches(_ node: XMLElementNode) -> [SCXMLBranch]? {
    guard let first = node.attributes["cond"] else {
      invalid(node, "needs a cond attribute")
      return nil
    }
    var condition: String? = first
    var branches: [SCXMLBranch] = []
    var body: [XMLElementNode] = []
    for child in node.children where ours(child) {
      guard child.name == "elseif" || child.name == "else" else {
        body.append(child)
        continue
      }
      branches.append(SCXMLBranch(condition: condition, body: scriptedContent(body)))
      body = []
      if child.name == "else" {
        condition = nil
      } else if let next = child.attributes["cond"] {
        condition = next
      } else {
        invalid(child, "needs a cond attribute")
        return nil
      }
    }
    branches.append(SCXMLBranch(condition: condition, body: scriptedContent(body)))
    return branches
  }

  /// A `<send>`'s values, each as written or as an expression.
  mutating func scriptedSend(_ node: XMLElementNode) -> SCXMLSend? {
    var send = SCXMLSend()
    (send.event, send.eventexpr) = (node.attributes["event"], node.attributes["eventexpr"])
    (send.target, send.targetexpr) = (node.attributes["target"], node.attributes["targetexpr"])
    (send.type, send.typeexpr) = (node.attributes["type"], node.attributes["typeexpr"])
    (send.id, send.idlocation, send.delayexpr) = (node.attributes["id"], node.attributes["idlocation"], node.attributes["delayexpr"])
    guard send.event != nil || send.eventexpr != nil else {
      invalid(node, "needs an event or eventexpr attribute")
      return nil
    }
    if let text = node.attributes["delay"] {
      guard let delay = SCXMLText.duration(text) else {
        invalid(node, "delay '\(text)'; expected a time such as 500ms or 1.5s")
        return nil
      }
      send.delay = delay
    }
    send.namelist = node.attributes["namelist"].map(SCXMLText.list) ?? []
    for child in node.children where ours(child) && !payload(child, into: &send) { invalid(child, "unexpected in <send>") }
    return send
  }

  /// A `<donedata>`'s `<content>` or `<param>`s, read as a send's.
  mutating func doneData(_ node: XMLElementNode) -> SCXMLSend {
    var data = SCXMLSend()
    for child in node.children where ours(child) && !payload(child, into: &data) { invalid(child, "unexpected in <donedata>") }
    return data
  }

  /// Reads `child` into `send`'s data when it is a `<param>` or a `<content>` (an expression,
  /// XML, or text); `false` when it is neither.
  mutating func payload(_ child: XMLElementNode, into send: inout SCXMLSend) -> Bool {
    switch child.name {
    case "param": if let param = param(child) { send.params.append(param) }
    case "content":
      if let expression = child.attributes["expr"] {
        send.contentExpr = expression
      } else if !child.children.isEmpty {
        send.contentJSON = SCXMLValueText.xml(child.children)
      } else {
        send.contentJSON = SCXMLValueText.json(child.text)
      }
    default: return false
    }
    return true
  }

  /// A `<param>`'s name and expression (its `expr`, or its `location`, an expression too).
  mutating func param(_ node: XMLElementNode) -> (name: String, expr: String)? {
    guard let name = node.attributes["name"], let expression = node.attributes["expr"] ?? node.attributes["location"] else {
      invalid(node, "needs a name and an expr or location attribute")
      return nil
    }
    return (name, expression)
  }

  /// What an `<invoke>` asks of its invoking session (with a datamodel): its namelist, params,
  /// idlocation and finalize.
  mutating func invokeScript(_ node: XMLElementNode) -> SCXMLInvokeScript {
    var script = SCXMLInvokeScript()
    script.namelist = node.attributes["namelist"].map(SCXMLText.list) ?? []
    script.idlocation = node.attributes["idlocation"]
    (script.srcexpr, script.base) = (node.attributes["srcexpr"], file)
    script.datamodel = bindings.scripting?.datamodel
    for child in node.children where ours(child) {
      switch child.name {
      case "param": if let param = param(child) { script.params.append(param) }
      case "finalize": script.finalize = scriptedContent(child.children)
      case "content": script.contentExpr = child.attributes["expr"]
      default: break
      }
    }
    return script
  }

  /// A `<script>`'s text: its own, or its `src` file's (relative to this document).
  mutating func script(_ node: XMLElementNode) -> String? {
    guard let src = node.attributes["src"] else { return node.text }
    return text(at: src, node)
  }

  /// The `<data>` a `<datamodel>` declares.
  mutating func data(_ node: XMLElementNode) -> [SCXMLData] {
    var items: [SCXMLData] = []
    for child in node.children where ours(child) {
      guard child.name == "data", let id = child.attributes["id"] else {
        invalid(child, child.name == "data" ? "needs an id attribute" : "unexpected in <datamodel>")
        continue
      }
      let text = child.text.trimmingCharacters(in: .whitespacesAndNewlines)
      let elements = child.children
      var json: String? = !elements.isEmpty ? SCXMLValueText.xml(elements) : text.isEmpty ? nil : SCXMLValueText.json(text)
      if let src = child.attributes["src"] {
        guard let read = self.text(at: src, child) else { continue }
        json = SCXMLValueText.value(ofFile: read)
      }
      items.append(SCXMLData(id: id, expr: child.attributes["expr"], json: json, line: child.line))
    }
    return items
  }

  /// The text of the file at `src`, relative to this document's folder (at most
  /// ``SCXMLDocument/maxFileSize`` bytes); what is wrong is a problem of `node`.
  mutating func text(at src: String, _ node: XMLElementNode) -> String? {
    let written = src.hasPrefix("file:") ? String(src.dropFirst("file:".count)) : src
    let path = written.hasPrefix("/") ? written : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(written).path
    do throws(SCXMLError) {
      return String(decoding: try SCXMLDocument.contents(of: path), as: UTF8.self)
    } catch {
      invalid(node, "src '\(src)': \(error.description)")
      return nil
    }
  }
}
