/// The context of a machine that keeps no extended state.
public struct NoContext: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The only value.
  @inlinable
  public init() {}
  public var description: String { "NoContext()" }
}
