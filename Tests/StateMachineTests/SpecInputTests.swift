import Foundation
@testable import StateMachine
import StateMachineExamples
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Spec input: line endings, files that are not specs, size, large tables")
struct SpecInputTests {
  struct Ending: Sendable, CustomTestStringConvertible {
    let label: String
    let separator: String
    var testDescription: String { label }
  }

  @Test("CRLF and CR line endings read as LF does", arguments: [
    Ending(label: "CRLF", separator: "\r\n"), Ending(label: "CR", separator: "\r"), Ending(label: "LF", separator: "\n"),
  ])
  func lineEndings(_ c: Ending) throws {
    let markdown = Door.table.markdown()
    let text = markdown.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: c.separator)
    let spec = try SpecDocument.parse(text, file: "door.md")
    #expect(spec.table.markdown() == markdown)
    #expect(spec.transitions.count == Door.table.rows.count)
    #expect(spec.transitions.map(\.line) == (try SpecDocument.parse(markdown, file: "door.md")).transitions.map(\.line))
  }

  @Test("a bad cell in a CRLF spec is reported on its own line")
  func crlfErrorsNameTheLine() {
    let text = "| from | event | guard | to | effects |\r\n| --- | --- | --- | --- | --- |\r\n| a | go |  | b |  |\r\n| a |  |  | b |  |\r\n"
    #expect(throws: SpecError(file: "t.md", line: 4, field: "event", message: "empty cell; expected an event name")) {
      try SpecDocument.parse(text, file: "t.md")
    }
  }

  struct PathCase: Sendable, CustomTestStringConvertible {
    let label: String
    let make: @Sendable (String) -> String
    let line: Int
    let message: String
    var testDescription: String { label }
  }

  static let paths: [PathCase] = [
    PathCase(label: "missing", make: { $0 }, line: 0, message: "no such file"),
    PathCase(label: "a directory", make: { path in
      try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      return path
    }, line: 0, message: "is a directory; expected a file"),
    PathCase(label: "a FIFO", make: { path in
      _ = mkfifo(path, 0o644)
      return path
    }, line: 0, message: "is a named pipe (FIFO); expected a regular file"),
    PathCase(label: "a device", make: { _ in "/dev/zero" }, line: 0, message: "is a device; expected a regular file"),
    PathCase(label: "larger than the limit (refused before reading)", make: { path in
      _ = FileManager.default.createFile(atPath: path, contents: Data())
      truncate(path, off_t(SpecDocument.maxFileSize + 1))  // sparse: nothing is written
      return path
    }, line: 0, message: "is \(SpecDocument.maxFileSize + 1) bytes or more; expected at most \(SpecDocument.maxFileSize)"),
    PathCase(label: "invalid UTF-8", make: { path in
      _ = FileManager.default.createFile(atPath: path, contents: Data("| from | event | guard | to | effects |\n| a\u{FF}".utf8.map { $0 == 0xBF ? 0xFF : $0 }))
      return path
    }, line: 2, message: "invalid UTF-8 at byte 44; expected UTF-8 text"),
  ]

  @Test("what is not a readable spec file gets its own reason, naming the file", arguments: paths)
  func loadRefuses(_ c: PathCase) {
    let base = temporaryPath("spec") + ".md"
    defer { try? FileManager.default.removeItem(atPath: base) }
    let path = c.make(base)
    #expect(throws: SpecError(file: path, line: c.line, message: c.message)) { try SpecDocument.load(contentsOf: path) }
  }

  @Test("a 16 000-row spec is checked with the right findings (validation is near-linear: see fsm bench spec-check)")
  func largeSpecs() throws {
    func problems(_ kind: Int) throws -> [TableProblem] {
      try SpecDocument.parse(largeShape(kind, rows: 16_000), file: "large.md").table.problems.filter { $0 != .noInitialState }
    }
    let sameTarget = try problems(0)
    #expect(sameTarget.count == 15_999)
    #expect(sameTarget.first == .shadowed(row: 2, by: 1, state: "a", event: "go"))
    let distinct = try problems(1)
    #expect(distinct.count == 1)
    if case .nondeterministic(let rows, "a", "go")? = distinct.first {
      #expect(rows == Array(1...16_000), "all 16 000 rows, in order")
    } else {
      Issue.record("expected one nondeterminism finding")
    }
    #expect(try problems(2).isEmpty, "distinct guards: nothing wrong")
    let sameGuard = try problems(3)
    #expect(sameGuard.count == 15_999)
    #expect(sameGuard.last == .shadowed(row: 16_000, by: 1, state: "a", event: "go"))
  }

  func largeShape(_ kind: Int, rows: Int) -> String {
    let header = "| from | event | guard | to | effects |\n| --- | --- | --- | --- | --- |\n"
    return header + (0..<rows).map { i in
      switch kind {
      case 0: "| a | go |  | b |  |\n"
      case 1: "| a | go |  | b\(i) |  |\n"
      case 2: "| a | go | g\(i) | b\(i) |  |\n"
      default: "| a | go | g | b\(i) |  |\n"
      }
    }.joined()
  }

  @Test("unhandled events are one finding per state, however many events a table has")
  func unhandledGrouped() throws {
    let header = "| from | event | guard | to | effects |\n| --- | --- | --- | --- | --- |\n"
    let rows = (0..<2_000).map { "| s\($0) | e\($0) |  | s\(($0 + 1) % 2_000) |  |\n" }.joined()
    let spec = try SpecDocument.parse(header + rows, file: "wide.md")
    let analysis = spec.table.analyze()
    #expect(analysis.unhandledCount == 2_000 * 1_999)
    let unhandled = spec.table.check().filter { $0.kind == .unhandled }
    #expect(unhandled.count == 2_000)
    #expect(unhandled.first?.message == "no row handles 1999 events in 's0': 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10' and 1989 more (add rows, ignore rows, or use the ignore policy)")
    #expect(analysis.unhandledEvents(in: "s1", limit: 2) == ["e0", "e2"])
  }
}
