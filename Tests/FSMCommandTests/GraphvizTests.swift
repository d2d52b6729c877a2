import Foundation
import Testing

@testable import FSMCommand

/// `fsm view` draws a machine with Graphviz's `dot` when it is installed: a `dot` that is
/// missing, or exits before it has read the drawing, leaves the page to draw it, and never
/// ends the process (a write to the pipe raised SIGPIPE, or trapped in `try!`, before).
@Suite("fsm view without a working Graphviz")
struct GraphvizTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let label: String
    /// The program run as `dot`.
    let program: String
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "dot is not installed (not on PATH)", program: "fsm-test-no-such-dot"),
    // `true` exits at once without reading: a drawing larger than the pipe's buffer then fails
    // to be written (EPIPE).
    Case(label: "dot exits without reading the drawing", program: "true"),
    // `false` too, and fails.
    Case(label: "dot fails without reading the drawing", program: "false"),
  ]

  @Test("no drawing, and no crash", arguments: cases)
  func noDrawing(_ c: Case) {
    // Larger than a pipe's buffer (64 KiB on Linux), so the writer is still writing when the
    // program has gone.
    let large = "digraph G {\n" + (0..<20_000).map { "  s\($0) -> s\($0 + 1);\n" }.joined() + "}\n"
    #expect(large.utf8.count > 256 * 1024)
    #expect(Graphviz.svg(large, program: c.program) == nil)
  }

  @Test("a program that is on PATH is found; one that is not, is not")
  func lookup() {
    #expect(Graphviz.executable("true") != nil)
    #expect(Graphviz.executable("fsm-test-no-such-dot") == nil)
  }

  @Test("with Graphviz installed, a machine is drawn", .enabled(if: Graphviz.executable("dot") != nil, "needs Graphviz (.ci/run installs it)"))
  func drawn() {
    #expect(Graphviz.svg("digraph G { a -> b }")?.contains("<svg") == true)
  }
}
