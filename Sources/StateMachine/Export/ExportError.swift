/// Why a machine cannot be written in a format that reads back as the same machine: the name
/// that cannot be written, and why.
///
/// ``Chart/scxml()`` throws it rather than write a document that ``SCXMLDocument`` or
/// ``Chart/init(scxml:file:bindings:)`` would read back as another chart (or not at all).
public struct ExportError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The machine's name.
  public let machine: String
  /// The format being written, as `SCXML`.
  public let format: String
  /// What cannot be written (`state 'a b'`, `event 'x y'`, ...).
  public let subject: String
  /// Why, and what would be accepted.
  public let reason: String

  public var description: String { "cannot write '\(machine)' as \(format): \(subject): \(reason)" }
}
