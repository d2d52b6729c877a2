/// Why an SCXML document could not be read, with every place that is wrong.
public struct SCXMLError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why a document was refused: malformed XML, unsupported elements, or an invalid chart.
  ///
  /// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
  /// case is then a warning, not a build error).
  public enum Kind: String, Hashable, Sendable {
    /// The file cannot be read (missing, not a regular file, too large).
    case unreadable
    /// Not well-formed XML (the parser's line and column), or a DTD.
    case malformedXML
    /// Content that needs a datamodel to run: `<script>`, `<assign>`, `<data>`, expressions.
    case needsDatamodel
    /// Not a valid chart: an unknown target, a missing attribute, a bad delay...
    case invalid
    /// A name the document uses (state, event, effect, guard, update or make) that the
    /// ``SCXMLBindings`` it was read with do not bind.
    case unbound
  }

  /// One place in the document.
  public struct Problem: Hashable, Sendable, CustomStringConvertible {
    /// The line, counted from 1.
    public let line: Int
    /// The column, counted from 1, when known.
    public let column: Int?
    /// The element (and attribute) at fault, as `<send delayexpr>`.
    public let element: String?
    /// What is wrong, or what the document needs that is not supported.
    public let message: String

    public var description: String {
      (line > 0 ? "line \(line)" + (column.map { ", column \($0)" } ?? "") + ": " : "") + (element.map { "\($0): " } ?? "") + message
    }
  }

  /// The document's path.
  public let file: String
  /// Why the document was refused.
  public let kind: Kind
  /// Every problem, in document order.
  public let problems: [Problem]

  public var description: String {
    if problems.count == 1 { return "\(file): \(problems[0])" }
    return "\(file): \(problems.count) problems\n" + problems.map { "  \($0)" }.joined(separator: "\n")
  }
}
