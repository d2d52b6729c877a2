import Foundation
@testable import StateMachine
import Testing

@Suite("Chart specs: Markdown with nesting, read back identically")
struct ChartSpecTests {
  static func scionCharts() -> [String] {
    guard let folder = SCXMLTests.scionFile("") else { return [] }
    return (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".scxml") }.sorted()
  }

  @Test("every conformance chart and Specs/player.scxml: Markdown reads back to the same Markdown and the same behaviour",
        .enabled(if: SCXMLTests.scionFile("index.tsv") != nil, "needs ../shared/scion"))
  func roundTrip() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let paths = Self.scionCharts().map { SCXMLTests.scionFile($0)! } + [root.appendingPathComponent("Specs/player.scxml").path]
    #expect(paths.count == 87)
    for (n, path) in paths.enumerated() {
      let chart = try SCXMLDocument.load(contentsOf: path)
      let markdown = chart.markdown()
      let back = try ChartSpec.parse(markdown, file: "back.md")
      #expect(back.markdown() == markdown, "\(path)")
      // The same steps on random events.
      var a = TextMachine(chart, context: NoContext())
      var b = TextMachine(back, context: NoContext())
      #expect(try a.start().outputs == b.start().outputs, "\(path)")
      let events = QuickStepTests.alphabet(chart)
      var random = SplitMix64(seed: UInt64(n))
      for _ in 0..<100 {
        let event = events[Int(random.next() % UInt64(events.count))]
        let x = try? a.send(event)
        let y = try? b.send(event)
        #expect(x?.outputs == y?.outputs && a.configuration == b.configuration, "\(path) on \(event)")
      }
    }
  }

  struct Bad: Sendable, CustomTestStringConvertible {
    let label: String
    let text: String
    let error: SpecError
    var testDescription: String { label }
  }

  static let states = "| state | parent | kind | initial | entry | exit |\n| --- | --- | --- | --- | --- | --- |\n"
  static let transitions = "\n| from | event | guard | to | type | actions |\n| --- | --- | --- | --- | --- | --- |\n"

  @Test("a bad chart spec names the line and field", arguments: [
    Bad(label: "unknown kind", text: states + "| a |  | weird |  |  |  |\n",
        error: SpecError(file: "c.md", line: 3, field: "kind", message: "'weird'; expected atomic, compound, parallel, final, shallow history or deep history")),
    Bad(label: "unknown parent", text: states + "| a | nowhere | atomic |  |  |  |\n",
        error: SpecError(file: "c.md", line: 3, field: "parent", message: "'nowhere' is not in the states table")),
    Bad(label: "a parent cycle", text: states + "| a |  | atomic |  |  |  |\n| b | c | compound |  |  |  |\n| c | b | compound |  |  |  |\n",
        error: SpecError(file: "c.md", line: 4, field: "parent", message: "'b' is its own ancestor")),
    Bad(label: "unknown source", text: states + "| a |  | atomic |  |  |  |\n" + transitions + "| b | go |  | a |  |  |\n",
        error: SpecError(file: "c.md", line: 7, field: "from", message: "'b' is not in the states table")),
    Bad(label: "bad send", text: states + "| a |  | atomic |  | send x later |  |\n",
        error: SpecError(file: "c.md", line: 3, field: "entry", message: "'send x later'; expected send <event> [after <time>] [as <id>], or send <event> to <target> [after <time>] [as <id>]")),
    Bad(label: "bad delayed message", text: states + "| a |  | atomic |  | send x to #_w after soon |  |\n",
        error: SpecError(
          file: "c.md", line: 3, field: "entry",
          message: "'send x to #_w after soon'; expected send <event> [after <time>] [as <id>], or send <event> to <target> [after <time>] [as <id>]")),
    Bad(label: "unknown target", text: states + "| a |  | atomic |  |  |  |\n" + transitions + "| a | go |  | zz |  |  |\n",
        error: SpecError(file: "c.md", line: 7, message: "line 7: state 'a': unknown target 'zz'")),
    Bad(label: "no states table", text: "# nothing\n- chart: `x`\n",
        error: SpecError(file: "c.md", line: 0, message: "no states table; expected the columns state, parent, kind, initial, entry, exit")),
  ])
  func badSpecs(_ c: Bad) {
    #expect(throws: c.error) { try ChartSpec.parse(c.text, file: "c.md") }
  }
}
