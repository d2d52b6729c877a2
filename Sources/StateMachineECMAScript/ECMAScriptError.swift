#if ECMAScript
/// Why an ECMAScript evaluation failed: what SCXML's `error.execution` reports.
///
/// A struct with static members, not an enum: kinds may be added in a minor release.
public struct ECMAScriptError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    let name: String
    /// The script threw (a syntax error, a reference to an undeclared name, a `throw`).
    public static let exception = Kind(name: "exception")
    /// The evaluation ran past ``ECMAScriptDatamodel/Limits/time``.
    public static let timeLimit = Kind(name: "time limit")
    /// The script heap grew past ``ECMAScriptDatamodel/Limits/memory``.
    public static let memoryLimit = Kind(name: "memory limit")
    /// A location that cannot be assigned (`<assign location>` that is not a declared name or
    /// a property of one).
    public static let notAssignable = Kind(name: "not assignable")
    /// A value with no JSON form where one is needed (a function, a cycle, `undefined`).
    public static let notJSON = Kind(name: "not JSON")
    public var description: String { name }
  }

  /// What went wrong.
  public let kind: Kind
  /// The expression or script that failed, as given.
  public let source: String
  /// The engine's message (the exception's text), or ours.
  public let message: String

  /// An error of `kind` for `source`.
  public init(_ kind: Kind, source: String, message: String) {
    (self.kind, self.source, self.message) = (kind, source, message)
  }

  public var description: String { "\(kind) in `\(source.count > 80 ? source.prefix(77) + "..." : Substring(source))`: \(message)" }
}
#endif
