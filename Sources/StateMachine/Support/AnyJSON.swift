import Foundation

/// JSON for values whose types are known only at run time (a child machine's, seen from its
/// parent): encoded when they are `Encodable`, decoded when their type is `Decodable`. The log
/// lines of a system's children, their replay, and a system's snapshot all go through here.
@usableFromInline
package enum AnyJSON {
  /// The encoder a log uses for its lines: keys sorted, slashes not escaped.
  package static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// `value` as JSON; `nil` when it is not `Encodable` (or does not encode).
  static func encode(_ value: Any) -> Data? {
    guard let encodable = value as? any Encodable else { return nil }
    return try? encoder.encode(encodable)
  }

  /// `data` read as a `T`: `nil` when `T` is not `Decodable`; the decoder's error when it does
  /// not read.
  static func decode<T>(_ type: T.Type, from data: Data) throws -> T? {
    guard let decodable = type as? any Decodable.Type else { return nil }
    return try decode(decodable, data) as? T
  }

  private static func decode<D: Decodable>(_ type: D.Type, _ data: Data) throws -> D { try JSONDecoder().decode(D.self, from: data) }
}
