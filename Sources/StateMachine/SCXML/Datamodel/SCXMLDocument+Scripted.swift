import Foundation

extension SCXMLDocument {
  /// A chart read from a document whose content a datamodel runs: `String` ids, ``SCXMLEvent``
  /// events, a ``SCXMLSession`` context, `String` effects (`<log>`).
  package typealias ScriptedChart = Chart<String, SCXMLEvent, SCXMLSession, String>

  /// Reads the SCXML file at `path`, whose content a datamodel runs (see ``SCXMLSession``).
  package static func loadScripted(contentsOf path: String) throws(SCXMLError) -> ScriptedChart {
    try read(Data(contents(of: path)), file: path, bindings: .scripted, depth: 0, make: makeScriptedChart)
  }

  /// Reads an SCXML document held in memory, whose content a datamodel runs; `file` names it.
  package static func parseScripted(_ data: Data, file: String) throws(SCXMLError) -> ScriptedChart {
    try read(data, file: file, bindings: .scripted, depth: 0, make: makeScriptedChart)
  }

  static func makeScriptedChart(_ tree: DocumentTree<String, SCXMLEvent, SCXMLSession, String>) throws(ChartError) -> ScriptedChart {
    try ScriptedChart(
      name: tree.name, initial: tree.initial, states: tree.states, initialActions: tree.initialActions, eventName: { $0.name },
      scripting: ChartScripting(
        platformEvent: { name, session in
          SCXMLEvent(name, type: .platform, data: name.hasPrefix("done.state.") ? session.takeDoneData() : nil)
        },
        takeOutputs: { $0.takeOutputs() }))
  }
}
