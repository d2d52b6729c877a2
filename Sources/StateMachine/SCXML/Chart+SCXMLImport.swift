import Foundation

extension Chart where Event: Discriminated {
  /// Reads an SCXML document into a chart of your own types, the document's names bound by
  /// `bindings`; `file` names the document in errors.
  ///
  /// ```swift
  /// let chart = try Chart(scxml: data, file: "door.scxml", bindings: SCXMLBindings<Door, Input, Lock, String>(
  ///     state: Door.init(rawValue:), guards: [codeIsRight]))
  /// ```
  ///
  /// - Throws: ``SCXMLError``: malformed XML, content that needs a datamodel (`<script>`,
  ///   `<assign>`…), a name with no binding (``SCXMLError/Kind/unbound``: every one, with its
  ///   line), or an invalid chart.
  public init(scxml data: Data, file: String, bindings: SCXMLBindings<ID, Event, Context, Effect>) throws(SCXMLError) {
    self = try SCXMLDocument.read(data, file: file, bindings: bindings, chain: SCXMLInvokeChain()) { tree throws(ChartError) in
      try Chart(name: tree.name, initial: tree.initial, states: tree.states, initialActions: tree.initialActions)
    }
  }

  /// Reads the SCXML file at `path` (at most ``SCXMLDocument/maxFileSize`` bytes, refused
  /// before reading) into a chart of your own types; see ``init(scxml:file:bindings:)``.
  public init(scxmlContentsOf path: String, bindings: SCXMLBindings<ID, Event, Context, Effect>) throws(SCXMLError) {
    try self.init(scxml: Data(SCXMLDocument.contents(of: path)), file: path, bindings: bindings)
  }
}
