import Foundation

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
  /// With a datamodel: every `<data>` read so far, in document order, and the root's alone.
  var allData: [SCXMLData] = []
  var rootData: [SCXMLData] = []
  /// With a datamodel: the document's global scripts.
  var scripts: [String] = []
  /// With a datamodel: whether its `<data>` is bound when its state is first entered.
  var lateBinding = false

  /// Where this document is among the documents one read invokes.
  let chain: SCXMLInvokeChain
  /// Makes an invoked document's chart.
  let make: ChartMaker<ID, Event, Context, Effect>

  init(file: String, bindings: SCXMLBindings<ID, Event, Context, Effect>, chain: SCXMLInvokeChain, make: @escaping ChartMaker<ID, Event, Context, Effect>) {
    (self.file, self.bindings, self.chain, self.make) = (file, bindings, chain, make)
  }

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

  mutating func chart(_ root: XMLElementNode) -> DocumentTree<ID, Event, Context, Effect>? {
    guard root.name == "scxml" else {
      invalid(root, "the root element is <\(root.name)>; expected <scxml>")
      return nil
    }
    if bindings.scripting != nil, let model = root.attributes["datamodel"], model != "ecmascript" {
      invalid(root, "datamodel '\(model)'; expected ecmascript")
    }
    lateBinding = root.attributes["binding"] == "late"
    var states: [State] = []
    for child in root.children where ours(child) {
      switch child.name {
      case "state", "parallel", "final": if let state = state(child) { states.append(state) }
      case "datamodel": rootData += datamodel(child)
      case "script":
        if bindings.scripting == nil { needsDatamodel(child) } else if let script = script(child) { scripts.append(script) }
      default: invalid(child, "unexpected in <scxml>")
      }
    }
    let initial = root.attributes["initial"].map { stateIDs($0, root, attribute: "initial") }
    let start = bindings.scripting.map { [$0.start(lateBinding ? rootData : rootData + allData, scripts)] } ?? []
    return (root.attributes["name"] ?? SCXMLText.stem(file), initial, states, start)
  }

  /// A `<datamodel>`'s data: read with a datamodel, else each a place that needs one.
  mutating func datamodel(_ node: XMLElementNode) -> [SCXMLData] {
    guard bindings.scripting != nil else {
      for child in node.children where ours(child) { needsDatamodel(child) }
      return []
    }
    return data(node)
  }

  mutating func state(_ node: XMLElementNode) -> State? {
    let name = node.attributes["id"] ?? generatedID(node)
    let id = stateID(name, node, attribute: "id")
    var stateData: [SCXMLData] = []
    var finalData: SCXMLSend?
    var children: [State] = []
    var transitions: [Transition] = []
    var onEntry: [Action] = []
    var onExit: [Action] = []
    var initialTargets: [ID]? = node.attributes["initial"].map { stateIDs($0, node, attribute: "initial") }
    var initialActions: [Action] = []
    var invokes: [ChartInvoke<ID, Event, Context, Effect>] = []
    for child in node.children where ours(child) {
      switch (node.name, child.name) {
      case (_, "onentry"): onEntry += content(child.children)
      case (_, "onexit"): onExit += content(child.children)
      case ("final", "donedata"):
        if bindings.scripting == nil { needsDatamodel(child) } else { finalData = doneData(child) }
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
      case (_, "datamodel"): stateData += datamodel(child)
      case ("final", "invoke"): invalid(child, "unexpected in <final>")
      case (_, "invoke"):
        if var invoke = invoke(child) {
          invoke.line = child.line
          invoke.eventNamed = bindings.event
          invokes.append(invoke)
        }
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
    if let scripting = bindings.scripting {
      allData += stateData
      onEntry.insert(scripting.entered(name, lateBinding ? stateData : []), at: 0)
      if let finalData { onEntry.append(scripting.block([.doneData(finalData)])) }
      onExit.append(scripting.exited(name))
    }
    var state = State(
      id: id, kind: kind, children: children, transitions: transitions, onEntry: onEntry, onExit: onExit,
      initialActions: initialActions, line: node.line)
    state.invokes = invokes
    return state
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
    if let name = node.attribute("cond", namespace: SCXMLBindings<ID, Event, Context, Effect>.namespace) {
      // Without bindings, a Swift guard is kept by its name and never holds, as a named guard
      // of a Markdown spec: the chart reads back as the one exported.
      guardCondition = bindings.bindsNames ? boundGuard(name, node, attribute: "fsm:cond") : ChartGuard(name) { _, _ in false }
    } else if let cond = node.attributes["cond"] {
      let trimmed = cond.trimmingCharacters(in: .whitespaces)
      if let state = SCXMLText.inPredicate(trimmed) {
        guardCondition = stateID(state, node, attribute: "cond").map { .inState($0) }
      } else if trimmed.hasPrefix("!"), let state = SCXMLText.inPredicate(String(trimmed.dropFirst())) {
        guardCondition = stateID(state, node, attribute: "cond").map { .notInState($0) }
      } else if let scripting = bindings.scripting {
        guardCondition = scripting.condition(trimmed, SCXMLPlace(tagname: node.name, line: node.line, column: node.column))
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
    if let scripting = bindings.scripting {
      let block = scriptedContent(nodes)
      return block.isEmpty ? [] : [scripting.block(block)]
    }
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
    case let target? where target.hasPrefix("#_scxml_"): return .error("error.communication")
    case let target? where target.hasPrefix("#_") && target.count > 2:
      // Another chart of the same system: its invoker, or one it invoked; when delayed, it waits
      // (cancellable by its id) and is delivered when due.
      return event(name, node).map { .message($0, to: target, after: delay, id: node.attributes["id"]) }
    case _?: return .error("error.execution")
    }
  }
}
