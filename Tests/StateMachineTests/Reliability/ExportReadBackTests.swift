import Foundation
import StateMachine
import Testing

/// What an export writes reads back as the same chart, or the export refuses and names why.
@Suite("Exports read back as the same chart, or refuse")
struct ExportReadBackTests {
  typealias Doc = SCXMLDocument.DocumentChart

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    /// A state id, used as the first state and (with "2") as a compound's initial child.
    var id = "a"
    /// An event used on a transition, raised, sent (as its id too) and cancelled.
    var event = "go"
    var effect = "beep"
    var error: String?
    /// What the SCXML refusal names; `nil`: SCXML reads it back.
    let refusal: String?
    var testDescription: String { label }

    func chart() throws -> Doc {
      var entry: [Doc.Action] = [.raise(event), .send(event, after: .seconds(1), id: event), .cancel(event), .effect(effect)]
      if let error { entry.append(.error(error)) }
      return try Doc(name: "p", states: [
        .atomic(id, transitions: [.on(event, to: "z")]),
        .compound("z", initial: id + "2", children: [.atomic(id + "2", onEntry: entry), .atomic("w")]),
      ])
    }
  }

  static let cases: [Case] = [
    Case(label: "plain names", refusal: nil),
    Case(label: "an id with a space", id: "a b", refusal: "state `a b`"),
    Case(label: "an id with ' / '", id: "x / y", refusal: "state `x / y`"),
    Case(label: "an id with a leading space", id: " lead", refusal: "state ` lead`"),
    Case(label: "an id with a tab", id: "tab\tx", refusal: "state `tab\\tx`"),
    Case(label: "an id with a control character", id: "bell\u{7}", refusal: "state `bell\\u{7}`"),
    Case(label: "an id with commas, pipes, backticks, < and #", id: "a,b|`c`<#", refusal: nil),
    Case(label: "an event with a space", event: "a b", refusal: "event `a b`"),
    Case(label: "an event with ' / '", event: "x / y", refusal: "event `x / y`"),
    Case(label: "an event with an unbalanced bracket or quote", event: ")x\"", refusal: nil),
    Case(label: "an effect with balanced brackets and a comma", effect: "fetch(page, 2)", refusal: nil),
    Case(label: "an effect with both quotes", effect: #"say "it's""#, refusal: #"effect `say "it's"`"#),
    Case(label: "a platform error other than the two SCXML raises", error: "error.custom", refusal: "error error.custom"),
    Case(label: "error.execution", error: "error.execution", refusal: nil),
    Case(label: "an error named with a space", error: "error x", refusal: "error error x"),
  ]

  @Test("SCXML export reads back to the same chart, or is refused naming the id", arguments: cases)
  func scxmlReadsBackOrRefuses(_ item: Case) throws {
    let chart = try item.chart()
    do {
      let document = try chart.scxml()
      #expect(item.refusal == nil, "exported, but expected a refusal naming \(item.refusal ?? "")")
      let back = try SCXMLDocument.parse(Data(document.utf8), file: "p.scxml")
      #expect(back.markdown() == chart.markdown())
    } catch let error as ExportError {
      let refusal = try #require(item.refusal, "refused: \(error)")
      #expect(error.subject.contains(refusal), "\(error)")
      #expect(error.machine == "p" && error.format == "SCXML")
    }
  }

  @Test("the Markdown spec reads back to the same chart, whatever the names", arguments: cases)
  func markdownReadsBack(_ item: Case) throws {
    let chart = try item.chart()
    let back = try ChartSpec.parse(chart.markdown(), file: "p.md")
    #expect(back.markdown() == chart.markdown())
    #expect(back.fingerprint == chart.fingerprint)
    // And the chart itself, not only its text: the same steps on its events.
    var (x, y) = (ChartMachine(chart, context: NoContext()), ChartMachine(back, context: NoContext()))
    #expect(try x.start().outputs.count == y.start().outputs.count)
    #expect(try x.send(item.event).effects == y.send(item.event).effects)
    #expect(x.configuration == y.configuration)
  }
}

extension ExportReadBackTests {
  struct SpecCase: Sendable, CustomTestStringConvertible {
    let label: String
    let row: String
    let field: String
    var testDescription: String { label }
  }

  static let specRefusals: [SpecCase] = [
    SpecCase(label: "entry content on a history state", row: "| h | c | shallow history | c1 | beep |  |", field: "entry"),
    SpecCase(label: "exit content on a history state", row: "| h | c | deep history | c1 |  | raise x |", field: "exit"),
    SpecCase(label: "an initial on an atomic state", row: "| h | c | atomic | c1 |  |  |", field: "initial"),
    SpecCase(label: "an initial on a final state", row: "| h | c | final | c1 |  |  |", field: "initial"),
  ]

  @Test("a chart spec refuses what no export can carry (and what would never run), naming the line and field", arguments: specRefusals)
  func specRefuses(_ item: SpecCase) {
    let text = """
      - chart: `s`

      | state | parent | kind | initial | entry | exit |
      | --- | --- | --- | --- | --- | --- |
      | c |  | compound | c1 |  |  |
      | c1 | c | atomic |  |  |  |
      \(item.row)

      """
    #expect {
      _ = try ChartSpec.parse(text, file: "s.md")
    } throws: { error in
      guard let error = error as? SpecError else { return false }
      return error.line == 7 && error.field == item.field
    }
  }
}
