extension Chart {
  /// The first name or action of this chart that SCXML cannot carry so that it reads back the
  /// same: ids and event descriptors are whitespace-separated lists there, XML has no control
  /// characters, and only two platform errors have a form.
  func scxmlRefusal() -> ExportError? {
    func refuse(_ subject: String, _ reason: String) -> ExportError {
      ExportError(machine: name, format: "SCXML", subject: subject, reason: reason)
    }
    func controlled(_ text: String) -> Bool {
      text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r") || $0.value == 0x7F || $0.value == 0xFFFE || $0.value == 0xFFFF }
    }
    // A message (delayed or not): its event and target are names; a delayed one's id, text.
    func refusal(ofMessage text: String, to target: String, id: String?, on place: String) -> ExportError? {
      if let id, controlled(id) { return refuse("the send id \(Rendering.quoted(id)) on \(place)", "XML cannot hold control characters") }
      guard text.isEmpty || text.contains(where: \.isWhitespace) || controlled(text) || target.isEmpty || target.contains(where: \.isWhitespace)
        || controlled(target)
      else { return nil }
      return refuse("the message \(Rendering.quoted(text)) to \(Rendering.quoted(target)) on \(place)", "expected names without spaces or control characters")
    }
    let spaced = "SCXML separates ids with whitespace; expected an id without spaces, tabs or newlines"
    if controlled(name) { return refuse("chart name \(Rendering.quoted(name))", "XML cannot hold control characters") }
    var seen: [String: Int] = [:]
    for s in 1..<count {
      let id = label(s)
      let subject = "state \(Rendering.quoted(id))"
      if id.isEmpty { return refuse("a state with an empty id", "SCXML needs a non-empty id") }
      if id.contains(where: \.isWhitespace) { return refuse(subject, spaced) }
      if controlled(id) { return refuse(subject, "XML cannot hold control characters") }
      if seen.updateValue(s, forKey: id) != nil { return refuse(subject, "two states are written with this id") }
      for invoke in tables.invokes[s] {
        for text in [invoke.id, invoke.source].compactMap({ $0 }) where controlled(text) || text.isEmpty {
          return refuse("an invocation in \(subject)", "expected a non-empty id and src without control characters")
        }
        if invoke.source == nil, let refusal = invoke.chart.scxmlRefusal() { return refusal }
      }
    }
    for t in sources.indices {
      for descriptor in descriptors[t] where descriptor.isEmpty || descriptor.contains(where: \.isWhitespace) || controlled(descriptor) {
        return refuse(
          "event \(Rendering.quoted(descriptor)) of \(describeTransition(t))",
          "SCXML separates event descriptors with whitespace; expected a name without spaces or control characters")
      }
      if let name = guards[t]?.name, controlled(name) { return refuse("guard \(Rendering.quoted(name))", "XML cannot hold control characters") }
    }
    let places = onEntry.indices.map { (onEntry[$0], "entry to '\(label($0))'") } + onExit.indices.map { (onExit[$0], "exit from '\(label($0))'") }
      + actions.indices.map { (actions[$0], describeTransition($0)) }
    for (list, place) in places {
      for action in list {
        switch action {
        case .error(let name) where name != "error.communication" && name != "error.execution":
          return refuse("the action 'error \(name)' on \(place)", "SCXML raises only error.communication and error.execution this way")
        case .effect:
          let text = action.effectLabel ?? ""
          if text.contains("'") && text.contains("\"") {
            return refuse("the effect \(Rendering.quoted(text)) on \(place)", "an effect is written as a quoted literal, and this one has both quotes")
          }
          if controlled(text) { return refuse("the effect \(Rendering.quoted(text)) on \(place)", "XML cannot hold control characters") }
        case .raise(let event), .send(let event, _, _):
          let text = eventName(event)
          if text.isEmpty || text.contains(where: \.isWhitespace) || controlled(text) {
            return refuse("the event \(Rendering.quoted(text)) sent on \(place)", "expected a name without spaces or control characters")
          }
          if case .send(_, _, let id?) = action, controlled(id) { return refuse("the send id \(Rendering.quoted(id)) on \(place)", "XML cannot hold control characters") }
        case .message(let event, let target):
          if let refusal = refusal(ofMessage: eventName(event), to: target, id: nil, on: place) { return refusal }
        case .delayedMessage(let message):
          if let refusal = refusal(ofMessage: messageName(message), to: message.target, id: message.id?.name, on: place) { return refusal }
        case .cancel(let id):
          if controlled(id) { return refuse("the send id \(Rendering.quoted(id)) on \(place)", "XML cannot hold control characters") }
        case .update(let name?, _), .make(let name, _):
          if controlled(name) { return refuse("the name \(Rendering.quoted(name)) on \(place)", "XML cannot hold control characters") }
        default: break
        }
      }
    }
    return nil
  }
}
