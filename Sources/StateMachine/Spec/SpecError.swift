/// A spec file that cannot be read, with where and what was expected.
///
/// ```text
/// Specs/door.md:12: field 'to': empty cell; expected a state name, (stay) or (ignore)
/// ```
public struct SpecError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file (or a label for text that came from elsewhere).
  public let file: String
  /// The line, counted from 1; 0 when the problem is about the whole document.
  public let line: Int
  /// The column or field that is wrong, if one is.
  public let field: String?
  /// What was found and what was expected.
  public let message: String

  /// An error about `field` on `line` of `file`.
  public init(file: String, line: Int, field: String? = nil, message: String) {
    self.file = file
    self.line = line
    self.field = field
    self.message = message
  }

  public var description: String {
    let place = line > 0 ? "\(file):\(line)" : file
    return "\(place): " + (field.map { "field '\($0)': " } ?? "") + message
  }
}
