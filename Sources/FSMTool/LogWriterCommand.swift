import FSMCommand
import Foundation
import StateMachine
import StateMachineExamples

/// `fsm __log-writer <path> <count> [batch]`: a helper for the crash test. Appends `count` CD
/// player steps to the log at `path` (resuming it when it exists) and prints `durable N` after
/// each append has returned, N the entries written to the file by then (with `batch`, the file
/// is ``LogFile/Durability/batched(_:)``: only whole batches are written). Not listed in the help.
package enum LogWriterCommand {
  package static func run(_ words: [String]) -> CommandResult {
    guard (2...3).contains(words.count), let count = Int(words[1]), words.count == 2 || Int(words[2]) != nil else {
      return .failure("usage: fsm __log-writer <path> <count> [batch]")
    }
    let path = words[0]
    let durability: LogFile.Durability = words.count == 3 ? .batched(Int(words[2])!) : .onDemand
    do throws(LogError) {
      let table = CDPlayer.table
      let recorder: LogRecorder<CDPlayer.State, CDPlayer.Event, NoContext, CDPlayer.Action>
      if FileManager.default.fileExists(atPath: path) {
        recorder = try LogRecorder(resuming: path, table: table, durability: durability)
        if let recovery = recorder.recovery, recovery.truncatedBytes > 0 {
          printToStandardError("recovered: kept \(recovery.lines) lines, cut a torn tail of \(recovery.truncatedBytes) bytes\n")
        }
      } else {
        recorder = try LogRecorder(table: table, state: table.initial, context: NoContext(), file: path, durability: durability)
      }
      let start = recorder.lastSnapshot
      guard var machine = try? Machine(table, state: start.state, context: start.context) else {
        return .failure("the log's last state is not in the table")
      }
      var sequence = recorder.count
      for _ in 0..<count {
        let event = CDPlayer.benchmarkCycle[sequence % CDPlayer.benchmarkCycle.count]
        try recorder.send(event, to: &machine)
        // (Unbuffered. Nobody reads it any more: the writer stops, its log closed.)
        guard (try? FileHandle.standardOutput.write(contentsOf: Data("durable \(sequence + 1 - recorder.unwrittenCount)\n".utf8))) != nil else {
          try recorder.close()
          return .failure("cannot write to standard output")
        }
        sequence += 1
      }
      try recorder.close()
      return .success("")
    } catch {
      return .failure(error.description)
    }
  }
}
