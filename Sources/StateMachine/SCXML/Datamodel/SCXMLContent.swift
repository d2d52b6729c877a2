import Foundation

/// Executable content of a document with a datamodel, as read: what ``SCXMLSession`` runs.
/// Expressions are kept as written, for the datamodel to evaluate when the content runs.
///
/// Not API yet.
package indirect enum SCXMLContent: Sendable {
  case raise(String)
  case send(SCXMLSend)
  /// `<cancel>` by `sendid`, or by the value of `sendidexpr`.
  case cancel(id: String?, expr: String?)
  case log(label: String?, expr: String?)
  /// `<assign>`: the value of `expr`, or of `json` when the element held its value as content.
  case assign(location: String, expr: String?, json: String?)
  case script(String)
  /// `<if>`, `<elseif>`, `<else>`: the first branch whose condition holds runs (`nil`: else).
  case branches([SCXMLBranch])
  case foreach(array: String, item: String, index: String?, body: [SCXMLContent])
  /// A final state's `<donedata>` (its `<content>` or `<param>`s, as a send's): evaluated when
  /// the state is entered, for the done event it causes.
  case doneData(SCXMLSend)
  /// Content and where it was written: an error in it names the place (the error event's data).
  case placed(SCXMLPlace, SCXMLContent)
}

/// Where content was written: its element's name, line and column.
package struct SCXMLPlace: Sendable {
  package let tagname: String
  package let line: Int
  package let column: Int

  /// The data of an `error.execution` event raised there: `tagname`, `line`, `column` and
  /// `reason` (as SCION's runtime gives them).
  func errorData(_ reason: String) -> String {
    "{\"tagname\":\(SCXMLValueText.quoted(tagname)),\"line\":\(line),\"column\":\(column),\"reason\":\(SCXMLValueText.quoted(reason))}"
  }
}

/// What an `<invoke>` asks of its invoking session: values for the invoked chart's data
/// (`namelist`, `<param>`), where its id goes (`idlocation`), and `<finalize>`, run on each
/// event the invoked chart sends back before its invoker takes it.
package struct SCXMLInvokeScript: Sendable {
  package var namelist: [String] = []
  package var params: [(name: String, expr: String)] = []
  package var idlocation: String?
  package var finalize: [SCXMLContent] = []
  /// The invoked document's location or text, evaluated when the invocation starts.
  package var srcexpr: String?
  package var contentExpr: String?
  /// The invoking document's path: what a relative `srcexpr` is read against.
  package var base = ""
  /// What makes the invoking session's datamodel, when it has none yet (a session restored
  /// from a snapshot, whose invocations are made again before its content runs).
  package var datamodel: SCXMLDatamodelMaker?

  package init() {}
}

/// One branch of an `<if>`: its condition (`nil` for `<else>`) and its content.
package struct SCXMLBranch: Sendable {
  package let condition: String?
  package let body: [SCXMLContent]
}

/// A `<send>` as read: each of its values written or as an expression.
package struct SCXMLSend: Sendable {
  package var event: String?
  package var eventexpr: String?
  package var target: String?
  package var targetexpr: String?
  package var type: String?
  package var typeexpr: String?
  package var id: String?
  package var idlocation: String?
  package var delay: Duration?
  package var delayexpr: String?
  package var namelist: [String] = []
  /// `<param name expr|location>`: the name and the expression (a location is one).
  package var params: [(name: String, expr: String)] = []
  /// `<content expr>`: the expression.
  package var contentExpr: String?
  /// `<content>` text: its value as JSON.
  package var contentJSON: String?

  package init() {}
}

/// What a `<data>` declares: its id and where its value comes from (an expression, or JSON read
/// from its content or its `src`), or nothing (`undefined`).
package struct SCXMLData: Sendable {
  package let id: String
  package let expr: String?
  package let json: String?
  /// The line it is on, for errors.
  package let line: Int
}

package enum SCXMLValueText {
  /// The JSON of text given as a value (`<data>`, `<content>`, `<assign>` content, a `src`
  /// file): the text itself when it is JSON, else the text as a space-normalized string (runs
  /// of white space made one space, none at the ends), as section B.2 says.
  static func json(_ text: String) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if let data = trimmed.data(using: .utf8), (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil {
      return trimmed
    }
    return quoted(trimmed.split(whereSeparator: \.isWhitespace).joined(separator: " "))
  }

  /// The JSON an XML value is given as (`<data>` or `<content>` holding elements, a `src`
  /// file that is XML): a document of `elements`, marked so that a datamodel can make it a DOM
  /// (`{"$xml": {"tag": "#document", "attributes": {}, "text": "", "children": [...]}}`).
  static func xml(_ elements: [XMLElementNode]) -> String {
    func tree(_ tag: String, _ attributes: [String: String], _ text: String, _ children: [XMLElementNode]) -> String {
      let fields = attributes.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + quoted($0.value) }.joined(separator: ",")
      let inner = children.map { tree($0.name, $0.attributes, $0.text, $0.children) }.joined(separator: ",")
      return "{\"tag\":\(quoted(tag)),\"attributes\":{\(fields)},\"text\":\(quoted(text.trimmingCharacters(in: .whitespacesAndNewlines))),\"children\":[\(inner)]}"
    }
    return "{\"$xml\":" + tree("#document", [:], "", elements) + "}"
  }

  /// The value of a file's text: XML (a document), JSON, or a space-normalized string.
  static func value(ofFile text: String) -> String {
    if text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<"), case .success(let root) = XMLElementNode.parse(Data(text.utf8)) {
      return xml([root])
    }
    return json(text)
  }

  /// `text` as a JSON string.
  package static func quoted(_ text: String) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]),
      let array = String(data: data, encoding: .utf8)
    else { return "\"\"" }
    return String(array.dropFirst().dropLast())
  }
}
