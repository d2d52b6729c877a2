import FSMTool
import Foundation
import Testing

/// `fsm view <spec.md> <log>`: a Swift machine's log read against its spec file by names, as
/// `fsm replay` checks it.
@Suite("fsm view: a log against a spec file", .serialized)
struct ViewSpecTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let machine: String
    let steps: [Int]
    var testDescription: String { machine }
  }

  static let cases: [Case] = [
    .init(machine: "login", steps: [0, 2, 9]),
    .init(machine: "captcha", steps: [0, 1, 3]),
  ]

  /// Each logged step's event as a spec page shows it: a case without a payload by its name,
  /// one with a payload as compact JSON (the log's own bytes, which are sorted and compact).
  static func loggedEvents(_ log: String) throws -> [String] {
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").dropFirst()
    return try [""] + lines.map { line in
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      if let name = object["event"] as? String { return name }
      let event = try #require(object["event"] as? [String: Any])
      if event.count == 1, let (name, payload) = event.first, (payload as? [String: Any])?.isEmpty == true { return name }
      return String(decoding: try JSONSerialization.data(withJSONObject: event, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }
  }

  @Test("a spec's page shows at each step the state the machine's own page shows, and the logged event", .enabled(if: HeadlessChromium.runs), arguments: cases)
  func sameSteps(_ example: Case) throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = ViewCommandTests.root.appendingPathComponent("Specs/\(example.machine).session.jsonl").path
    let spec = ViewCommandTests.root.appendingPathComponent("Specs/\(example.machine).md").path
    let (specPage, machinePage) = (folder.appendingPathComponent("spec.html").path, folder.appendingPathComponent("machine.html").path)
    let viewed = PackageFSM.run(["view", spec, log, "-o", specPage])
    #expect(viewed.code == 0, "\(viewed.errorOutput)")
    #expect(viewed.output.hasSuffix("replays identically\n"))
    #expect(PackageFSM.run(["view", example.machine, log, "-o", machinePage]).code == 0)
    let events = try Self.loggedEvents(log)
    for step in example.steps {
      let (bySpec, byMachine) = (try HeadlessChromium.dom("file://\(specPage)#step=\(step)"), try HeadlessChromium.dom("file://\(machinePage)#step=\(step)"))
      #expect(HeadlessChromium.text(of: "configuration", in: bySpec) == HeadlessChromium.text(of: "configuration", in: byMachine), "step \(step)")
      #expect(HeadlessChromium.text(of: "configuration", in: bySpec)?.isEmpty == false)
      #expect(HeadlessChromium.text(of: "event", in: bySpec) == events[step], "step \(step)")
    }
  }

  @Test("a step the spec's rows do not allow is the page's divergence, at the entry fsm replay names", .enabled(if: HeadlessChromium.runs))
  func divergence() throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let spec = ViewCommandTests.root.appendingPathComponent("Specs/login.md").path
    // Entry 1 (start, from welcome) is logged as going straight to the signed-in state.
    let original = ViewCommandTests.root.appendingPathComponent("Specs/login.session.jsonl").path
    let log = try ViewCommandTests.edited(original, into: folder.appendingPathComponent("login.jsonl").path) { lines in
      lines[1] = lines[1].replacingOccurrences(of: #""state":"credentials""#, with: #""state":"welcome""#)
    }
    let replayed = PackageFSM.run(["replay", spec, log])
    #expect(replayed.output.contains("entry 1"), "\(replayed.output)")
    let page = folder.appendingPathComponent("login.html").path
    let viewed = PackageFSM.run(["view", spec, log, "-o", page])
    #expect(viewed.output.hasSuffix("diverges at step 1\n"), "\(viewed.output)\(viewed.errorOutput)")
    let dom = try HeadlessChromium.dom("file://\(page)#step=1")
    let box = try #require(dom.range(of: "id=\"divergence\"").map { String(dom[$0.lowerBound...].prefix(2000)) })
    #expect(!box.hasPrefix("id=\"divergence\" hidden"))
    #expect(box.contains("welcome"), "the log's side")
    #expect(box.contains("credentials"), "the spec's side")
  }

  @Test("bad input against a spec: the errors fsm replay gives, and no page written")
  func badInput() throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let notALog = try ViewCommandTests.notALog(in: folder)
    let spec = ViewCommandTests.root.appendingPathComponent("Specs/login.md").path
    let truncated = try ViewCommandTests.edited(
      ViewCommandTests.root.appendingPathComponent("Specs/login.session.jsonl").path, into: folder.appendingPathComponent("cut.jsonl").path
    ) { lines in lines[4] = String(lines[4].prefix(20)) }
    let page = folder.appendingPathComponent("page.html").path
    let logs = [notALog, ViewCommandTests.phoneLoginLog, folder.appendingPathComponent("missing.jsonl").path, truncated]
    for log in logs {
      let viewed = PackageFSM.run(["view", spec, log, "-o", page])
      let replayed = PackageFSM.run(["replay", spec, log])
      #expect(viewed.code == 2)
      #expect(!viewed.errorOutput.isEmpty)
      #expect(viewed.errorOutput == replayed.errorOutput, "\(log)")
      #expect(!FileManager.default.fileExists(atPath: page))
    }
  }
}
