import Foundation
import StateMachine
import Synchronization
import Testing

/// One log for a system of three levels: a root chart, a chart child, and the child's table.
@Suite("Systems of machines: a nested system's one log, recorded and replayed")
struct SystemLogReplayTests {
  typealias Level = Chart<String, String, [String], Command<String, Never>>

  /// The job (a table) as a child that is done in `done`.
  static let job = ChildMachine<String>(SystemMachines.job, context: [], doneWhen: { $0 == "done" }, onDone: { _ in "jobDone" })

  /// A chart that invokes `child` as `job` while `waiting`, keeps what it hears, and is done
  /// (halts) on `jobDone`.
  static func level(_ name: String, child: ChildMachine<String>) throws -> Level {
    try Level(name: name, states: [
      .atomic("waiting", transitions: [
        .on("jobDone", to: "over", actions: [.update { heard, _ in heard.append("jobDone") }]),
      ], onEntry: [.effect(.invoke(child, id: "job"))]),
      .final("over"),
    ])
  }

  /// root → job (a chart, "group") → job/job (the table).
  static func system() throws -> Level {
    try level("root", child: ChildMachine(try level("group", child: job), context: [], onDone: { _ in "jobDone" }))
  }

  /// The recorded session: the grandchild paused, noted, resumed and completed by messages.
  static func recorded() async throws -> EventLog<ChartLogState<String>, String, [String], Command<String, Never>> {
    let store = try Store(try system(), context: [], clock: ManualClock(), handler: { _, _ in })
    let recorder = try store.record()
    store.start()
    #expect(store.children == ["job", "job/job"])
    for message in ["pause", "note", "resume", "complete"] { #expect(store.send(message, to: "job/job") == .accepted) }
    await store.settle()
    #expect(store.isHalted)
    await store.finish()
    return recorder.log
  }

  @Test("a grandchild's steps are lines of the root's log, by path, and the whole log replays identical")
  func nestedReplay() async throws {
    let log = try await Self.recorded()
    // Each child's end follows its steps: the table's (done) before the step of the group that
    // heard it, the group's (done, halted) last.
    #expect(log.childLines.map(\.path) == ["job/job", "job/job", "job/job", "job/job", "job/job", "job", "job"])
    #expect(log.childLines.map(\.sequence) == [1, 2, 3, 4, 0, 1, 0])
    #expect(log.childLines.map(\.ended) == [nil, nil, nil, nil, "finished", nil, "finished"])
    let report = try Self.system().replay(log)
    #expect(report.isIdentical, "\(report)")
    #expect(report.childSteps == 5)
  }

  @Test("a grandchild's step that differs names its path")
  func grandchildDivergence() async throws {
    var log = try await Self.recorded()
    let index = try #require(log.childLines.firstIndex { $0.path == "job/job" && $0.sequence == 2 })
    let line = log.childLines[index]
    log.childLines[index] = ChildLogLine(
      path: line.path, sequence: line.sequence, afterEntry: line.afterEntry, line: line.line,
      text: line.text.replacingOccurrences(of: #""context":["note"]"#, with: #""context":["nothing"]"#))
    let report = try Self.system().replay(log)
    #expect(report.divergences.map(\.machine) == ["job/job"])
    #expect(report.divergences.first?.differences.map(\.field) == ["context"])
  }

  @Test("a child whose types are not Codable is told to onError, naming it, and the root's entries are still recorded")
  func unrecordable() async throws {
    let errors = Mutex<[LogError]>([])
    // The parent context of the system tests is not Codable.
    let group = ChildMachine<String>(try SpawnTests.group(), context: .init(), onDone: { _ in "jobDone" })
    let store = try Store(try Self.level("root", child: group), context: [], clock: ManualClock(), handler: { _, _ in })
    let recorder = try store.record(onError: { error in errors.withLock { $0.append(error) } })
    store.start()
    #expect(store.send("complete", to: "job/job") == .accepted)
    await store.settle()
    await store.finish()
    let told = errors.withLock { $0 }
    #expect(told.contains { if case .unrecordable(let machine, let detail) = $0 { machine == "job" && detail.contains("not Encodable") } else { false } })
    // The table below it is Codable: its step is recorded; and every child's end, which needs
    // none of its types.
    #expect(recorder.log.childLines.map(\.path) == ["job/job", "job/job", "job"])
    #expect(recorder.log.childLines.map(\.ended) == [nil, "finished", "finished"])
    #expect(recorder.log.entries.count == store.stepCount)
  }

  @Test("a system's log cut in the middle of a child's line reads up to it, and names the torn line")
  func tornChildLine() async throws {
    let log = try await Self.recorded()
    let data = try log.encoded()
    // The log up to the group's step (before its end, the last child line), cut in the middle
    // of that line, without its newline: the writer died while writing it.
    let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).map { Data($0) }
    let group = lines.count - 4
    #expect(lines[group].starts(with: Data(#"{"child":"job","#.utf8)))
    let kept = lines[..<group].reduce(Data()) { $0 + $1 + [0x0A] }
    let torn = kept + lines[group].prefix(lines[group].count / 2)
    let read = EventLog<ChartLogState<String>, String, [String], Command<String, Never>>.read(torn)
    #expect(read.error == .tornTail(line: group + 1, bytes: lines[group].count / 2))
    #expect(read.log?.entries.isEmpty == true)
    #expect(read.log?.childLines.map(\.path) == ["job/job", "job/job", "job/job", "job/job", "job/job"])
    #expect(read.log?.childLines.last?.ended == "finished")
  }

  /// A chart child that, on "arm", sends itself "ring" in a second, and on "disarm" cancels it.
  static func alarm() throws -> Level {
    try Level(name: "alarm", states: [
      .atomic("set", transitions: [
        .on("arm", do: [.send("ring", after: .seconds(1), id: "ring")]),
        .on("disarm", do: [.cancel("ring")]),
      ])
    ])
  }

  struct Listed: Sendable, CustomTestStringConvertible {
    let label: String
    let version: Int
    /// The child's lines list its `.effect` outputs alone (as version 1 wrote them).
    let effectOutputsAlone: Bool
    /// The fields of the divergence found, at the child; none: identical.
    let diverges: [String]
    var testDescription: String { label }
  }

  @Test("a chart child's sends and cancels are among its line's effects; a log of version 1, which left them out, replays", arguments: [
    Listed(label: "version 2, as recorded", version: 2, effectOutputsAlone: false, diverges: []),
    Listed(label: "version 2, without them: a divergence at the child", version: 2, effectOutputsAlone: true, diverges: ["effects"]),
    Listed(label: "version 1 (0.1.0), without them", version: 1, effectOutputsAlone: true, diverges: []),
    Listed(label: "version 1, resumed by this version: with them", version: 1, effectOutputsAlone: false, diverges: []),
  ])
  func childCommandsByVersion(_ c: Listed) async throws {
    let root = try Self.level("root", child: ChildMachine(try Self.alarm(), context: []))
    let store = try Store(root, context: [], clock: ManualClock(), handler: { _, _ in })
    let recorder = try store.record()
    store.start()
    for message in ["arm", "disarm"] { #expect(store.send(message, to: "job") == .accepted) }
    await store.settle()
    await store.finish()
    var log = recorder.log
    #expect(log.header.version == 2)
    let (send, cancel) = (#"{"send":{"after":1,"event":"ring","id":"ring"}}"#, #"{"cancel":{"id":"ring"}}"#)
    #expect(log.childLines.map(\.text).filter { $0.contains(send) || $0.contains(cancel) }.count == 2, "\(log.childLines)")
    log.header.version = c.version
    if c.effectOutputsAlone {
      log.childLines = log.childLines.map { line in
        ChildLogLine(
          path: line.path, sequence: line.sequence, afterEntry: line.afterEntry, line: line.line,
          text: line.text.replacingOccurrences(of: send, with: "").replacingOccurrences(of: cancel, with: ""), ended: line.ended)
      }
    }
    let report = root.replay(log)
    // (A replay stops at its first divergence: the child's first step.)
    #expect(report.childSteps == (c.diverges.isEmpty ? 2 : 1))
    #expect(report.divergences.first?.machine == (c.diverges.isEmpty ? nil : "job"), "\(report)")
    #expect((report.divergences.first?.differences.map(\.field) ?? []) == c.diverges, "\(report)")
  }
}
