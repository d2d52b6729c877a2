/// The name of a running effect or timer, so a row can cancel it (``Command/cancel(_:)``) and
/// a new one with the same name replaces it.
///
/// Encoded as its name, a string (`{"name": "x"}`, as earlier versions wrote it, still decodes).
public struct EffectID: Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The name.
  public let name: String
  /// An id named `name`.
  public init(_ name: String) { self.name = name }
  public init(stringLiteral name: String) { self.name = name }
  public var description: String { name }

  enum CodingKeys: String, CodingKey { case name }

  public init(from decoder: any Decoder) throws {
    if let name = try? decoder.singleValueContainer().decode(String.self) {
      self.name = name
    } else {
      name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
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
