/// What SCXML content needs of a datamodel's language: evaluating, assigning, declaring and
/// running scripts in one global scope per session. Implemented on JavaScriptCore by the
/// `StateMachineECMAScript` product (its `ECMAScriptDatamodel`); ``SCXMLSession`` runs the
/// content over it. Every method may fail (a bad expression, an exception, a limit): the
/// content that called it then raises `error.execution` and its block stops.
///
/// Not API yet.
package protocol SCXMLScriptEngine: AnyObject {
  /// The value of `expression` as JSON; `nil` when it is `undefined`.
  func evaluate(_ expression: String) throws -> String?
  /// The value of `expression` as a string, as `<log>` shows it.
  func text(of expression: String) throws -> String
  /// `expression` converted to a boolean.
  func condition(_ expression: String) throws -> Bool
  /// The elements of `expression`'s value, an array or an object (its values), each as JSON:
  /// a shallow copy, taken before a `<foreach>` runs its body.
  func elements(of expression: String) throws -> [String?]
  /// Declares `name` (a `<data>`), with the value of `expression` or `undefined`.
  func declare(_ name: String, _ expression: String?) throws
  /// Declares `name` with a value given as JSON.
  func declare(_ name: String, json: String) throws
  /// Assigns the value of `expression` to `location`, which must exist.
  func assign(_ location: String, _ expression: String) throws
  /// Assigns a value given as JSON (`nil`: `undefined`) to `location`, which must exist.
  func assign(_ location: String, json: String?) throws
  /// Whether `location` can be assigned (it exists).
  func isDeclared(_ location: String) -> Bool
  /// Runs a script (`<script>`).
  func run(_ script: String) throws
  /// Sets a read-only system variable (`_sessionid`, `_name`, `_ioprocessors`) to JSON.
  func setSystemVariable(_ name: String, json: String) throws
  /// Sets `_event`; `nil`: it is declared, `undefined`, as it is until the first event.
  func setEvent(_ event: SCXMLEvent?) throws
  /// Marks the state `id` active or not, for `In(id)`.
  func setActive(_ id: String, _ active: Bool)
  /// The declared names and their values, one JSON object in declaration order.
  func snapshotJSON() -> String
  /// Declares each name of a JSON object (one ``snapshotJSON()`` wrote), in its order, with
  /// its value.
  func restore(snapshotJSON json: String) throws
}
