import StateMachine

/// An SCXML file read for running (`fsm run`, `fsm conform`): without a datamodel, on the
/// ECMAScript datamodel when it needs one and `fsm` has it (``FSM/ecmascript``), or refused.
enum DocumentLoad {
  case plain(SCXMLDocument.DocumentChart)
  case scripted(SCXMLDocument.ScriptedChart, datamodel: @Sendable () -> any SCXMLScriptEngine)
  /// Not read: `error`; `needsTrait` when only the ECMAScript trait is missing to run it.
  case refused(SCXMLError, needsTrait: Bool)

  static func read(_ path: String) -> DocumentLoad {
    do {
      return .plain(try SCXMLDocument.load(contentsOf: path))
    } catch {
      guard error.kind == .needsDatamodel else { return .refused(error, needsTrait: false) }
      guard let make = FSM.ecmascript?.make else { return .refused(error, needsTrait: true) }
      do throws(SCXMLError) {
        return .scripted(try SCXMLDocument.loadScripted(contentsOf: path, datamodel: make), datamodel: make)
      } catch {
        return .refused(error, needsTrait: false)
      }
    }
  }
}
