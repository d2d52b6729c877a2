import Foundation
import StateMachine
import StateMachineExamples
import Testing

/// A machine drawn with the child machines it invokes (`MachineDescription.invoking(_:in:)`,
/// what `fsm show` draws for the upload queue): every format shows the child inside its parent,
/// led from the invoking states, with ids kept apart from the parent's.
@Suite("Invoked children drawn with their parent")
struct InvokedChildrenDrawingTests {
  typealias ClashChart = Chart<String, String, NoContext, String>

  /// The upload queue, invoking the upload table in `uploading`.
  static let queue = MachineDescription(chart: UploadQueue.chart, summary: "queue")
    .invoking(MachineDescription(Upload.table, summary: "one upload"), in: ["uploading"])

  /// A parent whose states have the child's names (`sending`, `sent`), and whose child
  /// invokes a grandchild: ids must not meet.
  static func clashing() throws -> MachineDescription {
    let parent = try ClashChart(name: "parent", states: [
      .atomic("sending", transitions: [.on("go", to: "sent")]), .atomic("sent"),
    ])
    let grandchild = try ClashChart(name: "grandchild", states: [.atomic("sending"), .final("done")])
    let child = MachineDescription(Upload.table, summary: "child").invoking(MachineDescription(chart: grandchild, summary: "g"), in: ["waiting"])
    return MachineDescription(chart: parent, summary: "parent").invoking(child, in: ["sending"])
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let format: MachineDescription.Format
    /// Lines the drawing must hold: the child's states and the link from the invoking state.
    let lines: [String]
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "Markdown: a section with the child's tables", format: .table, lines: [
      "## Child machine `upload`, invoked in `uploading`", "| sending | initial | send (in state) |  |", "| waiting | retryNow |  | sending |  |",
    ]),
    Case(label: "Mermaid: a composite state and a note", format: .mermaid, lines: [
      "    state \"upload (child machine)\" as child1 {", "        state \"sending\" as child1_sending", "        [*] --> child1_sending",
      "        child1_waiting --> child1_sending : retryNow", "    note right of uploading : invokes upload",
    ]),
    Case(label: "DOT: a dotted cluster and a dashed edge", format: .dot, lines: [
      "    subgraph cluster_child1 {", "        label=\"upload (child machine)\";", "        \"child1_sent\" [peripheries=2, label=\"sent\"];",
      "    n2 -> \"child1___start\" [style=dashed, label=\"invokes\", lhead=cluster_child1];",
    ]),
  ]

  @Test(arguments: cases)
  func drawsTheChildInItsParent(_ c: Case) {
    let drawn = Self.queue.render(c.format)
    let lines = Set(drawn.split(separator: "\n").map(String.init))
    for line in c.lines { #expect(lines.contains(line), "missing \(line) in\n\(drawn)") }
    // The parent's own drawing is all there, unchanged.
    let alone = MachineDescription(chart: UploadQueue.chart, summary: "queue").render(c.format)
    for line in alone.split(separator: "\n") where line != "}" { #expect(lines.contains(String(line)), "lost \(line)") }
  }

  @Test("a parent, child and grandchild sharing state names get distinct ids")
  func idsStayApart() throws {
    let mermaid = try Self.clashing().render(.mermaid)
    // Every declared id is declared once, and the three `sending` states are three ids.
    let declared = mermaid.split(separator: "\n").compactMap { line in line.range(of: " as ").map { String(line[$0.upperBound...]).replacingOccurrences(of: " {", with: "") } }
    #expect(Set(declared).count == declared.count, "\(mermaid)")
    for id in ["child1_sending", "child1_child1_sending"] { #expect(declared.contains(id), "\(mermaid)") }
    #expect(mermaid.contains("    sending --> sent : go"))
    #expect(mermaid.contains("note right of child1_waiting : invokes grandchild"))
  }

  @Test("Graphviz draws the parent, its child and grandchild: every state a node of its own",
        .enabled(if: Graphviz.path != nil, "needs Graphviz (.ci/run installs it)"))
  func graphvizDrawsIt() throws {
    let (status, svg) = try Graphviz.svg(try Self.clashing().render(.dot))
    #expect(status == 0)
    // parent 2 + start, child 4 + start, grandchild 2 + start.
    #expect(svg.components(separatedBy: "class=\"node\"").count - 1 == 11, "\(svg)")
    #expect(svg.components(separatedBy: "class=\"cluster\"").count - 1 == 2)
    let (queueStatus, _) = try Graphviz.svg(Self.queue.render(.dot))
    #expect(queueStatus == 0)
  }
}
