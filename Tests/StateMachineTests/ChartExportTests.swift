import Foundation
import StateMachine
import Testing

@Suite("Chart export: nested Mermaid, DOT clusters")
struct ChartExportTests {
  static let history4 = """
    <parallel id="p">
      <history id="hp" type="deep"><transition target="b"/></history>
      <state id="b" initial="b1">
        <state id="b1"><transition event="t" target="b2"/></state>
        <state id="b2"><transition event="out" target="x"/></state>
      </state>
      <state id="c"><transition event="cross" target="b2"/></state>
    </parallel>
    <final id="x"/>
    """

  @Test("Mermaid nests compound and parallel states, separates regions, draws history and finals")
  func mermaid() throws {
    let chart = try scxml(Self.history4)
    #expect(chart.mermaid() == """
      stateDiagram-v2
          [*] --> p
          state p {
              state b {
                  [*] --> b1
                  b1 --> b2 : t
              }
              --
              c
          }
          x --> [*]
          p --> x : b2#58; out
          p --> p : c#58; cross → b2

      """)
  }

  @Test("DOT has a cluster per composite state, dashed for parallel ones, and clipped edges")
  func dot() throws {
    let dot = try scxml(Self.history4).dot()
    #expect(dot.contains("compound=true;"))
    #expect(dot.contains("subgraph cluster_1 {\n        label=\"p\";\n        style=dashed;"))
    #expect(dot.contains("n2 [label=\"H*\", shape=circle, tooltip=\"hp\"];"))
    #expect(dot.contains("n7 [label=\"x\", peripheries=2];"))
    #expect(dot.contains("__start -> n4 [lhead=cluster_1];"))
  }

  @Test("every conformance chart's DOT is read by Graphviz, and its Mermaid blocks balance",
        .enabled(if: Graphviz.path != nil && SCXMLTests.scionFile("index.tsv") != nil, "needs Graphviz and ../shared/scion"))
  func everyConformanceChart() throws {
    let folder = try #require(SCXMLTests.scionFile(""))
    let files = (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".scxml") }
    #expect(files.count == 86)
    for file in files {
      let chart = try SCXMLDocument.load(contentsOf: folder + "/" + file)
      let (status, _) = try Graphviz.svg(chart.dot())
      #expect(status == 0, "\(file)")
      let mermaid = chart.mermaid()
      #expect(mermaid.components(separatedBy: " {\n").count - 1 == mermaid.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces) == "}" }.count, "\(file)")
    }
  }
}
