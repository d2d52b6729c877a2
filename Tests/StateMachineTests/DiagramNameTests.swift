import Foundation
import StateMachine
import Testing

/// Where Graphviz's `dot` is (`.ci/run` installs it), if anywhere.
enum Graphviz {
  static let path = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Renders `source` to SVG; the exit status and the SVG.
  static func svg(_ source: String) throws -> (status: Int32, svg: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path!)
    process.arguments = ["-Tsvg"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    input.fileHandleForWriting.write(Data(source.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

@Suite("Every state name renders as itself: Markdown, Mermaid, DOT")
struct DiagramNameTests {
  struct Name: Sendable, CustomTestStringConvertible {
    let label: String
    let name: String
    var testDescription: String { label }
  }

  static let names: [Name] = [
    Name(label: "a quote", name: "say \"hi\""),
    Name(label: "Mermaid keyword end", name: "end"),
    Name(label: "Mermaid keyword note", name: "note"),
    Name(label: "Mermaid keyword direction", name: "direction"),
    Name(label: "Mermaid keyword class", name: "class"),
    Name(label: "Mermaid keyword state", name: "state"),
    Name(label: "colon, semicolon, hash", name: "a: b; #c"),
    Name(label: "an entity look-alike", name: "#58;"),
    Name(label: "a Mermaid comment", name: "50%%"),
    Name(label: "angle brackets and ampersand", name: "<b>&"),
    Name(label: "a NUL byte", name: "nul\u{0}here"),
    Name(label: "a newline", name: "two\nlines"),
    Name(label: "the DOT start point's name", name: "__start"),
    Name(label: "a label escape", name: "a\\N\\G"),
    Name(label: "the wildcard", name: "*"),
    Name(label: "the stay marker", name: "(stay)"),
    Name(label: "the ignore marker", name: "(ignore)"),
    Name(label: "a comma", name: "*, A"),
    Name(label: "a bar", name: "x|y"),
    Name(label: "a backtick", name: "`tick`"),
    Name(label: "spaces around", name: " padded "),
    Name(label: "an unbalanced bracket", name: "open(ing"),
    Name(label: "non-ASCII", name: "état été"),
  ]

  /// Two states, `name` and `other`, with rows, entry effects and an effect all named after `name`.
  static func table(_ name: String) throws -> TransitionTable<String, String, NoContext, String> {
    try TransitionTable(
      name: "names", initial: name,
      states: [.state(name, entry: [name]), .state("other")],
      rows: [
        .transition(from: name, on: name, to: "other", effects: name),
        .transition(from: "other", on: "back", to: name),
      ])
  }

  @Test("Markdown: the spec reads back to the same table", arguments: names)
  func markdown(_ c: Name) throws {
    let table = try Self.table(c.name)
    let spec = try SpecDocument.parse(table.markdown(), file: "names.md")
    #expect(spec.states.map(\.name) == [c.name, "other"])
    #expect(spec.transitions.map(\.event) == [c.name, "back"])
    #expect(spec.transitions.map(\.to) == ["other", c.name])
    #expect(spec.transitions[0].from == [c.name])
    #expect(spec.transitions[0].effects == [c.name])
    #expect(spec.states[0].entry == [c.name])
    #expect(spec.table.markdown() == table.markdown())
    #expect(spec.table.problems.isEmpty, "\(spec.table.problems)")
  }

  /// `#NN;` entity codes decoded, as Mermaid shows them.
  static func decoded(_ text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let hash = rest.firstIndex(of: "#") {
      out += rest[..<hash]
      let after = rest[rest.index(after: hash)...]
      if let semicolon = after.firstIndex(of: ";"), let value = UInt32(after[..<semicolon]), let scalar = Unicode.Scalar(value) {
        out.unicodeScalars.append(scalar)
        rest = after[after.index(after: semicolon)...]
      } else {
        out += "#"
        rest = after
      }
    }
    return out + rest
  }

  @Test("Mermaid: identifiers are safe, texts escaped with entity codes, and decode to the name", arguments: names)
  func mermaid(_ c: Name) throws {
    let text = try Self.table(c.name).mermaid()
    let lines = text.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
    let identifier = #/[A-Za-z_][A-Za-z0-9_]*/#
    var ids: [String: String] = ["other": "other"]
    for line in lines {
      if let m = line.wholeMatch(of: #/state "([^"]*)" as ([A-Za-z_][A-Za-z0-9_]*)/#) {
        ids[Self.decoded(String(m.1))] = String(m.2)
      } else if let m = line.wholeMatch(of: #/(\S+) (?:--> (\S+) )?: (.*)/#) {
        #expect(String(m.1).wholeMatch(of: identifier) != nil, "\(line)")
        let raw = String(m.3).replacing(#/#[0-9]+;/#, with: "")
        #expect(!raw.contains { ":;\"%#<>&".contains($0) }, "\(line)")
      } else {
        #expect(line.wholeMatch(of: #/(\[\*\]|[A-Za-z_][A-Za-z0-9_]*) --> (\[\*\]|[A-Za-z_][A-Za-z0-9_]*)/#) != nil, "\(line)")
      }
    }
    let visible = Self.visible(c.name)
    let id = try #require(ids[visible] ?? (c.name.wholeMatch(of: identifier) != nil ? c.name : nil), "\(text)")
    #expect(!DiagramKeywords.all.contains(id.lowercased()), "identifier \(id) is a Mermaid keyword")
    #expect(text.contains("\(id) --> other : \(Self.encode(c.name)) / \(Self.encode(c.name))"), "\(text)")
    #expect(text.contains("\(id) : entry / \(Self.encode(c.name))"), "\(text)")
  }

  /// The Mermaid text of `name`, as `mermaid()` escapes it.
  static func encode(_ name: String) -> String {
    visible(name).unicodeScalars.map { ":;#\"<>&{}|%".unicodeScalars.contains($0) ? "#\($0.value);" : String($0) }.joined()
  }

  static func visible(_ name: String) -> String {
    String(String.UnicodeScalarView(name.unicodeScalars.map { $0.value < 0x20 ? Unicode.Scalar(0x2400 + $0.value)! : $0 }))
  }

  @Test("DOT: Graphviz reads it, with one node per state and the start point", .enabled(if: Graphviz.path != nil, "needs Graphviz (dot)"),
        arguments: names)
  func dot(_ c: Name) throws {
    let source = try Self.table(c.name).dot()
    let (status, svg) = try Graphviz.svg(source)
    #expect(status == 0, "\(source)")
    #expect(svg.components(separatedBy: "class=\"node\"").count - 1 == 3, "\(source)")
    #expect(svg.components(separatedBy: "class=\"edge\"").count - 1 == 3, "\(source)")
    if !c.name.contains("\n") {
      let escaped = Self.visible(c.name).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
      #expect(svg.contains(">\(escaped)</text>") || svg.contains(">\(escaped.replacingOccurrences(of: " ", with: "&#160;"))</text>"), "\(svg)")
    }
  }
}

/// The words Mermaid's state diagrams read as their own.
enum DiagramKeywords {
  static let all: Set<String> = ["state", "note", "end", "direction", "class", "classdef", "click", "style", "as"]
}
