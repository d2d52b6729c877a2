import FSMCommand
import FSMTool
import Foundation
import StateMachine
import StateMachineExamples
import Testing

/// `fsm view`: a recorded log as a page, opened in headless Chromium and compared with the log
/// the machine replays.
@Suite("fsm view: a session as a page", .serialized)
struct ViewCommandTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let phoneLoginLog = root.appendingPathComponent("Specs/phone-login.session.jsonl").path

  /// A folder of its own for each test's pages.
  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-view-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The phone login's logged steps as a page should show them: step 0 the header's.
  static func loggedSteps() throws -> [(event: String, configuration: String)] {
    let read = EventLog<ChartLogState<PhoneLogin.State>, PhoneLogin.Event, PhoneLogin.Context, PhoneLogin.Effect>.read(
      contentsOf: phoneLoginLog, for: PhoneLogin.chart)
    let log = try #require(read.log)
    let shown = { (state: ChartLogState<PhoneLogin.State>) in state.configuration.map { "\($0)" }.joined(separator: ", ") }
    return [("", shown(log.header.state))] + log.entries.map { ("\($0.event)", shown($0.state)) }
  }

  /// A file of notes in `folder` that is no log; returns its path.
  static func notALog(in folder: URL) throws -> String {
    let path = folder.appendingPathComponent("notes.jsonl").path
    try "just some notes\n".write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// A copy of the log at `path`, its lines changed by `edit`, written to `copy`; returns `copy`.
  static func edited(_ path: String, into copy: String, _ edit: (inout [String]) throws -> Void) throws -> String {
    var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    try edit(&lines)
    try lines.joined(separator: "\n").write(toFile: copy, atomically: true, encoding: .utf8)
    return copy
  }

  struct Opened: Sendable, CustomTestStringConvertible {
    let label: String
    let step: Int
    var testDescription: String { label }
  }

  static let opened: [Opened] = [
    .init(label: "the start", step: 0), .init(label: "the first step", step: 1), .init(label: "the code sent", step: 3),
    .init(label: "mid-session", step: 17), .init(label: "later", step: 40), .init(label: "the last step", step: 72),
  ]

  @Test("the page opened at #step=N shows the log's step N: its active states and event", .enabled(if: HeadlessChromium.runs), arguments: opened)
  func opensAtStep(_ opened: Opened) throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("phone-login.html").path
    let result = PackageFSM.run(["view", "phone-login", Self.phoneLoginLog, "-o", page])
    #expect(result.code == 0, "\(result.errorOutput)")
    let steps = try Self.loggedSteps()
    let dom = try HeadlessChromium.dom("file://\(page)#step=\(opened.step)")
    #expect(HeadlessChromium.text(of: "configuration", in: dom) == steps[opened.step].configuration)
    #expect(HeadlessChromium.text(of: "event", in: dom) == steps[opened.step].event)
    #expect(HeadlessChromium.text(of: "position", in: dom) == "step \(opened.step) of \(steps.count - 1)")
  }

  @Test("a log that diverges from the machine: the page marks the first divergence with both sides", .enabled(if: HeadlessChromium.runs))
  func divergence() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // The fifth entry says the chart went somewhere it does not go.
    let log = try Self.edited(Self.phoneLoginLog, into: folder.appendingPathComponent("diverged.jsonl").path) { lines in
      let logged = try #require(lines[5].range(of: #""configuration":\[[^\]]*\]"#, options: .regularExpression))
      lines[5].replaceSubrange(logged, with: #""configuration":["failed","counting"]"#)
    }
    let page = folder.appendingPathComponent("diverged.html").path
    let result = PackageFSM.run(["view", "phone-login", log, "-o", page])
    #expect(result.output.contains("diverges at step 5"), "\(result.output)\(result.errorOutput)")
    let dom = try HeadlessChromium.dom("file://\(page)#step=5")
    #expect(HeadlessChromium.text(of: "summary", in: dom) == "72 steps, diverges at step 5")
    let box = try #require(dom.range(of: "id=\"divergence\"").map { String(dom[$0.lowerBound...].prefix(2000)) })
    #expect(!box.hasPrefix("id=\"divergence\" hidden"))
    #expect(box.contains("failed, counting") || box.contains("failed"), "the log's side")
    #expect(box.contains("editing"), "the machine's side")
    // Elsewhere the divergence is not shown.
    let before = try HeadlessChromium.dom("file://\(page)#step=4")
    #expect(before.contains("id=\"divergence\" hidden"))
  }

  @Test("without Graphviz's drawing the page draws nested boxes and lights the active ones", .enabled(if: HeadlessChromium.runs))
  func boxes() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    guard case .read(let session)? = MachineCatalog.all.first(where: { $0.name == "phone-login" })?.session(logAt: Self.phoneLoginLog) else {
      Issue.record("the session did not read")
      return
    }
    let page = folder.appendingPathComponent("boxes.html")
    try Data(SessionPage.html(session, svg: nil).utf8).write(to: page)
    let dom = try HeadlessChromium.dom(page.absoluteString + "#step=3")
    let lit = dom.components(separatedBy: "class=\"box ").dropFirst().filter { $0.hasPrefix("atomic active\"") || $0.hasPrefix("final active\"") }
      .compactMap { $0.split(separator: "\"").dropFirst(2).first.map(String.init) }
    #expect(Set(lit) == ["editing", "counting"])
  }

  /// (How long it takes is measured by `fsm bench --workload view`, not here: a test's timing
  /// is the machine's load as much as the page's.)
  @Test("a 100,000-step log: the page opens at any step, showing that step, and says how long it took", .enabled(if: HeadlessChromium.runs))
  func largeLog() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (page, said) = try #require(ViewBench.page(steps: 100_000, in: folder, name: "counter"))
    #expect(said.hasSuffix("100000 steps of counter, replays identically\n"), "\(said)")
    for step in ViewBench.steps {
      let dom = try HeadlessChromium.dom("file://\(page)#step=\(step)")
      #expect(HeadlessChromium.text(of: "context", in: dom)?.contains("\"count\": \(step)") == true)
      #expect(HeadlessChromium.shownMilliseconds(in: dom) != nil, "the page says how long it took")
    }
  }

  @Test(
    "a log whose strings hold '<!--<script>' still opens: the page's data cannot swallow its script", .enabled(if: HeadlessChromium.runs))
  func markupInStrings() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // The phone number, in the events and the context, as a user could type it.
    let log = try Self.edited(Self.phoneLoginLog, into: folder.appendingPathComponent("markup.jsonl").path) { lines in
      lines = lines.map { $0.replacingOccurrences(of: "13800138000", with: "<!--<script>1380") }
    }
    let page = folder.appendingPathComponent("markup.html").path
    let result = PackageFSM.run(["view", "phone-login", log, "-o", page])
    #expect(result.code == 0, "\(result.errorOutput)")
    let dom = try HeadlessChromium.dom("file://\(page)#step=1")
    #expect(HeadlessChromium.text(of: "position", in: dom)?.hasPrefix("step 1 of ") == true, "\(dom.prefix(2_000))")
    #expect(HeadlessChromium.text(of: "context", in: dom)?.contains("<!--<script>1380") == true)
  }

  @Test(
    "a system's log: one lane per child machine, each where its last line before the step left it, or started from the step that invoked it",
    .enabled(if: HeadlessChromium.runs))
  func systemLanes() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = Self.root.appendingPathComponent("Specs/upload-queue.session.jsonl").path
    let page = folder.appendingPathComponent("upload-queue.html").path
    #expect(PackageFSM.run(["view", "upload-queue", log, "-o", page]).code == 0)
    // Each child's last logged state before each root entry, from the log's own lines; a child
    // an entry invokes is started from that entry's step, and one that ended shows how.
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").dropFirst()
    var entries = 0
    var expected: [[String: String]] = [[:]]
    for line in lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      if let path = object["child"] as? String {
        expected[entries][path] = (object["ended"] as? String).map { "(\($0))" } ?? object["state"] as? String
      } else {
        for case let effect as [String: Any] in object["effects"] as? [Any] ?? [] {
          if let id = (effect["invoke"] as? [String: Any])?["id"] as? String { expected[entries][id] = "(started)" }
        }
        entries += 1
        expected.append(expected[entries - 1])
      }
    }
    // At step 1 the first two uploads are started, and neither has stepped yet: both are listed.
    #expect(expected[0] == ["a.jpg": "(started)", "flaky.png": "(started)"], "\(expected[0])")
    // At the end every upload has finished (done: uploaded, or failed for good), and says so.
    #expect(Set(expected[entries].values) == ["(finished)"], "\(expected[entries])")
    for step in [1, 2, 3, entries] {
      let dom = try HeadlessChromium.dom("file://\(page)#step=\(step)")
      var shown: [String: String] = [:]
      for row in dom.components(separatedBy: "<tr data-path=\"").dropFirst() {
        let path = String(row.prefix { $0 != "\"" })
        let cells = row.components(separatedBy: "<td>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        if cells.count > 1, cells[1] != "(not stepped)" { shown[path] = cells[1] }
      }
      #expect(shown == expected[step - 1], "step \(step)")
    }
  }

  @Test("a system's log whose child diverges: the page marks the root's step it came before, naming the child", .enabled(if: HeadlessChromium.runs))
  func childDivergence() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // The first child line (a.jpg's upload, logged after entry 1) says it failed instead.
    let original = Self.root.appendingPathComponent("Specs/upload-queue.session.jsonl").path
    let log = try Self.edited(original, into: folder.appendingPathComponent("upload-queue.jsonl").path) { lines in
      let first = try #require(lines.firstIndex { $0.hasPrefix(#"{"child":"a.jpg""#) })
      lines[first] = lines[first].replacingOccurrences(of: #""state":"sent""#, with: #""state":"failed""#)
    }
    let page = folder.appendingPathComponent("upload-queue.html").path
    let result = PackageFSM.run(["view", "upload-queue", log, "-o", page])
    #expect(result.output.hasSuffix("diverges at step 2 (child a.jpg)\n"), "\(result.output)\(result.errorOutput)")
    let dom = try HeadlessChromium.dom("file://\(page)#step=2")
    let box = try #require(dom.range(of: "id=\"divergence\"").map { String(dom[$0.lowerBound...].prefix(2000)) })
    #expect(box.contains("child a.jpg, step 1"))
    #expect(!box.hasPrefix("id=\"divergence\" hidden"))
  }

  @Test("bad input: the errors fsm replay gives, and no page written")
  func badInput() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let notALog = try Self.notALog(in: folder)
    let page = folder.appendingPathComponent("page.html").path
    for (machine, log) in [("phone-login", notALog), ("login", Self.phoneLoginLog), ("phone-login", folder.appendingPathComponent("missing.jsonl").path)] {
      let viewed = PackageFSM.run(["view", machine, log, "-o", page])
      let replayed = PackageFSM.run(["replay", machine, log])
      #expect(viewed.code == 2)
      #expect(viewed.errorOutput == replayed.errorOutput, "\(machine) \(log)")
      #expect(!FileManager.default.fileExists(atPath: page))
    }
    // A file the command did not write is not replaced unless named with -o.
    let log = folder.appendingPathComponent("session.jsonl").path
    try FileManager.default.copyItem(atPath: Self.phoneLoginLog, toPath: log)
    let foreign = folder.appendingPathComponent("session.html").path
    try "mine".write(toFile: foreign, atomically: true, encoding: .utf8)
    let refused = PackageFSM.run(["view", "phone-login", log])
    #expect(refused.code == 2)
    #expect(refused.errorOutput.contains("was not written by fsm view"))
    #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "mine")
    try FileManager.default.removeItem(atPath: foreign)
    #expect(PackageFSM.run(["view", "phone-login", log]).code == 0)
    #expect(PackageFSM.run(["view", "phone-login", log]).code == 0, "its own page is replaced")
    // A folder that does not exist: nothing is written, and the error names the page.
    let nowhere = folder.appendingPathComponent("no/such/folder/page.html").path
    let unwritable = PackageFSM.run(["view", "phone-login", log, "-o", nowhere])
    #expect(unwritable.code == 2)
    #expect(unwritable.errorOutput.contains("\(nowhere): cannot write the page"))
  }
}
