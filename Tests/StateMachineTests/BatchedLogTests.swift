import Foundation
@testable import StateMachine
import StateMachineExamples
import Testing

/// A batched log file writes its lines a batch at a time: nothing reaches the file between
/// batches, sync and close write what is held, and a failed write loses only its batch, says
/// so, and stops the recorder (the steps it held had already happened).
@Suite("Log files: batched writes")
struct BatchedLogTests {
  typealias Recorder = LogRecorder<CDPlayer.State, CDPlayer.Event, NoContext, CDPlayer.Action>

  static func lines(_ path: String) -> Int {
    (contents(path) ?? Data()).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
  }

  @Test("lines reach the file a batch at a time; sync writes a partial batch; close writes the rest")
  func batches() throws {
    let path = temporaryPath("batched")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try Recorder(table: CDPlayer.table, state: .empty, context: NoContext(), file: path, durability: .batched(4))
    var machine = Machine(CDPlayer.table)
    try LogFileSafetyTests.record(recorder, &machine, count: 3)
    #expect(Self.lines(path) == 1, "only the header: three entries wait for the batch")
    #expect(recorder.unwrittenCount == 3)
    try LogFileSafetyTests.record(recorder, &machine, count: 1)
    #expect(Self.lines(path) == 5, "the fourth entry wrote the batch")
    #expect(recorder.unwrittenCount == 0)
    try LogFileSafetyTests.record(recorder, &machine, count: 2)
    #expect(recorder.log.entries.count == 6, "reading the log back writes what is held first")
    try LogFileSafetyTests.record(recorder, &machine, count: 1)
    try recorder.close()
    try LogFileSafetyTests.expectReadable(path, entries: 7)
  }

  @Test("a batch whose write fails is lost whole, the file ends at its last complete line, and the recorder stops")
  func failedBatch() throws {
    let path = temporaryPath("batched-fault")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fault = DiskFault()
    let recorder = try Recorder(
      table: CDPlayer.table, state: .empty, context: NoContext(), file: path, durability: .batched(3), clock: nil, io: fault.io)
    var machine = Machine(CDPlayer.table)
    try LogFileSafetyTests.record(recorder, &machine, count: 3)
    let before = try #require(contents(path))
    try LogFileSafetyTests.record(recorder, &machine, count: 2)
    fault.set(.shortWriteThenFull)
    do {
      try LogFileSafetyTests.record(recorder, &machine, count: 1)
      Issue.record("the batch's write should have failed")
    } catch {
      #expect("\(error)".contains("the 3 lines of the batch are not in the log"), "\(error)")
    }
    fault.set(.none)
    #expect(contents(path) == before, "the half-written batch left nothing behind")
    #expect(recorder.count == 3, "the entries of the lost batch are not counted")
    let stopped = try #require(recorder.stoppedBy)
    #expect(stopped.description.contains("entries 4–6 could not be written"), "\(stopped)")
    #expect(throws: LogError.self) { try LogFileSafetyTests.record(recorder, &machine, count: 1) }
    try recorder.close()
    try LogFileSafetyTests.expectReadable(path, entries: 3)
  }
}
