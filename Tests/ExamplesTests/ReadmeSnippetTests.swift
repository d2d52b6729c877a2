import Foundation
import Testing

/// Every Swift snippet in the README is code the test suite compiles: each of its lines (trailing
/// `// comments` aside) appears, in order, in one test source file. A snippet changed in the
/// README without its test, or a test changed without the README, fails here. The manifest
/// snippet (`// Package.swift`) is SwiftPM's, not the library's, and is checked by SwiftPM.
@Suite("README snippets")
struct ReadmeSnippetTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The code of a line: without leading and trailing spaces and without a trailing comment.
  static func code(_ line: Substring) -> String {
    var text = String(line)
    if let comment = text.range(of: "//"), !text[..<comment.lowerBound].contains("\"") || text[..<comment.lowerBound].filter({ $0 == "\"" }).count % 2 == 0 {
      text = String(text[..<comment.lowerBound])
    }
    return text.trimmingCharacters(in: .whitespaces)
  }

  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(code).filter { !$0.isEmpty }
  }

  static func snippets() throws -> [(line: Int, code: [String])] {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    var result: [(Int, [String])] = []
    var current: [Substring]?
    var start = 0
    for (number, line) in readme.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      // Fences may be indented (a snippet inside a list item).
      let fence = line.drop { $0 == " " }
      if current == nil, fence.hasPrefix("```swift") {
        (current, start) = ([], number + 1)
      } else if current != nil, fence.hasPrefix("```") {
        if !(current!.first?.contains("// Package.swift") ?? false) { result.append((start, lines(current!.joined(separator: "\n")))) }
        current = nil
      } else if current != nil {
        current!.append(line)
      }
    }
    return result
  }

  static func testSources() throws -> [(path: String, lines: [String])] {
    let tests = root.appendingPathComponent("Tests")
    let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
    return try files.filter { $0.pathExtension == "swift" && !$0.path.hasSuffix("ReadmeSnippetTests.swift") }.map {
      ($0.path, lines(try String(contentsOf: $0, encoding: .utf8)))
    }
  }

  /// Whether `snippet` appears in `source` in order (other lines may come between).
  static func contains(_ source: [String], _ snippet: [String]) -> Bool {
    var index = source.startIndex
    for line in snippet {
      guard let found = source[index...].firstIndex(of: line) else { return false }
      index = found + 1
    }
    return true
  }

  @Test("every Swift snippet of the README is in a test that compiles it")
  func snippetsAreCompiled() throws {
    let sources = try Self.testSources()
    let snippets = try Self.snippets()
    #expect(snippets.count >= 10)
    for snippet in snippets where !sources.contains(where: { Self.contains($0.lines, snippet.code) }) {
      // Say which lines no single test file has, in order, to make the fix easy.
      let best = sources.max { a, b in
        snippet.code.filter(a.lines.contains).count < snippet.code.filter(b.lines.contains).count
      }
      let missing = snippet.code.filter { !(best?.lines.contains($0) ?? false) }
      Issue.record("README.md:\(snippet.line): this snippet is not in any test (closest: \(best.map { URL(fileURLWithPath: $0.path).lastPathComponent } ?? "none"); missing or out of order: \(missing.prefix(5)))")
    }
  }
}
