import Foundation
@testable import StateMachine
import StateMachineExamples
import Testing

/// A recorder never leaves a silent gap, and one that writes a file keeps no entries in memory.
@Suite("Log recorder: no silent gap, bounded memory")
struct RecorderGapTests {
  typealias Recorder = LogRecorder<CDPlayer.State, CDPlayer.Event, NoContext, CDPlayer.Action>

  /// Steps `machine` and records the step the way a store's inspector does: the step has
  /// already happened when it is recorded.
  static func stepAndRecord(_ recorder: Recorder, _ machine: inout Machine<CDPlayer.State, CDPlayer.Event, NoContext, CDPlayer.Action>, _ n: Int) -> Bool {
    let event = CDPlayer.benchmarkCycle[n % CDPlayer.benchmarkCycle.count]
    let outcome = machine.send(event)
    do {
      try recorder.record(event, outcome: outcome, state: machine.state, context: machine.context)
      return true
    } catch {
      return false
    }
  }

  @Test("a step that happened but could not be written stops the recording: later steps are refused, the file is a true prefix")
  func failedWriteStops() throws {
    let path = temporaryPath("gap")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fault = DiskFault()
    let recorder = try Recorder(
      table: CDPlayer.table, state: .empty, context: NoContext(), file: path, durability: .everyEntry, clock: nil, io: fault.io)
    var machine = Machine(CDPlayer.table)
    for n in 0..<3 { #expect(Self.stepAndRecord(recorder, &machine, n)) }
    fault.set(.full)
    #expect(!Self.stepAndRecord(recorder, &machine, 3), "the write failed")
    fault.set(.none)
    // The disk has room again, but the machine moved on without its step 4 on file.
    for n in 4..<8 { #expect(!Self.stepAndRecord(recorder, &machine, n), "step \(n + 1) must not be written after the gap") }
    let stopped = try #require(recorder.stoppedBy)
    #expect("\(stopped)".contains("recording stopped after entry 3"))
    #expect(recorder.count == 3)
    try recorder.close()
    try LogFileSafetyTests.expectReadable(path, entries: 3)
  }

  @Test("send(_:to:) leaves the machine as it was on a failed write, so the recording goes on once there is room")
  func failedSendGoesOn() throws {
    let path = temporaryPath("gap-send")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fault = DiskFault()
    let recorder = try Recorder(
      table: CDPlayer.table, state: .empty, context: NoContext(), file: path, durability: .everyEntry, clock: nil, io: fault.io)
    var machine = Machine(CDPlayer.table)
    try recorder.send(.openClose, to: &machine)
    fault.set(.full)
    #expect(throws: LogError.self) { try recorder.send(.openClose, to: &machine) }
    fault.set(.none)
    try recorder.send(.openClose, to: &machine)
    #expect(recorder.stoppedBy == nil)
    try recorder.close()
    try LogFileSafetyTests.expectReadable(path, entries: 2)
  }

  @Test("a recorder writing a file keeps no entries in memory; its log is read back from the file")
  func fileRecorderKeepsNoEntries() throws {
    let path = temporaryPath("bounded")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try Recorder(table: CDPlayer.table, state: .empty, context: NoContext(), file: path)
    var machine = Machine(CDPlayer.table)
    for n in 0..<500 { #expect(Self.stepAndRecord(recorder, &machine, n)) }
    #expect(recorder.recording.withLock { $0.log.entries.count } == 0, "entries stay on disk, not in memory")
    #expect(recorder.count == 500)
    #expect(recorder.lastSnapshot.state == machine.state)
    #expect(recorder.log.entries.count == 500)
    #expect(recorder.log.entries.last?.state == machine.state)
    try recorder.close()
  }

  @Test("a recorder without a file keeps every entry")
  func memoryRecorderKeepsEntries() throws {
    let recorder = try Recorder(table: CDPlayer.table, state: .empty, context: NoContext())
    var machine = Machine(CDPlayer.table)
    for n in 0..<20 { #expect(Self.stepAndRecord(recorder, &machine, n)) }
    #expect(recorder.log.entries.map(\.sequence) == Array(1...20))
  }
}
