/// A value that a ``TransitionTable`` matches by its case.
///
/// Tables key their rows on a *discriminant*: a small `Hashable` value that names the case
/// of a state or an event without its payload. For a plain enum the value is its own
/// discriminant, so conforming takes one word:
///
/// ```swift
/// enum Light: Hashable, Discriminated { case red, amber, green }
/// ```
///
/// An enum with associated values names its cases with a nested kind:
///
/// ```swift
/// enum FormEvent: Discriminated {
///     case phoneChanged(String)
///     case submit
///
///     enum Kind: Hashable, CaseIterable { case phoneChanged, submit }
///     var discriminant: Kind {
///         switch self {
///         case .phoneChanged: .phoneChanged
///         case .submit: .submit
///         }
///     }
/// }
/// ```
///
/// When the discriminant is `CaseIterable`, analysis uses `allCases` to find every
/// unhandled (state, event) pair and every unreachable state.
///
/// ## Fast dispatch
/// When the discriminant has a small integer raw value (`enum Event: UInt8, Discriminated`),
/// the table looks rows up by that number in a dense array instead of comparing cases, which
/// makes a step about as fast as a hand-written `switch`. Any other discriminant works too,
/// through a short scan of the current state's rows.
public protocol Discriminated: Sendable {
  /// The case of a value, without its payload.
  associatedtype Discriminant: Hashable & Sendable
  /// The case of this value; it must not depend on anything but the value.
  var discriminant: Discriminant { get }
  /// A small non-negative number for a case, distinct per case, or `nil` to let the table
  /// compare cases instead. Implemented for you when the discriminant has an integer raw value.
  static func ordinal(of discriminant: Discriminant) -> Int?
}

extension Discriminated {
  /// No ordinal: the table compares cases.
  @inlinable
  public static func ordinal(of discriminant: Discriminant) -> Int? { nil }
}

extension Discriminated where Discriminant: RawRepresentable, Discriminant.RawValue: BinaryInteger {
  /// The integer raw value of the case.
  @inlinable
  public static func ordinal(of discriminant: Discriminant) -> Int? { Int(exactly: discriminant.rawValue) }
}

extension Discriminated where Self: Hashable {
  /// A hashable value with no payload is its own discriminant.
  @inlinable
  public var discriminant: Self { self }
}

/// Strings are their own discriminant: machines built at run time from documents
/// (spec files, and later SCXML) use `String` states and events.
extension String: Discriminated {}
