import Foundation

extension SCXMLDocument {
  /// A chart read from a document whose content a datamodel runs: `String` ids, ``SCXMLEvent``
  /// events, a ``SCXMLSession`` context, `String` effects (`<log>`), as `fsm run` and `fsm
  /// conform` run it.
  package typealias ScriptedChart = Chart<String, SCXMLEvent, SCXMLSession, String>

  /// Reads the SCXML file at `path`, whose content a datamodel `make` makes runs (see
  /// ``SCXMLSession``).
  package static func loadScripted(contentsOf path: String, datamodel make: @escaping SCXMLDatamodelMaker) throws(SCXMLError) -> ScriptedChart {
    try parseScripted(Data(contents(of: path)), file: path, datamodel: make)
  }

  /// Reads an SCXML document held in memory, whose content a datamodel runs; `file` names it.
  package static func parseScripted(_ data: Data, file: String, datamodel make: @escaping SCXMLDatamodelMaker) throws(SCXMLError) -> ScriptedChart {
    try readScripted(data, file: file, datamodel: make) { $0 }
  }

  /// Reads a document whose content a datamodel runs into a chart whose effects `output`
  /// makes of what the content leaves to do (`nil`: nothing).
  package static func readScripted<Effect: Sendable>(
    _ data: Data, file: String, datamodel make: @escaping SCXMLDatamodelMaker,
    output: @escaping @Sendable (SCXMLSession.Output) -> ChartAction<SCXMLEvent, SCXMLSession, Effect>?
  ) throws(SCXMLError) -> Chart<String, SCXMLEvent, SCXMLSession, Effect> {
    try read(data, file: file, bindings: .scripted(datamodel: make), chain: SCXMLInvokeChain()) { tree throws(ChartError) in
      try Chart(
        name: tree.name, initial: tree.initial, states: tree.states, initialActions: tree.initialActions, eventName: { $0.name },
        scripting: ChartScripting(
          platformEvent: { name, session in
            SCXMLEvent(name, type: .platform, data: name.hasPrefix("done.state.") ? session.takeDoneData() : nil)
          },
          takeOutputs: { session in session.takeOutputs().compactMap(output) },
          invokeID: { $0.invokeid },
          finalize: { script, event, session in session.finalize(script, event: event) },
          communicationError: SCXMLEvent("error.communication", type: .platform)))
    }
  }
}

extension SCXMLDocument {
  /// A chart read from a document whose content a datamodel runs, for a ``Store``: each
  /// `<log>` a ``Command/perform(_:id:scope:)`` of its text.
  package typealias StoreScriptedChart = Chart<String, SCXMLEvent, SCXMLSession, Command<SCXMLEvent, String>>

  /// Reads a document whose content a datamodel runs for a store: a send to another chart
  /// (`#_parent`, `#_<id>`, delayed or not) is a message to it (``Command/message(_:)``), which
  /// raises `error.communication` when no such chart runs (a store's document has no parent).
  package static func readStoreScripted(_ data: Data, file: String, datamodel make: @escaping SCXMLDatamodelMaker) throws(SCXMLError)
    -> StoreScriptedChart
  {
    try readScripted(data, file: file, datamodel: make) { output -> ChartAction<SCXMLEvent, SCXMLSession, Command<SCXMLEvent, String>>? in
      switch output {
      case .effect(let log): return .effect(.perform(log))
      case .send(var event, let delay, let id):
        guard let target = event.target else { return .send(event, after: delay, id: id) }
        event.target = nil
        return .message(event, to: target, after: delay, id: id)
      case .message(let event, let target): return .message(event, to: target)
      case .delayedMessage(let message): return .delayedMessage(message)
      case .raise(let event): return .raise(event)
      case .cancel(let id): return .cancel(id)
      case .error(let name): return .error(name)
      case .update, .make: return nil
      }
    }
  }
}
