import Foundation

/// A chart read from an SCXML document (W3C SCXML, without a datamodel): `String` state ids
/// and events, and `String` effects for `<log>`.
///
/// ```swift
/// let chart = try SCXMLDocument.load(contentsOf: "Specs/traffic.scxml")
/// var machine = ChartMachine(chart, context: NoContext())
/// _ = try machine.start()
/// ```
///
/// Read: `<scxml>` (`initial`, `name`; `datamodel` accepted when nothing needs evaluating),
/// `<state>`, `<parallel>`, `<final>`, `<history>`, `<initial>`, `<transition>` (`event`,
/// `target`, `type`, `cond` only as `In('id')` or `!In('id')`), `<onentry>`, `<onexit>`, `<raise>`, `<send>`
/// (`event`, `delay`, `id`, `target` `#_internal`, `type` SCXML), `<cancel sendid>`, `<log>`
/// (`label` and a string-literal `expr`: the effect `label: text`), `<invoke>` (an SCXML
/// document inline in `<content>` or by `src`, relative to this one; `id`, `autoforward`: see
/// ``ChartInvoke``) and `<send target>` to `#_parent` or `#_<invokeid>` (without `delay` or
/// `id`: ``ChartAction/message(_:to:)``). A `<send>` to a target this runtime cannot reach
/// raises `error.execution` (or `error.communication` for `#_scxml_…`) when it runs, as the
/// recommendation says.
public enum SCXMLDocument {
  /// A chart read from SCXML: `String` ids, events and effects (`<log>` labels).
  public typealias DocumentChart = Chart<String, String, NoContext, String>

  /// A CSS2 time as SCXML's `delay` takes it: `500ms`, `1s`, `.5s`, `1.5s` (a bare number is
  /// milliseconds); `nil` when it is not one.
  package static func duration(_ text: String) -> Duration? { SCXMLText.duration(text) }

  /// The largest document ``load(contentsOf:)`` reads: 8 MiB.
  public static let maxFileSize = 8 << 20

  /// Reads the SCXML file at `path`.
  ///
  /// - Throws: ``SCXMLError`` naming the file: not a readable regular file, larger than
  ///   ``maxFileSize`` (refused before reading), malformed XML (line and column), content that
  ///   needs a datamodel (every place), or an invalid chart.
  public static func load(contentsOf path: String) throws(SCXMLError) -> DocumentChart {
    try parse(Data(contents(of: path)), file: path)
  }

  /// The bytes of the file at `path`, refused before reading when larger than ``maxFileSize``.
  package static func contents(of path: String) throws(SCXMLError) -> [UInt8] {
    do {
      return try InputFile(path: path).readAll(limit: maxFileSize)
    } catch {
      throw SCXMLError(file: path, kind: .unreadable, problems: [.init(line: 0, column: nil, element: nil, message: error.reason)])
    }
  }

  /// Reads an SCXML document held in memory; `file` names it in errors.
  public static func parse(_ data: Data, file: String) throws(SCXMLError) -> DocumentChart {
    try read(data, file: file, bindings: .document, chain: SCXMLInvokeChain(), make: makeDocumentChart)
  }

  /// A document without a datamodel read into a chart a store runs, the charts it invokes as
  /// its children (see ``ChartInvoke``): names stand for themselves, and each `<log>` is work of
  /// its text (`label: value`). What `fsm explore` explores as a system.
  package static func systemChart(contentsOf path: String) throws(SCXMLError) -> Chart<String, String, NoContext, Command<String, String>> {
    try Chart(scxmlContentsOf: path, bindings: SCXMLBindings(state: { $0 }, event: { $0 }, effect: { .perform($0) }))
  }

  /// A document chart of the states read.
  static func makeDocumentChart(_ tree: DocumentTree<String, String, NoContext, String>) throws(ChartError) -> DocumentChart {
    try DocumentChart(name: tree.name, initial: tree.initial, states: tree.states, initialActions: tree.initialActions)
  }

  /// How many documents deep invocations may nest (see ``SCXMLInvokeChain``).
  static let maxInvokeDepth = 16
  /// How many documents one read may read by `src` (see ``SCXMLInvokeChain``).
  static let maxInvokedDocuments = 256

  /// The chart of a document read with `bindings`, where `chain` says among the documents
  /// invoked, made by `make`.
  static func read<ID, Event, Context, Effect>(
    _ data: Data, file: String, bindings: SCXMLBindings<ID, Event, Context, Effect>, chain: SCXMLInvokeChain,
    make: @escaping ChartMaker<ID, Event, Context, Effect>
  ) throws(SCXMLError) -> Chart<ID, Event, Context, Effect> {
    let tree = try readTree(data, file: file, bindings: bindings, chain: chain, make: make)
    return try build(file: file) { () throws(ChartError) in try make(tree) }
  }

  /// The document's states, read with `bindings`.
  static func readTree<ID, Event, Context, Effect>(
    _ data: Data, file: String, bindings: SCXMLBindings<ID, Event, Context, Effect>, chain: SCXMLInvokeChain,
    make: @escaping ChartMaker<ID, Event, Context, Effect>
  ) throws(SCXMLError) -> DocumentTree<ID, Event, Context, Effect> {
    if let range = data.range(of: Data("<!DOCTYPE".utf8)) ?? data.range(of: Data("<!ENTITY".utf8)) {
      let line = lineNumber(at: data.distance(from: data.startIndex, to: range.lowerBound), in: data)
      throw SCXMLError(
        file: file, kind: .malformedXML,
        problems: [.init(line: line, column: nil, element: nil, message: "DTD declarations are not accepted (an SCXML document needs none)")])
    }
    // Foundation's XML parser traps on some invalid UTF-8 (in comments, for one): check first.
    if let bad = invalidUTF8(in: data) {
      throw SCXMLError(
        file: file, kind: .malformedXML,
        problems: [.init(line: bad.line, column: nil, element: nil, message: "invalid UTF-8 at byte \(bad.offset + 1); expected UTF-8 text")])
    }
    let root: XMLElementNode
    switch XMLElementNode.parse(data) {
    case .success(let node): root = node
    case .failure(let error):
      throw SCXMLError(file: file, kind: .malformedXML, problems: [.init(line: error.line, column: error.column, element: nil, message: error.message)])
    }
    var reader = SCXMLReader(file: file, bindings: bindings, chain: chain, make: make)
    let chart = reader.chart(root)
    if !reader.datamodelPlaces.isEmpty {
      throw SCXMLError(file: file, kind: .needsDatamodel, problems: reader.datamodelPlaces)
    }
    if !reader.unbound.isEmpty { throw SCXMLError(file: file, kind: .unbound, problems: reader.unbound) }
    if !reader.problems.isEmpty { throw SCXMLError(file: file, kind: .invalid, problems: reader.problems) }
    guard let chart else { throw SCXMLError(file: file, kind: .invalid, problems: [.init(line: 1, column: nil, element: nil, message: "no chart")]) }
    return chart
  }

  /// Builds the chart, reporting its structural problems as the document's.
  static func build<C>(file: String, _ make: () throws(ChartError) -> C) throws(SCXMLError) -> C {
    do {
      return try make()
    } catch {
      throw SCXMLError(
        file: file, kind: .invalid,
        problems: error.problems.map { .init(line: $0.line ?? 0, column: nil, element: $0.state.map { "state '\($0)'" }, message: $0.message) })
    }
  }
}

/// Makes a chart of the states a document's reader read (an invoked document's too).
typealias ChartMaker<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable> =
  (_ tree: DocumentTree<ID, Event, Context, Effect>) throws(ChartError) -> Chart<ID, Event, Context, Effect>

/// What a reader read of a document: its name, initial states, states, and the content its
/// start runs (a datamodel's early binding and global scripts).
typealias DocumentTree<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable> = (
  name: String, initial: [ID]?, states: [ChartState<ID, Event, Context, Effect>], initialActions: [ChartAction<Event, Context, Effect>]
)
