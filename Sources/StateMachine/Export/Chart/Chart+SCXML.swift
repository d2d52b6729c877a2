extension Chart {
  /// The chart as an SCXML document that ``SCXMLDocument`` reads back to a chart that behaves
  /// the same (with `String` ids and events): states by `"\(id)"`, events by name, effects as
  /// `<log expr="'effect'"/>`, raise/send/cancel as themselves, `In()` guards as `cond`.
  ///
  /// Swift code is written by name in the ``SCXMLBindings/namespace`` (prefix `fsm`): a named
  /// guard as `fsm:cond="name"`, a named update as `<fsm:update name="name"/>`, a make as
  /// `<log expr="'name'" fsm:make="name"/>`. ``Chart/init(scxml:file:bindings:)`` with
  /// ``scxmlBindings`` reads such a document back into a chart that behaves as this one;
  /// ``SCXMLDocument`` (no Swift code) keeps a Swift guard by its name as a guard that never
  /// holds (as a Markdown spec's named guard), and shows updates and makes by name only: its
  /// chart changes no context.
  ///
  /// An unnamed update is written under a name made from where it is
  /// (`(update 2 on entry to 'a')`), which ``scxmlBindings`` binds
  /// too, so the read-back chart changes the context as this one does.
  /// Platform errors are written as sends that raise them: to a session that does not exist
  /// (`#_scxml_unreachable`: `error.communication`) and to a target that is not one
  /// (`unreachable`: `error.execution`). Invocations are written inline, or by their `src`.
  ///
  /// - Throws: ``ExportError`` naming the first state, event or action that SCXML cannot
  ///   carry so that it reads back the same: an id that is empty or holds whitespace (targets
  ///   and `initial` are whitespace-separated lists), two states written with one id, an event
  ///   descriptor with whitespace, control characters anywhere, an effect whose text has both
  ///   kinds of quote, or a platform error other than `error.communication` and
  ///   `error.execution`.
  public func scxml() throws(ExportError) -> String {
    if let refusal = scxmlRefusal() { throw refusal }
    return scxmlText()
  }

  /// The document, for a chart ``scxmlRefusal()`` accepts.
  func scxmlText() -> String {
    (["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"] + scxmlElement(indent: "")).joined(separator: "\n") + "\n"
  }

  /// The `<scxml>` element, its lines led by `indent` (an invoked chart's sits in its
  /// invoker's `<content>`).
  func scxmlElement(indent base: String) -> [String] {
    let swift = namesSwiftCode ? " xmlns:fsm=\(attribute(SCXMLBindings<ID, Event, Context, Effect>.namespace))" : ""
    var lines = [
      "\(base)<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"\(swift) version=\"1.0\" name=\(attribute(name)) initial=\(attribute(targets[defaultTransition[0]].map(label).joined(separator: " ")))>"
    ]
    func emit(_ s: Int, indent: String) {
      let inner = indent + "  "
      switch kinds[s] {
      case .shallowHistory, .deepHistory:
        lines.append("\(indent)<history id=\(attribute(label(s))) type=\"\(kinds[s] == .deepHistory ? "deep" : "shallow")\">")
        transition(defaultTransition[s], indent: inner)
        lines.append("\(indent)</history>")
        return
      default: break
      }
      let element =
        switch kinds[s] {
        case .parallel: "parallel"
        case .final: "final"
        default: "state"
        }
      var open = "\(indent)<\(element) id=\(attribute(label(s)))"
      let d = defaultTransition[s]
      if kinds[s] == .compound, actions[d].isEmpty { open += " initial=\(attribute(targets[d].map(label).joined(separator: " ")))" }
      lines.append(open + ">")
      if kinds[s] == .compound, !actions[d].isEmpty {
        lines.append("\(inner)<initial>")
        transition(d, indent: inner + "  ")
        lines.append("\(inner)</initial>")
      }
      content("onentry", onEntry[s], place: .entry(s), indent: inner)
      content("onexit", onExit[s], place: .exit(s), indent: inner)
      for t in stateTransitions[s] { transition(t, indent: inner) }
      for invoke in tables.invokes[s] { self.invoke(invoke, into: &lines, indent: inner) }
      for child in (children[s] + histories[s]).sorted() { emit(child, indent: inner) }
      lines.append("\(indent)</\(element)>")
    }
    func transition(_ t: Int, indent: String) {
      var open = "\(indent)<transition"
      if !descriptors[t].isEmpty { open += " event=\(attribute(descriptors[t].joined(separator: " ")))" }
      if let condition = guards[t]?.condition {
        switch condition {
        case .inState(let id): open += " cond=\(attribute("In('\(id)')"))"
        case .notInState(let id): open += " cond=\(attribute("!In('\(id)')"))"
        case .predicate: open += " fsm:cond=\(attribute(guards[t]!.name))"
        }
      }
      if !targets[t].isEmpty { open += " target=\(attribute(targets[t].map(label).joined(separator: " ")))" }
      if isInternal[t] { open += " type=\"internal\"" }
      guard !actions[t].isEmpty else {
        lines.append(open + "/>")
        return
      }
      lines.append(open + ">")
      executable(actions[t], place: .transition(t), indent: indent + "  ")
      lines.append("\(indent)</transition>")
    }
    func content(_ element: String, _ list: [Action], place: ContentPlace, indent: String) {
      guard !list.isEmpty else { return }
      lines.append("\(indent)<\(element)>")
      executable(list, place: place, indent: indent + "  ")
      lines.append("\(indent)</\(element)>")
    }
    func executable(_ list: [Action], place: ContentPlace, indent: String) {
      for (position, action) in list.enumerated() {
        switch action {
        case .make(let name, _):
          // The text is for readers without bindings; with both quotes it cannot be a literal.
          let literal = !name.contains("'") ? " expr=\(attribute("'\(name)'"))" : !name.contains("\"") ? " expr=\(attribute("\"\(name)\""))" : ""
          lines.append("\(indent)<log\(literal) fsm:make=\(attribute(name))/>")
        case .effect:
          let text = action.effectLabel ?? ""
          if !text.contains("'") {
            lines.append("\(indent)<log expr=\(attribute("'\(text)'"))/>")
          } else if !text.contains("\"") {
            lines.append("\(indent)<log expr=\(attribute("\"\(text)\""))/>")
          } else {
            lines.append("\(indent)<!-- the effect \(comment(text)) has both quotes: left out -->")
          }
        case .raise(let event): lines.append("\(indent)<raise event=\(attribute(eventName(event)))/>")
        case .send(let event, let delay, let id):
          var send = "\(indent)<send event=\(attribute(eventName(event)))"
          if delay != .zero { send += " delay=\"\(ChartSpec.format(delay))\"" }
          if let id { send += " id=\(attribute(id))" }
          lines.append(send + "/>")
        case .cancel(let id): lines.append("\(indent)<cancel sendid=\(attribute(id))/>")
        case .message(let event, let target): lines.append("\(indent)<send event=\(attribute(eventName(event))) target=\(attribute(target))/>")
        case .delayedMessage(let message):
          var send = "\(indent)<send event=\(attribute(messageName(message))) target=\(attribute(message.target))"
          send += " delay=\"\(ChartSpec.format(message.delay))\""
          if let id = message.id { send += " id=\(attribute(id.name))" }
          lines.append(send + "/>")
        case .update(let name?, _): lines.append("\(indent)<fsm:update name=\(attribute(name))/>")
        case .update(nil, _):
          lines.append("\(indent)<fsm:update name=\(attribute(unnamedUpdateName(place, position)))/>")
        case .error(let name) where name == "error.communication":
          // A session that does not exist.
          lines.append("\(indent)<send event=\"unreachable\" target=\"#_scxml_unreachable\"/>")
        case .error(let name) where name == "error.execution":
          // A target that is not one.
          lines.append("\(indent)<send event=\"unreachable\" target=\"unreachable\"/>")
        case .error(let name): lines.append("\(indent)<!-- raises \(comment(name)): left out -->")
        }
      }
    }
    for child in (children[0] + histories[0]).sorted() { emit(child, indent: base + "  ") }
    lines.append("\(base)</scxml>")
    return lines
  }

  /// Writes `invoke`: its document by `src` when it was read from one, else inline.
  func invoke(_ invoke: ChartInvoke<ID, Event, Context, Effect>, into lines: inout [String], indent: String) {
    var open = "\(indent)<invoke type=\"http://www.w3.org/TR/scxml/\""
    if let id = invoke.id { open += " id=\(attribute(id))" }
    if invoke.autoforward { open += " autoforward=\"true\"" }
    if let source = invoke.source {
      lines.append(open + " src=\(attribute(source))/>")
      return
    }
    lines.append(open + ">")
    lines.append("\(indent)  <content>")
    lines += invoke.chart.scxmlElement(indent: indent + "    ")
    lines.append("\(indent)  </content>")
    lines.append("\(indent)</invoke>")
  }

  /// Whether the export names Swift code (and so declares the `fsm` namespace).
  var namesSwiftCode: Bool {
    if guards.contains(where: { if case .predicate? = $0?.condition { true } else { false } }) { return true }
    return (onEntry + onExit + actions).contains { list in
      list.contains { action in
        switch action {
        case .update, .make: true
        default: false
        }
      }
    }
  }

  /// Where a list of content sits: what names an unnamed update in it.
  enum ContentPlace {
    case entry(Int), exit(Int), transition(Int)
  }

  /// The name an unnamed update is exported and bound under: its place in the chart, in
  /// parentheses (so no Swift name a user gives clashes with it by accident).
  func unnamedUpdateName(_ place: ContentPlace, _ position: Int) -> String {
    switch place {
    case .entry(let s): "(update \(position + 1) on entry to '\(label(s))')"
    case .exit(let s): "(update \(position + 1) on exit from '\(label(s))')"
    case .transition(let t): "(update \(position + 1) of \(describeTransition(t)))"
    }
  }

  /// A quoted XML attribute value.
  func attribute(_ text: String) -> String { "\"" + SCXMLText.escaped(Rendering.visible(text)) + "\"" }

  func comment(_ text: String) -> String { text.replacingOccurrences(of: "--", with: "- -") }
}
