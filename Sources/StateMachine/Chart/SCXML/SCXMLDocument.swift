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
/// (`label` and a string-literal `expr`: the effect `label: text`). A `<send>` to a target this
/// runtime cannot reach raises `error.execution` (or `error.communication` for `#_scxml_…` and
/// `#_parent`) when it runs, as the recommendation says.
public enum SCXMLDocument {
  /// A chart read from SCXML: `String` ids, events and effects (`<log>` labels).
  public typealias DocumentChart = Chart<String, String, NoContext, String>

  /// A CSS2 time as SCXML's `delay` takes it: `500ms`, `1s`, `.5s`, `1.5s` (a bare number is
  /// milliseconds); `nil` when it is not one.
  public static func duration(_ text: String) -> Duration? { SCXMLText.duration(text) }

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
  static func contents(of path: String) throws(SCXMLError) -> [UInt8] {
    do {
      return try InputFile(path: path).readAll(limit: maxFileSize)
    } catch {
      throw SCXMLError(file: path, kind: .unreadable, problems: [.init(line: 0, column: nil, element: nil, message: error.reason)])
    }
  }

  /// Reads an SCXML document held in memory; `file` names it in errors.
  public static func parse(_ data: Data, file: String) throws(SCXMLError) -> DocumentChart {
    let tree = try read(data, file: file, bindings: .document)
    return try build(file: file) { () throws(ChartError) in try DocumentChart(name: tree.name, initial: tree.initial, states: tree.states) }
  }

  /// The document's states, read with `bindings`.
  static func read<ID, Event, Context, Effect>(
    _ data: Data, file: String, bindings: SCXMLBindings<ID, Event, Context, Effect>
  ) throws(SCXMLError) -> (name: String, initial: [ID]?, states: [ChartState<ID, Event, Context, Effect>]) {
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
    var reader = SCXMLReader(file: file, bindings: bindings)
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

/// Why an SCXML document could not be read, with every place that is wrong.
public struct SCXMLError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why a document was refused: malformed XML, unsupported elements, or an invalid chart.
  public enum Kind: String, Hashable, Sendable {
    /// The file cannot be read (missing, not a regular file, too large).
    case unreadable
    /// Not well-formed XML (the parser's line and column), or a DTD.
    case malformedXML
    /// Content that needs a datamodel to run: `<script>`, `<assign>`, `<data>`, expressions.
    case needsDatamodel
    /// Not a valid chart: an unknown target, a missing attribute, a bad delay...
    case invalid
    /// A name the document uses (state, event, effect, guard, update or make) that the
    /// ``SCXMLBindings`` it was read with do not bind.
    case unbound
  }

  /// One place in the document.
  public struct Problem: Hashable, Sendable, CustomStringConvertible {
    /// The line, counted from 1.
    public let line: Int
    /// The column, counted from 1, when known.
    public let column: Int?
    /// The element (and attribute) at fault, as `<send delayexpr>`.
    public let element: String?
    /// What is wrong, or what the document needs that is not supported.
    public let message: String

    public var description: String {
      (line > 0 ? "line \(line)" + (column.map { ", column \($0)" } ?? "") + ": " : "") + (element.map { "\($0): " } ?? "") + message
    }
  }

  /// The document's path.
  public let file: String
  /// Why the document was refused.
  public let kind: Kind
  /// Every problem, in document order.
  public let problems: [Problem]

  public var description: String {
    if problems.count == 1 { return "\(file): \(problems[0])" }
    return "\(file): \(problems.count) problems\n" + problems.map { "  \($0)" }.joined(separator: "\n")
  }
}

/// Walks the element tree into chart states, collecting problems instead of stopping at the
/// first; names become Swift values through the bindings.
struct SCXMLReader<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable> {
  typealias State = ChartState<ID, Event, Context, Effect>
  typealias Transition = ChartTransition<ID, Event, Context, Effect>
  typealias Action = ChartAction<Event, Context, Effect>


  let file: String
  let bindings: SCXMLBindings<ID, Event, Context, Effect>
  var problems: [SCXMLError.Problem] = []
  var datamodelPlaces: [SCXMLError.Problem] = []
  var unbound: [SCXMLError.Problem] = []
  var generated = 0

  init(file: String, bindings: SCXMLBindings<ID, Event, Context, Effect>) { (self.file, self.bindings) = (file, bindings) }

  mutating func unbound(_ node: XMLElementNode, attribute: String? = nil, _ message: String) {
    let element = "<\(node.name)" + (attribute.map { " \($0)" } ?? "") + ">"
    unbound.append(.init(line: node.line, column: nil, element: element, message: message))
  }

  /// The state `name` stands for.
  mutating func stateID(_ name: String, _ node: XMLElementNode, attribute: String) -> ID? {
    guard let id = bindings.state(name) else {
      unbound(node, attribute: attribute, "no state is bound to '\(name)'")
      return nil
    }
    return id
  }

  /// The states a space-separated list names.
  mutating func stateIDs(_ text: String, _ node: XMLElementNode, attribute: String) -> [ID] {
    SCXMLText.list(text).compactMap { stateID($0, node, attribute: attribute) }
  }

  /// The event `name` stands for.
  mutating func event(_ name: String, _ node: XMLElementNode) -> Event? {
    guard let event = bindings.event(name) else {
      unbound(node, attribute: "event", "no event is bound to '\(name)'")
      return nil
    }
    return event
  }

  mutating func invalid(_ node: XMLElementNode, _ message: String) {
    problems.append(.init(line: node.line, column: nil, element: "<\(node.name)>", message: message))
  }

  mutating func needsDatamodel(_ node: XMLElementNode, attribute: String? = nil) {
    let element = "<\(node.name)" + (attribute.map { " \($0)" } ?? "") + ">"
    datamodelPlaces.append(.init(line: node.line, column: nil, element: element, message: "needs a datamodel"))
  }

  /// Whether `node` is an SCXML element (or one without a namespace); others are skipped.
  func ours(_ node: XMLElementNode) -> Bool { node.namespace == nil || node.namespace == "" || node.namespace == SCXMLText.namespace }

  mutating func chart(_ root: XMLElementNode) -> (name: String, initial: [ID]?, states: [State])? {
    guard root.name == "scxml" else {
      invalid(root, "the root element is <\(root.name)>; expected <scxml>")
      return nil
    }
    var states: [State] = []
    for child in root.children where ours(child) {
      switch child.name {
      case "state", "parallel", "final": if let state = state(child) { states.append(state) }
      case "datamodel": datamodel(child)
      case "script": needsDatamodel(child)
      default: invalid(child, "unexpected in <scxml>")
      }
    }
    let initial = root.attributes["initial"].map { stateIDs($0, root, attribute: "initial") }
    return (root.attributes["name"] ?? SCXMLText.stem(file), initial, states)
  }

  mutating func datamodel(_ node: XMLElementNode) {
    if node.children.isEmpty { return }
    for child in node.children where ours(child) { needsDatamodel(child) }
  }

  mutating func state(_ node: XMLElementNode) -> State? {
    let id = stateID(node.attributes["id"] ?? generatedID(node), node, attribute: "id")
    var children: [State] = []
    var transitions: [Transition] = []
    var onEntry: [Action] = []
    var onExit: [Action] = []
    var initialTargets: [ID]? = node.attributes["initial"].map { stateIDs($0, node, attribute: "initial") }
    var initialActions: [Action] = []
    for child in node.children where ours(child) {
      switch (node.name, child.name) {
      case (_, "onentry"): onEntry += content(child.children)
      case (_, "onexit"): onExit += content(child.children)
      case ("final", "donedata"): needsDatamodel(child)
      case ("final", _): invalid(child, "unexpected in <final>")
      case (_, "transition"): if let t = transition(child) { transitions.append(t) }
      case (_, "state"), (_, "parallel"), (_, "final"): if let s = state(child) { children.append(s) }
      case (_, "history"): if let h = history(child) { children.append(h) }
      case ("state", "initial"):
        if initialTargets != nil { invalid(child, "a state with an initial attribute cannot also have an <initial> element") }
        guard let t = child.children.first(where: { ours($0) && $0.name == "transition" }), let parsed = transition(t) else {
          invalid(child, "needs a <transition> with a target")
          continue
        }
        initialTargets = parsed.targets
        initialActions = parsed.actions
      case (_, "datamodel"): datamodel(child)
      case (_, "invoke"): needsDatamodel(child)
      default: invalid(child, "unexpected in <\(node.name)>")
      }
    }
    let kind: State.Kind
    switch node.name {
    case "parallel": kind = .parallel
    case "final": kind = .final
    default:
      let hasStates = children.contains { if case .history = $0.kind { false } else { true } }
      kind = hasStates ? .compound(initial: initialTargets) : .atomic
      if !hasStates, initialTargets != nil { invalid(node, "has an initial but no child states") }
    }
    guard let id else { return nil }
    return State(
      id: id, kind: kind, children: children, transitions: transitions, onEntry: onEntry, onExit: onExit,
      initialActions: initialActions, line: node.line)
  }

  mutating func generatedID(_ node: XMLElementNode) -> String {
    generated += 1
    return "(\(node.name) on line \(node.line)#\(generated))"
  }

  mutating func history(_ node: XMLElementNode) -> State? {
    let id = stateID(node.attributes["id"] ?? generatedID(node), node, attribute: "id")
    let type = node.attributes["type"] ?? "shallow"
    guard type == "shallow" || type == "deep" else {
      invalid(node, "type '\(type)'; expected shallow or deep")
      return nil
    }
    guard let t = node.children.first(where: { ours($0) && $0.name == "transition" }), let parsed = transition(t), !parsed.targets.isEmpty else {
      invalid(node, "needs a default <transition> with a target")
      return nil
    }
    guard let id else { return nil }
    var state = State.history(id, deep: type == "deep", default: parsed.targets)
    state.initialActions = parsed.actions
    state.line = node.line
    return state
  }

  mutating func transition(_ node: XMLElementNode) -> Transition? {
    var guardCondition: ChartGuard<ID, Event, Context>?
    if bindings.bindsNames, let name = node.attribute("cond", namespace: SCXMLBindings<ID, Event, Context, Effect>.namespace) {
      guardCondition = boundGuard(name, node, attribute: "fsm:cond")
    } else if let cond = node.attributes["cond"] {
      let trimmed = cond.trimmingCharacters(in: .whitespaces)
      if let state = SCXMLText.inPredicate(trimmed) {
        guardCondition = stateID(state, node, attribute: "cond").map { .inState($0) }
      } else if trimmed.hasPrefix("!"), let state = SCXMLText.inPredicate(String(trimmed.dropFirst())) {
        guardCondition = stateID(state, node, attribute: "cond").map { .notInState($0) }
      } else if bindings.bindsNames {
        guardCondition = boundGuard(trimmed, node, attribute: "cond")
      } else {
        needsDatamodel(node, attribute: "cond")
      }
    }
    let type = node.attributes["type"] ?? "external"
    guard type == "external" || type == "internal" else {
      invalid(node, "type '\(type)'; expected external or internal")
      return nil
    }
    return Transition(
      events: node.attributes["event"].map(SCXMLText.list) ?? [], guard: guardCondition,
      targets: node.attributes["target"].map { stateIDs($0, node, attribute: "target") } ?? [], isInternal: type == "internal",
      actions: content(node.children), line: node.line)
  }

  mutating func boundGuard(_ name: String, _ node: XMLElementNode, attribute: String) -> ChartGuard<ID, Event, Context>? {
    guard let bound = bindings.guards[name] else {
      unbound(node, attribute: attribute, "no guard is bound to '\(name)'")
      return nil
    }
    return bound
  }

  mutating func boundAction(_ name: String, _ node: XMLElementNode, attribute: String) -> Action? {
    guard let bound = bindings.actions[name] else {
      unbound(node, attribute: attribute, "no update or make is bound to '\(name)'")
      return nil
    }
    return bound
  }

  /// Executable content.
  mutating func content(_ nodes: [XMLElementNode]) -> [Action] {
    var actions: [Action] = []
    let swift = SCXMLBindings<ID, Event, Context, Effect>.namespace
    for node in nodes {
      if bindings.bindsNames, node.namespace == swift {
        guard node.name == "update" else {
          invalid(node, "not executable content (expected <update name=\"…\"/>)")
          continue
        }
        guard let name = node.attributes["name"] else {
          invalid(node, "needs a name attribute")
          continue
        }
        if let action = boundAction(name, node, attribute: "name") { actions.append(action) }
        continue
      }
      guard ours(node) else { continue }
      switch node.name {
      case "raise":
        guard let name = node.attributes["event"] else {
          invalid(node, "needs an event attribute")
          continue
        }
        if let event = event(name, node) { actions.append(.raise(event)) }
      case "send": if let action = send(node) { actions.append(action) }
      case "cancel":
        if let id = node.attributes["sendid"] {
          actions.append(.cancel(id))
        } else if node.attributes["sendidexpr"] != nil {
          needsDatamodel(node, attribute: "sendidexpr")
        } else {
          invalid(node, "needs a sendid attribute")
        }
      case "log":
        if bindings.bindsNames, let name = node.attribute("make", namespace: swift) {
          if let action = boundAction(name, node, attribute: "fsm:make") { actions.append(action) }
          continue
        }
        let label = node.attributes["label"]
        var text: String?
        if let expr = node.attributes["expr"] {
          guard let literal = SCXMLText.stringLiteral(expr) else {
            needsDatamodel(node, attribute: "expr")
            continue
          }
          text = literal
        }
        let written = [label, text].compactMap { $0 }.joined(separator: ": ")
        guard let effect = bindings.effect(written) else {
          unbound(node, attribute: "expr", "no effect is bound to '\(written)'")
          continue
        }
        actions.append(.effect(effect))
      case "script", "assign", "if", "elseif", "else", "foreach": needsDatamodel(node)
      default: invalid(node, "not executable content")
      }
    }
    return actions
  }

  mutating func send(_ node: XMLElementNode) -> Action? {
    for attribute in ["eventexpr", "targetexpr", "typeexpr", "delayexpr", "idlocation", "namelist"] where node.attributes[attribute] != nil {
      needsDatamodel(node, attribute: attribute)
    }
    for child in node.children where ours(child) && (child.name == "param" || child.name == "content") { needsDatamodel(child) }
    guard let name = node.attributes["event"] else {
      if node.attributes["eventexpr"] == nil { invalid(node, "needs an event attribute") }
      return nil
    }
    var delay = Duration.zero
    if let text = node.attributes["delay"] {
      guard let parsed = SCXMLText.duration(text) else {
        invalid(node, "delay '\(text)'; expected a time such as 500ms or 1.5s")
        return nil
      }
      delay = parsed
    }
    if let type = node.attributes["type"], type != SCXMLText.eventProcessor, type != "scxml" { return .error("error.execution") }
    switch node.attributes["target"] {
    case nil: return event(name, node).map { .send($0, after: delay, id: node.attributes["id"]) }
    case "#_internal"?: return delay == .zero ? event(name, node).map { .raise($0) } : .error("error.execution")
    case let target? where target.hasPrefix("#_scxml_") || target == "#_parent": return .error("error.communication")
    case _?: return .error("error.execution")
    }
  }
}

/// How SCXML writes attribute values: lists, `In()`, string literals, times.
enum SCXMLText {
  static let namespace = "http://www.w3.org/2005/07/scxml"
  static let eventProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

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
