import Foundation
import StateMachine
import StateMachineExamples
import Testing

@Suite("Systems of machines: one log for the whole system")
struct SystemLogTests {
  typealias Queue = Chart<UploadQueue.State, UploadQueue.Event, UploadQueue.Context, UploadQueue.Effect>

  /// The upload queue's session (the demo's): four files, one added on the way, 15 s.
  static func runSession(_ store: UploadQueue.Runtime, clock: ManualClock) async {
    store.start()
    store.send(.add(["a.jpg", "flaky.png", "broken.gif", "d.mov"]))
    for second in 1...15 {
      await clock.advance(by: .seconds(1))
      if second == 3 { store.send(.add(["e.txt"])) }
    }
    await store.settle()
  }

  @Test("a recorded system's log holds every child's steps, by path and in order, between the root's entries, and each child's end after its steps")
  func recordsChildren() async throws {
    let clock = ManualClock()
    let store = UploadQueue.store(services: .fake(clock: clock), clock: clock)
    let recorder = try store.record()
    await Self.runSession(store, clock: clock)
    await store.finish()
    let log = recorder.log
    let children = Set(log.childLines.map(\.path))
    #expect(children == ["a.jpg", "flaky.png", "broken.gif", "d.mov", "e.txt"])
    // Each child's own steps, numbered from 1 without a gap, in the order they were taken; then
    // its end, once: every upload is done (uploaded, or failed for good), so each finished.
    for path in children {
      let lines = log.childLines.filter { $0.path == path }
      let sequences = lines.filter { $0.ended == nil }.map(\.sequence)
      #expect(sequences == Array(1...sequences.count), "\(path)")
      #expect(lines.compactMap(\.ended) == ["finished"], "\(path)")
      #expect(lines.last?.ended == "finished", "\(path)")
      #expect(lines.last?.text == #"{"child":"\#(path)","ended":"finished"}"#, "\(path)")
    }
    // A child's lines come after the entry that started it.
    let firstEntryStarting = { (file: String) in
      log.entries.firstIndex { entry in entry.effects.contains { "\($0)".contains("invoke upload as \(file)") } }
    }
    for path in children {
      let first = try #require(log.childLines.first { $0.path == path })
      let started = try #require(firstEntryStarting(path))
      #expect(first.afterEntry > started, "\(path)")
    }
    // The broken file's last step, as its line says it.
    let last = try #require(log.childLines.last { $0.path == "broken.gif" && $0.ended == nil })
    #expect(last.text.hasPrefix(#"{"child":"broken.gif","context":"#))
    #expect(last.text.contains(#""event":"attemptFailed""#))
    #expect(last.text.contains(#""state":"failed""#))
  }

  @Test("a system's log file reads back whole: the root's entries, and its children's lines where they were")
  func fileReadsBack() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("system-log-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("session.jsonl").path
    let clock = ManualClock()
    let store = UploadQueue.store(services: .fake(clock: clock), clock: clock)
    try store.record(to: path)
    await Self.runSession(store, clock: clock)
    await store.finish()
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let read = EventLog<ChartLogState<UploadQueue.State>, UploadQueue.Event, UploadQueue.Context, UploadQueue.Effect>.read(data)
    #expect(read.error == nil)
    let log = try #require(read.log)
    #expect(log.entries.count == store.stepCount)
    #expect(Set(log.childLines.map(\.path)).count == 5)
    // Written again, the log is the same bytes: the children's lines stay where they were.
    #expect(try log.encoded() == data)
    // The log replays whole, the file as a stream too: every child stepped beside its lines.
    let report = UploadQueue.chart.replay(log)
    #expect(report.isIdentical)
    #expect(report.childSteps == log.childLines.filter { $0.ended == nil }.count)
    #expect(try UploadQueue.chart.replay(logAt: path) == report)
  }

  /// The recorded session's log, in memory.
  static func recordedLog() async throws -> Log {
    let clock = ManualClock()
    let store = UploadQueue.store(services: .fake(clock: clock), clock: clock)
    let recorder = try store.record()
    await runSession(store, clock: clock)
    await store.finish()
    return recorder.log
  }

  typealias Log = EventLog<ChartLogState<UploadQueue.State>, UploadQueue.Event, UploadQueue.Context, UploadQueue.Effect>

  /// `log` with its child line `index` changed by `change` (the rest of the line as it was).
  static func editing(_ log: Log, line index: Int, _ change: (String) -> String) -> Log {
    var edited = log
    let line = log.childLines[index]
    edited.childLines[index] = ChildLogLine(
      path: line.path, sequence: line.sequence, afterEntry: line.afterEntry, line: line.line, text: change(line.text), ended: line.ended)
    return edited
  }

  struct Tampering: CustomTestStringConvertible, Sendable {
    let label: String
    /// Which child line (by path and sequence) is changed, and how.
    let path: String
    let sequence: Int
    let change: @Sendable (String) -> String
    let field: String
    var testDescription: String { label }
  }

  @Test("a child's step that differs from the log is the first divergence, naming the child, its step and its line", arguments: [
    Tampering(label: "a logged state the child did not reach", path: "flaky.png", sequence: 2,
              change: { $0.replacingOccurrences(of: #""state":"sending""#, with: #""state":"sent""#) }, field: "state"),
    Tampering(label: "a logged context the child did not have", path: "broken.gif", sequence: 1,
              change: { $0.replacingOccurrences(of: #""failures":1"#, with: #""failures":7"#) }, field: "context"),
    Tampering(label: "a logged effect the child did not ask for", path: "a.jpg", sequence: 1,
              change: { $0.replacingOccurrences(of: #""effects":[]"#, with: #""effects":[{"cancel":"backoff"}]"#) }, field: "effects"),
  ])
  func childDivergence(_ tampering: Tampering) async throws {
    let recorded = try await Self.recordedLog()
    let index = try #require(recorded.childLines.firstIndex { $0.path == tampering.path && $0.sequence == tampering.sequence })
    let original = recorded.childLines[index]
    let log = Self.editing(recorded, line: index, tampering.change)
    #expect(log.childLines[index].text != original.text)
    let report = UploadQueue.chart.replay(log)
    let first = try #require(report.divergences.first)
    #expect(report.divergences.count == 1)
    #expect(first.machine == tampering.path)
    #expect(first.sequence == tampering.sequence)
    #expect(first.line == original.line)
    #expect(first.differences.map(\.field) == [tampering.field])
    #expect(first.description.hasPrefix("child \(tampering.path), step \(tampering.sequence) (line \(original.line)), event "))
  }

  @Test("the README's snippet names the diverging child and its line")
  func readmeSnippet() async throws {
    let recorded = try await Self.recordedLog()
    let index = try #require(recorded.childLines.firstIndex { $0.path == "broken.gif" && $0.sequence == 3 })
    let log = Self.editing(recorded, line: index) { $0.replacingOccurrences(of: #""failures":2"#, with: #""failures":5"#) }
    // As the README has it:
    let report = UploadQueue.chart.replay(log)   // a system's EventLog: entries and childLines
    if let first = report.divergences.first {
      print(first.machine ?? "the queue", first.line)   // "broken.gif", 17: the child and its line
    }
    #expect(report.divergences.first?.machine == "broken.gif")
    #expect(report.divergences.first?.line == 17)
  }

  @Test("a child's line that no replayed step started is a divergence")
  func unknownChild() async throws {
    var log = try await Self.recordedLog()
    let first = log.childLines[0]
    log.childLines[0] = ChildLogLine(
      path: "ghost.png", sequence: 1, afterEntry: first.afterEntry, line: first.line,
      text: first.text.replacingOccurrences(of: #""child":"\#(first.path)""#, with: #""child":"ghost.png""#))
    let report = UploadQueue.chart.replay(log, reportingAll: true)
    #expect(report.divergences.map(\.machine) == ["ghost.png"])
    #expect(report.divergences.first?.differences.first?.actual == "no child ghost.png was started")
  }

  @Test("with every divergence asked for, the replay goes on from what each child's line recorded")
  func allDivergences() async throws {
    var log = try await Self.recordedLog()
    for (index, line) in log.childLines.enumerated() where line.path == "broken.gif" && line.ended == nil {
      log = Self.editing(log, line: index) { $0.replacingOccurrences(of: #""outcome":"transitioned""#, with: #""outcome":"stayed""#) }
    }
    let report = UploadQueue.chart.replay(log, reportingAll: true)
    let broken = log.childLines.filter { $0.path == "broken.gif" && $0.ended == nil }.count
    #expect(report.divergences.count == broken)
    #expect(report.divergences.allSatisfy { $0.machine == "broken.gif" && $0.differences.map(\.field) == ["outcome"] })
  }
}
