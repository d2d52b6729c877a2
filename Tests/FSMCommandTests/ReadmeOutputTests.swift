import FSMTool
import FSMCommand
import Foundation
import Synchronization
import Testing

/// Every `fsm` command the README shows with its output (a ```text block whose lines start
/// with `$ swift run fsm …`) runs here, and prints what the README says it prints. A line `…`
/// in the README stands for any number of lines; `| tail -N` after a command keeps its last N
/// lines. Paths are the repository's, relative to its root, as a user at the root types them.
@Suite("README: every command's output is what it prints")
struct ReadmeOutputTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A command the README shows, with the output shown after it.
  struct Shown: Sendable, CustomTestStringConvertible {
    /// The words after `fsm`.
    let arguments: [String]
    /// `| tail -N`, when the README pipes it.
    let tail: Int?
    /// The lines shown, `…` for any lines.
    let expected: [String]
    /// The README line of the command.
    let line: Int
    var testDescription: String { "README.md:\(line): fsm \(arguments.joined(separator: " "))" }
  }

  /// The README's shown commands, in order.
  static func shown() -> [Shown] {
    guard let text = try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8) else { return [] }
    let lines = text.components(separatedBy: "\n")
    var found: [Shown] = []
    var inText = false
    var current: (arguments: [String], tail: Int?, line: Int, expected: [String])?
    func close() {
      guard let c = current else { return }
      var expected = c.expected
      while expected.last == "" { expected.removeLast() }
      found.append(Shown(arguments: c.arguments, tail: c.tail, expected: expected, line: c.line))
      current = nil
    }
    for (n, line) in lines.enumerated() {
      if line.hasPrefix("```") {
        if inText { close() }
        inText = line == "```text"
        continue
      }
      guard inText else { continue }
      if line.hasPrefix("$ swift run fsm ") {
        close()
        var command = String(line.dropFirst("$ swift run fsm ".count))
        var tail: Int?
        if let pipe = command.range(of: " | tail -") {
          tail = Int(command[pipe.upperBound...])
          command = String(command[..<pipe.lowerBound])
        }
        current = (words(command), tail, n + 1, [])
      } else if current != nil {
        current!.expected.append(line)
      }
    }
    return found
  }

  /// The words of `command` as a shell splits them: at spaces, but not inside double quotes,
  /// which are dropped (`--events "start,after 1s"` is two words).
  static func words(_ command: String) -> [String] {
    var (words, word, quoted, inWord) = ([String](), "", false, false)
    for character in command {
      switch character {
      case "\"": (quoted, inWord) = (!quoted, true)
      case " " where !quoted:
        if inWord { words.append(word) }
        (word, inWord) = ("", false)
      default: (word, inWord) = (word + String(character), true)
      }
    }
    if inWord { words.append(word) }
    return words
  }

  /// Whether `actual` is `expected`, with each `…` line standing for any lines.
  static func matches(_ actual: ArraySlice<String>, _ expected: ArraySlice<String>) -> Bool {
    guard let first = expected.first else { return actual.isEmpty }
    if first == "…" {
      return actual.indices.map { actual[$0...] }.contains { matches($0, expected.dropFirst()) } || matches([], expected.dropFirst())
    }
    guard let line = actual.first, line == first else { return false }
    return matches(actual.dropFirst(), expected.dropFirst())
  }

  /// What `fsm` prints for `shown`, run from the repository's root.
  static func output(of shown: Shown) async -> String {
    let prefix = root.path + "/"
    let arguments = shown.arguments.map { word in
      FileManager.default.fileExists(atPath: prefix + word) ? prefix + word : word
    }
    let printed = Mutex<[String]>([])
    let result = await PackageFSM.run(arguments, streaming: { line in printed.withLock { $0.append(line) } })
    let text = printed.withLock { $0.joined(separator: "\n") + ($0.isEmpty ? "" : "\n") } + result.output + result.errorOutput
    return text.replacingOccurrences(of: prefix, with: "")
  }

  @Test("the README shows commands with their output, the demo among them")
  func found() {
    let commands = Self.shown().map { $0.arguments.first ?? "" }
    #expect(Set(commands).isSuperset(of: ["demo", "run", "replay", "explore", "list", "check"]), "\(commands)")
  }

  @Test(arguments: shown())
  func output(_ shown: Shown) async throws {
    if shown.arguments.contains(where: { $0.hasPrefix("../shared") }),
      !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(shown.arguments.last!).path)
    {
      // The conformance suite lives beside the checkout; CI has it.
      try #require(ProcessInfo.processInfo.environment["CI"] == nil, "\(shown.arguments.last!) is missing")
      return
    }
    var lines = await Self.output(of: shown).components(separatedBy: "\n")
    while lines.last == "" { lines.removeLast() }
    if let tail = shown.tail { lines = Array(lines.suffix(tail)) }
    #expect(
      Self.matches(lines[...], shown.expected[...]),
      "README.md:\(shown.line) shows:\n\(shown.expected.joined(separator: "\n"))\n\nfsm printed:\n\(lines.joined(separator: "\n"))")
  }

  @Test("a command's words are split as a shell splits them: a double-quoted word keeps its spaces")
  func quotedWords() {
    #expect(Self.words(#"demo Specs/sync.scxml --events "start,after 1s""#) == ["demo", "Specs/sync.scxml", "--events", "start,after 1s"])
    #expect(Self.words("list  --all") == ["list", "--all"])
    #expect(Self.words(#"run x --events """#) == ["run", "x", "--events", ""])
  }

  @Test("a `…` line stands for any lines, and only there")
  func ellipsis() {
    #expect(Self.matches(["a", "b", "c", "d"], ["a", "…", "d"]))
    #expect(Self.matches(["a", "d"], ["a", "…", "d"]))
    #expect(!Self.matches(["a", "b", "c"], ["a", "…", "d"]))
    #expect(!Self.matches(["a", "x", "d"], ["a", "d"]))
  }
}
