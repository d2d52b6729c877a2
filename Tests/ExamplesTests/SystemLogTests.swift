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

  @Test("a recorded system's log holds every child's steps, by path and in order, between the root's entries")
  func recordsChildren() async throws {
    let clock = ManualClock()
    let store = UploadQueue.store(services: .fake(clock: clock), clock: clock)
    let recorder = try store.record()
    await Self.runSession(store, clock: clock)
    await store.finish()
    let log = recorder.log
    let children = Set(log.childLines.map(\.path))
    #expect(children == ["a.jpg", "flaky.png", "broken.gif", "d.mov", "e.txt"])
    // Each child's own steps, numbered from 1 without a gap, in the order they were taken.
    for path in children {
      let sequences = log.childLines.filter { $0.path == path }.map(\.sequence)
      #expect(sequences == Array(1...sequences.count), "\(path)")
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
    let last = try #require(log.childLines.last { $0.path == "broken.gif" })
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
    // The root's replay passes the children's lines by.
    #expect(UploadQueue.chart.replay(log).isIdentical)
  }
}
