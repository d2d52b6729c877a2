/// The name of a running effect or timer, so a row can cancel it (``Command/cancel(_:)``) and
/// a new one with the same name replaces it.
public struct EffectID: Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The name.
  public let name: String
  public init(_ name: String) { self.name = name }
  public init(stringLiteral name: String) { self.name = name }
  public var description: String { name }
}

/// How long an effect or timer may run.
public enum EffectScope: String, Hashable, Sendable, Codable {
  /// Until it finishes or is cancelled by ID or by ``Store/finish()``.
  case global
  /// Also cancelled when the machine leaves the state it was in after the step that started it
  /// (Erlang gen_statem's state timeout): set in S, cancelled on leaving S, started again by
  /// S's entry effects on re-entering.
  case state
}
