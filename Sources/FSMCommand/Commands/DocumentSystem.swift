import StateMachine

/// A chart file that invokes other charts (`<invoke>`): every command runs it with them, as the
/// one system it is. Its root is the document read as a store runs it (effects as ``Command``s,
/// each invocation a child machine), so its demo runs in a store, its logs are a system's (each
/// child's steps among its own), and its replay, page and exploration see the children too.
struct DocumentSystem {
  typealias Root = Chart<String, String, NoContext, Command<String, String>>

  /// The document as the other commands read it (drawn with the charts it invokes).
  let document: SCXMLDocument.DocumentChart
  /// The document as a store runs it, its invocations child machines.
  let root: Root
  let file: String

  /// The system of the document `chart` read from `file`; `nil` when it invokes nothing.
  ///
  /// - Throws: What reading the document as a store runs it throws (the same document read
  ///   once already, so only a file changed in between).
  static func of(_ chart: SCXMLDocument.DocumentChart, file: String) throws(SCXMLError) -> DocumentSystem? {
    guard chart.declaresInvokes else { return nil }
    return DocumentSystem(document: chart, root: try SCXMLDocument.systemChart(contentsOf: file), file: file)
  }

  /// The events from outside the system: the document's, but those the system raises itself (a
  /// child's end, `done.invoke.*`, and errors, `error.*`), in the document's order.
  var inputs: [String] { Self.inputs(of: document.eventNames) }

  /// Of a document's event `names`, those from outside its system (see ``inputs``).
  static func inputs(of names: [String]) -> [String] {
    names.filter { !$0.hasPrefix("done.invoke.") && $0 != "done.invoke" && !$0.hasPrefix("error.") && $0 != "error" }
  }

  /// ``inputs`` as the system's events: each for the root.
  var systemInputs: [SystemEvent<String>] { inputs.map { .root($0) } }

  /// `parent and the charts it invokes (worker)`.
  var title: String { Self.title(of: document) }

  /// `parent and the charts it invokes (worker)`, of any chart that invokes.
  static func title<ID, Event, Context, Effect>(of chart: Chart<ID, Event, Context, Effect>) -> String {
    "\(chart.name) and the charts it invokes (\(chart.declaredInvokes.map { $0.invoke.chart.name }.joined(separator: ", ")))"
  }
}
