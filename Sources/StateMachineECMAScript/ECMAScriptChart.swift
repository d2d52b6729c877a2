#if ECMAScript
public import Foundation
public import StateMachine

/// A chart read from an SCXML document with `datamodel="ecmascript"`, ready for a ``Store``:
/// state ids and event names as in the document, a ``SCXMLSession`` for its context, and each
/// `<log>` a ``Command/perform(_:id:scope:)`` of its text (`label: value`) for the store's
/// handler.
///
/// ```swift
/// let chart = try ECMAScriptChart(ecmascriptContentsOf: "counter.scxml")
/// let store = try Store(chart, context: SCXMLSession(for: chart), handler: { log, _ in print(log) })
/// store.send(SCXMLEvent("tick"))
/// ```
///
/// A store runs the document as `fsm run` does: `<send>` without a target (or to the session
/// itself) is an event for the store, delayed ones on its clock and cancellable by id. Each
/// `<invoke>` runs its document as a child machine of the store, on a session of its own whose
/// data its params give; its `<log>`s are performed by the store's handler; its sends to
/// `#_parent` reach this chart with their `invokeid`, through the invocation's `<finalize>`; and
/// a send to a chart that does not run raises `error.communication`. Its logs record the
/// session's data (and each child's) after every step, and replay.
public typealias ECMAScriptChart = Chart<String, SCXMLEvent, SCXMLSession, Command<SCXMLEvent, String>>

extension Chart where ID == String, Event == SCXMLEvent, Context == SCXMLSession, Effect == Command<SCXMLEvent, String> {
  /// Reads an SCXML document with `datamodel="ecmascript"` held in memory (`file` names it in
  /// errors); each session's datamodel evaluates within `limits`.
  ///
  /// - Throws: ``SCXMLError`` naming the file: malformed XML (line and column), content this
  ///   datamodel does not run, or an invalid chart.
  public init(ecmascript data: Data, file: String, limits: ECMAScriptDatamodel.Limits = .init()) throws(SCXMLError) {
    self = try SCXMLDocument.readStoreScripted(data, file: file, datamodel: { ECMAScriptDatamodel(limits: limits) })
  }

  /// Reads the SCXML file at `path` (at most ``SCXMLDocument/maxFileSize`` bytes); see
  /// ``init(ecmascript:file:limits:)``.
  public init(ecmascriptContentsOf path: String, limits: ECMAScriptDatamodel.Limits = .init()) throws(SCXMLError) {
    try self.init(ecmascript: Data(SCXMLDocument.contents(of: path)), file: path, limits: limits)
  }
}
#endif
