import Foundation
@testable import StateMachine
import Testing

/// The hostile documents in `Hostile/`: each one loads and runs, or is refused with a typed
/// error naming the line and what was expected. None may crash, hang or grow without bound.
@Suite("Hostile SCXML documents")
struct HostileDocumentTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Hostile")

  struct Case: Sendable, CustomTestStringConvertible {
    let file: String
    /// `nil`: the document loads and runs.
    let kind: SCXMLError.Kind?
    let line: Int
    let says: String
    var testDescription: String { file }

    static func loads(_ file: String) -> Case { Case(file: file, kind: nil, line: 0, says: "") }
    static func refused(_ file: String, _ kind: SCXMLError.Kind, line: Int, says: String) -> Case {
      Case(file: file, kind: kind, line: line, says: says)
    }
  }

  static let cases: [Case] = [
    .refused("history-default-self.scxml", .invalid, line: 3, says: "its default leads back to itself ('h' -> 'h')"),
    .refused("history-default-cycle.scxml", .invalid, line: 5, says: "'h2' -> 'h3' -> 'h2'"),
    .loads("history-default-chain.scxml"),
    .loads("processing-instructions.scxml"),
    .loads("comment-after-root.scxml"),
    .refused("element-after-root.scxml", .malformedXML, line: 2, says: "an element after the root element"),
    .refused("text-after-root.scxml", .malformedXML, line: 2, says: "text after the root element"),
    .refused("undeclared-element-prefix.scxml", .malformedXML, line: 2, says: "the prefix 'p' of 'p:state' is not declared"),
    .refused("undeclared-attribute-prefix.scxml", .malformedXML, line: 2, says: "the prefix 'p' of 'p:id' is not declared"),
    .refused("many-attributes.scxml", .malformedXML, line: 2, says: "more than 1000 attributes"),
    .refused("instruction-in-attribute.scxml", .malformedXML, line: 2, says: "'<' inside an attribute value"),
    .refused("unclosed-declaration.scxml", .malformedXML, line: 1, says: "the XML declaration is not closed with '?>' before the next '<'"),
    .refused("instruction-in-tag.scxml", .malformedXML, line: 2, says: "'<' inside the tag opened at line 2, column 3"),
    .refused("instruction-in-end-tag.scxml", .malformedXML, line: 2, says: "'<' inside the end tag opened at line 2, column 17"),
  ]

  @Test("each hostile document loads and runs, or is refused with its line", arguments: cases)
  func hostile(_ c: Case) throws {
    let path = Self.folder.appendingPathComponent(c.file).path
    do {
      let chart = try SCXMLDocument.load(contentsOf: path)
      #expect(c.kind == nil, "expected \(String(describing: c.kind)), but it loaded")
      var machine = ChartMachine(chart, context: NoContext())
      _ = try machine.start()
      for event in ["e", "f", "done.state.p"] { _ = try machine.send(event) }
      let restored = try ChartMachine(chart, restoring: machine.snapshot)
      #expect(restored.configuration == machine.configuration)
    } catch let error as SCXMLError {
      #expect(error.kind == c.kind, "\(error)")
      #expect(error.file == path)
      #expect(error.problems.contains { $0.line == c.line && $0.message.contains(c.says) }, "\(error)")
    }
  }

  @Test("the file exists for every case, and every file has a case")
  func everyFileHasACase() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".scxml") }
    #expect(Set(files) == Set(Self.cases.map(\.file)))
  }
}
