import FSMCommand
import FSMTool
import Foundation
import StateMachine
import Testing

/// `fsm view <machine>` without a log: a simulator page. Its space is the explorer's, its
/// buttons are the events handled where the path ends, and the path it exports is a log that
/// `fsm replay` replays identically.
@Suite("fsm view: a machine's simulator", .serialized)
struct ViewSimulatorTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    /// A shipped machine's name, or a file under the repository's root.
    let machine: String
    /// How many events the test clicks.
    let clicks: Int
    var testDescription: String { label }

    var argument: String { machine.contains(".") ? ViewCommandTests.root.appendingPathComponent(machine).path : machine }
  }

  static let cases: [Case] = [
    .init(label: "a table (login)", machine: "login", clicks: 5),
    .init(label: "a table with payloads and a countdown (captcha)", machine: "captcha", clicks: 6),
    .init(label: "a chart with parallel regions (phone-login)", machine: "phone-login", clicks: 6),
    .init(label: "a chart with history (radio)", machine: "radio", clicks: 5),
    .init(label: "a spec file, by names (login.md)", machine: "Specs/login.md", clicks: 4),
    .init(label: "an SCXML chart (player.scxml)", machine: "Specs/player.scxml", clicks: 5),
    .init(label: "a system of machines: a chart and its child tables (upload-queue)", machine: "upload-queue", clicks: 6),
  ]

  /// The buttons of a page's `#events`: each one's index, label, and whether it can be clicked.
  static func buttons(in dom: String) -> [(edge: Int, label: String, enabled: Bool)] {
    dom.components(separatedBy: "<button data-edge=\"").dropFirst().compactMap { rest in
      guard let edge = Int(rest.prefix { $0 != "\"" }), let open = rest.firstIndex(of: ">"),
        let close = rest.range(of: "</button>")
      else { return nil }
      let tag = rest[..<open]
      let label = String(rest[rest.index(after: open)..<close.lowerBound]).replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&amp;", with: "&")
      return (edge, label, !tag.contains("disabled"))
    }
  }

  /// The configurations `fsm explore` counts for `machine` up to `depth` events deep (a
  /// spec's: the states it reaches).
  static func explored(_ machine: String, depth: Int = 10000) throws -> Int {
    let report = PackageFSM.run(["explore", machine, "--depth", String(depth)]).output
    if let line = report.split(separator: "\n").first(where: { $0.hasPrefix("configurations: ") }) {
      return try #require(Int(line.dropFirst("configurations: ".count).prefix { $0.isNumber }))
    }
    let coverage = try #require(report.range(of: ", states "))
    return try #require(Int(report[coverage.upperBound...].prefix { $0.isNumber }))
  }

  @Test("clicking through the simulator gives a log fsm replay replays identically, ending where the page says", .enabled(if: HeadlessChromium.runs), arguments: cases)
  func clickedPathReplays(_ example: Case) throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("simulator.html").path
    let made = PackageFSM.run(["view", example.argument, "-o", page])
    #expect(made.code == 0, "\(made.errorOutput)")
    // The page's space is the explorer's.
    let count = try Self.explored(example.argument)
    #expect(made.output.hasSuffix(", \(count) configuration\(count == 1 ? "" : "s")\n"), "\(made.output)")
    var path: [Int] = []
    var labels: [String] = []
    var dom = try HeadlessChromium.dom("file://\(page)#path=")
    for click in 0..<example.clicks {
      let offered = Self.buttons(in: dom).filter(\.enabled)
      guard !offered.isEmpty else { break }
      // A spread of choices, the same on every run.
      let chosen = offered[(click * 5 + 3) % offered.count]
      path.append(chosen.edge)
      labels.append(chosen.label)
      dom = try HeadlessChromium.dom("file://\(page)#path=" + path.map(String.init).joined(separator: "."))
      #expect(HeadlessChromium.text(of: "position", in: dom) == "step \(path.count)")
      #expect(HeadlessChromium.text(of: "event", in: dom) == chosen.label)
    }
    #expect(path.count == example.clicks, "the machine offered events at every step")
    // The exported log replays identically, step for step: one entry per event clicked; for a
    // system, each input's steps (the root's entries, its children's lines), at least one each.
    let text = try #require(HeadlessChromium.text(of: "log", in: dom))
    let lines = text.split(separator: "\n").dropFirst()
    let childLines = lines.filter { $0.hasPrefix(#"{"child":"#) }.count
    let entries = lines.count - childLines
    let isSystem = example.machine == "upload-queue"
    if isSystem {
      #expect(lines.count >= path.count && childLines > 0, "\(text)")
    } else {
      #expect(entries == path.count && childLines == 0, "\(text)")
    }
    let log = folder.appendingPathComponent("clicked.jsonl").path
    try text.write(toFile: log, atomically: true, encoding: .utf8)
    let replayed = PackageFSM.run(["replay", example.argument, log])
    #expect(replayed.code == 0, "\(replayed.output)\(replayed.errorOutput)")
    let children = childLines > 0 ? " and \(childLines) child steps" : ""
    #expect(replayed.output.hasSuffix("replayed \(entries) entries\(children): identical\n"), "\(replayed.output)")
    // Viewed as a session, the log's last step is where the simulator's path ended (a system's:
    // where its root is, which the simulator shows before its children's places).
    let session = folder.appendingPathComponent("session.html").path
    #expect(PackageFSM.run(["view", example.argument, log, "-o", session]).code == 0)
    let viewed = try HeadlessChromium.dom("file://\(session)#step=\(entries)")
    let simulated = try #require(HeadlessChromium.text(of: "configuration", in: dom))
    let sessionConfiguration = try #require(HeadlessChromium.text(of: "configuration", in: viewed))
    #expect(simulated == sessionConfiguration || (isSystem && simulated.hasPrefix(sessionConfiguration + " [")), "\(simulated)")
    // (A spec's button names the guard it takes as holding; the log has the event's name. A
    // system's last input may be a message to a child, after the root's last entry.)
    let last = try #require(labels.last)
    if !isSystem {
      #expect(HeadlessChromium.text(of: "event", in: viewed) == (example.machine.hasSuffix(".md") ? String(last.prefix { $0 != " " }) : last))
    }
  }

  @Test(
    "a system's simulator numbers the root's entries from 1, and each child's steps from 1 in its own store, again when it is invoked anew",
    .enabled(if: HeadlessChromium.runs))
  func systemSequences() throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("upload-queue.html").path
    #expect(PackageFSM.run(["view", "upload-queue", "-o", page]).code == 0)
    // Upload a after a retry (the queue is then finished), then add it again: a second child a.
    var path: [Int] = []
    var dom = try HeadlessChromium.dom("file://\(page)#path=")
    for label in ["add(a)", "attemptFailed to a", "retryNow to a", "succeeded to a", "add(a)", "attemptFailed to a"] {
      let button = try #require(Self.buttons(in: dom).first { $0.label == label && $0.enabled }, "\(label) is offered after \(path)")
      path.append(button.edge)
      dom = try HeadlessChromium.dom("file://\(page)#path=" + path.map(String.init).joined(separator: "."))
    }
    #expect(HeadlessChromium.text(of: "configuration", in: dom) == "uploading [a: waiting]")
    let text = try #require(HeadlessChromium.text(of: "log", in: dom))
    var entries: [Int] = []
    var childSteps: [Int] = []
    var ends: [String] = []
    for line in text.split(separator: "\n").dropFirst() {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      // The first child a's end (done, uploaded), which has no number, between its steps and the second's.
      if let ended = object["ended"] as? String {
        #expect(object["child"] as? String == "a" && childSteps == [1, 2, 3], "\(line)")
        ends.append(ended)
        continue
      }
      let sequence = try #require(object["sequence"] as? Int)
      if object["child"] as? String == "a" { childSteps.append(sequence) } else { entries.append(sequence) }
    }
    #expect(entries == Array(1...entries.count))
    #expect(childSteps == [1, 2, 3, 1])
    #expect(ends == ["finished"])
    let log = folder.appendingPathComponent("again.jsonl").path
    try text.write(toFile: log, atomically: true, encoding: .utf8)
    let replayed = PackageFSM.run(["replay", "upload-queue", log])
    #expect(replayed.output.hasSuffix("replayed \(entries.count) entries and 4 child steps: identical\n"), "\(replayed.output)")
  }

  @Test("the explored graph: each configuration is drawn and listed, and #node=K goes there by a shortest path", .enabled(if: HeadlessChromium.runs))
  func exploredGraph() throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("login.html").path
    #expect(PackageFSM.run(["view", "login", "-o", page]).code == 0)
    let count = try Self.explored("login")
    let dom = try HeadlessChromium.dom("file://\(page)")
    // Drawn: one Graphviz node per configuration; listed: one item each.
    #expect(dom.components(separatedBy: "<g id=\"node").count - 1 == count + Self.drawnStates(in: dom), "\(count) configurations drawn")
    let listed = dom.components(separatedBy: "<li data-node=\"").dropFirst().map { String($0.prefix { $0 != "<" }) }
    #expect(listed.count == count)
    // Going to the last configuration found: the path is as short as the search found it, and
    // its log replays to it.
    let last = count - 1
    let there = try HeadlessChromium.dom("file://\(page)#node=\(last)")
    let shown = try #require(listed.last?.split(separator: ">", maxSplits: 1).last.map(String.init))
    #expect(HeadlessChromium.text(of: "configuration", in: there) == shown)
    let text = try #require(HeadlessChromium.text(of: "log", in: there))
    let steps = text.split(separator: "\n").count - 1
    #expect(steps > 0)
    #expect(HeadlessChromium.text(of: "position", in: there) == "step \(steps)")
    let item = try #require(there.range(of: "<li data-node=\"\(last)\"").map { there[$0.lowerBound...].prefix { $0 != ">" } })
    #expect(item.contains("class=\"selected\""), "the list marks where the path ends")
    let log = folder.appendingPathComponent("there.jsonl").path
    try text.write(toFile: log, atomically: true, encoding: .utf8)
    #expect(PackageFSM.run(["replay", "login", log]).output.hasSuffix("replayed \(steps) entries: identical\n"))
    // No shorter path reaches it: a search one event less deep does not find every configuration.
    #expect(try Self.explored("login", depth: steps - 1) < count)
  }

  /// The nodes of the machine's own drawing on a page (the explored graph's are the rest).
  static func drawnStates(in dom: String) -> Int {
    guard let diagram = dom.range(of: "<section id=\"diagram\">"), let end = dom.range(of: "</section>", range: diagram.upperBound..<dom.endIndex) else { return 0 }
    return dom[diagram.upperBound..<end.lowerBound].components(separatedBy: "<g id=\"node").count - 1
  }

  @Test("a limit cuts the space, and the events that go past it cannot be clicked", .enabled(if: HeadlessChromium.runs))
  func limit() throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("captcha.html").path
    let made = PackageFSM.run(["view", "captcha", "-o", page, "--limit", "3"])
    #expect(made.output.hasSuffix("simulator of captcha, 3 configurations (limit reached)\n"), "\(made.output)\(made.errorOutput)")
    var seen = Set<Bool>()
    for path in ["", "0", "0.0"] {
      let dom = try HeadlessChromium.dom("file://\(page)#path=\(path)")
      seen.formUnion(Self.buttons(in: dom).map(\.enabled))
    }
    #expect(seen == [true, false], "some events go to the 3 configurations, some past them")
  }

  @Test("a chart whose names hold markup ('<!--<script>', '</svg></div>') is simulated as any other", .enabled(if: HeadlessChromium.runs))
  func markupInNames() throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let chart = folder.appendingPathComponent("markup.scxml")
    try Data(
      """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a&lt;!--&lt;script&gt;" name="markup">
        <state id="a&lt;!--&lt;script&gt;"><transition event="go" target="b&lt;/svg&gt;&lt;/div&gt;"/></state>
        <state id="b&lt;/svg&gt;&lt;/div&gt;"><transition event="back" target="a&lt;!--&lt;script&gt;"/></state>
      </scxml>
      """.utf8
    ).write(to: chart)
    let page = folder.appendingPathComponent("markup.html").path
    #expect(PackageFSM.run(["view", chart.path, "-o", page]).code == 0)
    let dom = try HeadlessChromium.dom("file://\(page)#path=0")
    #expect(HeadlessChromium.text(of: "position", in: dom) == "step 1", "\(dom.prefix(2_000))")
    #expect(HeadlessChromium.text(of: "configuration", in: dom) == "b</svg></div>")
  }

  /// A tally: a root table that counts ticks in a child table `c` while it is counting. Its
  /// child's context is `Count`: one that is not `Codable` (the simulator cannot write its
  /// steps), or one that is.
  enum Tally {
    enum State: String, Hashable, Sendable, Codable, Discriminated { case idle, counting }
    enum Event: String, Hashable, Sendable, Codable, CaseIterable, Discriminated { case go, tick }
    typealias Effect = Command<Event, Never>
    struct Count: Hashable, Sendable, TallyCount { var ticks = 0 }
    struct CodableCount: Hashable, Sendable, Codable, TallyCount { var ticks = 0 }

    /// The child: counts ticks in its context.
    static func counter<C: TallyCount>(counting _: C.Type) -> TransitionTable<State, Event, C, Effect> {
      try! TransitionTable<State, Event, C, Effect>(
        name: "counter", initial: .counting, rows: [.stay(in: .counting, on: .tick).update { count, _ in count.ticks += 1 }], policy: .ignore)
    }

    static func root<C: TallyCount>(counting count: C.Type) -> TransitionTable<State, Event, NoContext, Effect> {
      let counter = counter(counting: count)
      return try! TransitionTable<State, Event, NoContext, Effect>(
        name: "tally", initial: .idle,
        states: [.state(.idle), .state(.counting, entry: [.invoke(ChildMachine<Event>(counter, context: C()), id: "c")])],
        rows: [.transition(from: .idle, on: .go, to: .counting)], policy: .ignore)
    }

    /// `root`'s model as a system, and a catalog that gives it by `explored(_:)`.
    static func catalog<C: TallyCount>(counting count: C.Type) -> Catalog {
      let root = root(counting: count)
      let model = MachineModel(MachineSystem(table: root), context: NoContext(), alphabet: [.root(.go), .message(Event.tick, to: "c")], invariants: [])
      return Catalog(machines: [MachineDescription(root, summary: "a tally")], models: [.explored(model)])
    }
  }

  @Test("a system whose child's steps cannot be written (a context that is not Codable) is refused, naming the child")
  func unrecordableSystem() throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("tally.html").path
    let catalog = Tally.catalog(counting: Tally.Count.self)
    #expect(FSM.run(["explore", "tally", "--depth", "3"], catalog: catalog).output.contains("configurations: 4 (depth 3)"))
    let refused = FSM.run(["view", "tally", "-o", page], catalog: catalog)
    #expect(refused.code == 2)
    #expect(refused.errorOutput.contains("tally cannot be simulated: child c: its context type Count is not Encodable"), "\(refused.errorOutput)")
    #expect(!FileManager.default.fileExists(atPath: page))
  }

  @Test("a system whose root is a table is simulated as one whose root is a chart: its clicked log replays, child steps and all", .enabled(if: HeadlessChromium.runs))
  func tableRootedSystem() throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("tally.html").path
    let catalog = Tally.catalog(counting: Tally.CodableCount.self)
    let made = FSM.run(["view", "tally", "-o", page, "--limit", "5"], catalog: catalog)
    #expect(made.output.hasSuffix("simulator of tally, 5 configurations (limit reached)\n"), "\(made.output)\(made.errorOutput)")
    // go, then tick to c twice.
    let dom = try HeadlessChromium.dom("file://\(page)#path=0.0.0")
    #expect(HeadlessChromium.text(of: "configuration", in: dom) == "counting [c: counting]")
    let text = try #require(HeadlessChromium.text(of: "log", in: dom))
    #expect(text.split(separator: "\n").count == 4, "\(text)")
    let log = folder.appendingPathComponent("tally.jsonl").path
    try text.write(toFile: log, atomically: true, encoding: .utf8)
    let replayed = FSM.run(["replay", "tally", log], catalog: catalog)
    #expect(replayed.output.hasSuffix("replayed 1 entries and 2 child steps: identical\n"), "\(replayed.output)\(replayed.errorOutput)")
  }

  @Test("bad input: no model, a bad limit, a page not ours; nothing written")
  func badInput() throws {
    let folder = try ViewCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("page.html").path
    let listedOnly = Catalog(machines: [MachineDescription(Door.table, summary: "a door with a lock")])
    let noModel = FSM.run(["view", "door", "-o", page], catalog: listedOnly)
    #expect(noModel.code == 2)
    #expect(noModel.errorOutput.contains("has no model to simulate"))
    // A model whose types are not all `Codable` (here the counter's context) can be explored,
    // but not simulated, however it is given.
    let counter = Tally.counter(counting: Tally.Count.self)
    let model = MachineModel(counter, context: Tally.Count(), alphabet: Tally.Event.allCases, invariants: [])
    for given in [Catalog.Model.table(model), .explored(model)] {
      let notCodable = FSM.run(["view", "counter", "-o", page], catalog: Catalog(machines: [MachineDescription(counter, summary: "a counter")], models: [given]))
      #expect(notCodable.code == 2)
      #expect(notCodable.errorOutput.contains("machine 'counter' cannot be simulated"), "\(notCodable.errorOutput)")
      #expect(notCodable.errorOutput.contains("explores its model"), "\(notCodable.errorOutput)")
    }
    // The same table with a `Codable` context is simulated when given by `explored(_:)` as
    // by `table(_:)`: one entry point finds what the simulator can step.
    let codable = Tally.counter(counting: Tally.CodableCount.self)
    let codableModel = MachineModel(codable, context: Tally.CodableCount(), alphabet: Tally.Event.allCases, invariants: [])
    for given in [Catalog.Model.table(codableModel), .explored(codableModel)] {
      let simulated = FSM.run(["view", "counter", "-o", page], catalog: Catalog(machines: [MachineDescription(codable, summary: "a counter")], models: [given]))
      #expect(simulated.code == 0, "\(simulated.errorOutput)")
      #expect(FileManager.default.fileExists(atPath: page))
      try FileManager.default.removeItem(atPath: page)
    }
    for limit in ["0", "-3", "many"] {
      let bad = PackageFSM.run(["view", "login", "-o", page, "--limit", limit])
      #expect(bad.code == 2)
      #expect(bad.errorOutput.contains("--limit expects a positive number"))
    }
    #expect(PackageFSM.run(["view", "login", ViewCommandTests.phoneLoginLog, "--limit", "5"]).code == 2)
    #expect(!FileManager.default.fileExists(atPath: page))
    let unknown = PackageFSM.run(["view", "no-such-machine"])
    #expect(unknown.code == 2)
    #expect(unknown.errorOutput.contains("unknown machine 'no-such-machine'"))
  }
}

/// A tally child's context (see ``ViewSimulatorTests/Tally``).
protocol TallyCount: Hashable, Sendable {
  var ticks: Int { get set }
  init()
}
