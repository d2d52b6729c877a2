extension SCXMLSession {
  /// The event a `<send>` of this session delivers: `name`, external, with the send's `id` and
  /// `data` (JSON text), from this session (`origin` is `#_scxml_<sessionID>`). What a test
  /// store expects of a step whose `<send>` waits:
  ///
  /// ```swift
  /// effects: [.send(session.sentEvent("remind", id: "reminder"), after: .seconds(2), id: "reminder")]
  /// ```
  public func sentEvent(_ name: String, id: String? = nil, data: String? = nil) -> SCXMLEvent {
    SCXMLEvent(name, type: .external, sendid: id, origin: "#_scxml_\(sessionID)", origintype: SCXMLEvent.scxmlProcessor, data: data)
  }

  /// Runs a `<send>`: its values are evaluated, then the event goes where its target says
  /// (see the recommendation's section 6.2).
  func send(_ send: SCXMLSend) throws {
    guard let name = try send.event ?? send.eventexpr.map(model.text(of:)) else {
      throw SCXMLContentError(message: "<send> without an event")
    }
    let target = try send.target ?? send.targetexpr.map(model.text(of:))
    if let type = try send.type ?? send.typeexpr.map(model.text(of:)), type != SCXMLEvent.scxmlProcessor, type != "scxml" {
      throw SCXMLContentError(message: "<send> of type '\(type)'; expected \(SCXMLEvent.scxmlProcessor)")
    }
    var id = send.id
    if let location = send.idlocation {
      sent += 1
      let made = "\(sessionID).send.\(sent)"
      try model.assign(location, json: SCXMLValueText.quoted(made))
      id = made
    }
    var delay = send.delay ?? .zero
    if let expression = send.delayexpr {
      let text = try model.text(of: expression)
      guard let parsed = SCXMLText.duration(text) else { throw SCXMLContentError(message: "delay '\(text)' is not a time") }
      delay = parsed
    }
    var event = sentEvent(name, id: id, data: try data(of: send))
    switch target {
    case nil, "#_scxml_\(sessionID)"?: outputs.append(.send(event, after: delay, id: id))
    case "#_internal"?:
      guard delay == .zero else { throw SCXMLContentError(message: "a delayed send to #_internal") }
      event.type = .internal
      outputs.append(.raise(event))
    case let target? where target.hasPrefix("#_scxml_"): outputs.append(.error("error.communication"))
    case let target? where target.hasPrefix("#_") && target.count > 2:
      guard delay == .zero else {
        // Delayed: it waits as a send of this session's, and goes to its target when due.
        event.target = target
        outputs.append(.send(event, after: delay, id: id))
        break
      }
      outputs.append(.message(event, to: target))
    case let target?: throw SCXMLContentError(message: "<send> to '\(target)'; this runtime reaches only SCXML sessions", sendid: id)
    }
  }

  /// The event data of a send: its content, or an object of its namelist and params.
  func data(of send: SCXMLSend) throws -> String? {
    if let expression = send.contentExpr { return try model.evaluate(expression) }
    if let json = send.contentJSON { return json }
    guard !send.namelist.isEmpty || !send.params.isEmpty else { return nil }
    var fields: [String] = []
    for name in send.namelist {
      guard model.isDeclared(name) else { throw SCXMLContentError(message: "namelist names '\(name)', which is not declared") }
      fields.append(SCXMLValueText.quoted(name) + ":" + (try model.evaluate(name) ?? "null"))
    }
    for (name, expression) in send.params { fields.append(SCXMLValueText.quoted(name) + ":" + (try model.evaluate(expression) ?? "null")) }
    return "{" + fields.joined(separator: ",") + "}"
  }
}
