import Foundation
import StateMachine
import StateMachineExamples
import Synchronization
import Testing

/// A mutation fuzzer of what a system of machines reads back: the upload queue's log (the root's
/// entries and its children's lines) and its snapshot as JSON. A log gives its entries up to a
/// typed error naming the line, and what it gives replays to a report whose divergences name a
/// line; a snapshot decodes or not, and one that decodes restores the whole tree or throws a
/// `SystemSnapshotError`, and every child it reported started is reported ended.
/// `FSM_SYSTEM_FUZZ_COUNT` inputs of each kind (1,500 by default).
@Suite("Fuzzing systems: the upload queue's log and snapshot, mutated")
struct SystemFuzzTests {
  static let count = ProcessInfo.processInfo.environment["FSM_SYSTEM_FUZZ_COUNT"].flatMap(Int.init) ?? 1_500
  typealias Log = EventLog<ChartLogState<UploadQueue.State>, UploadQueue.Event, UploadQueue.Context, UploadQueue.Effect>
  typealias Snapshot = SystemSnapshot<ChartSnapshot<UploadQueue.State, UploadQueue.Context>>

  /// The queue of four files 12 s in, recorded.
  static func session() async throws -> (store: UploadQueue.Runtime, log: Log) {
    let clock = ManualClock()
    let store = UploadQueue.store(services: .fake(clock: clock), clock: clock)
    let recorder = try store.record()
    store.start()
    store.send(.add(["a.jpg", "flaky.png", "broken.gif", "d.mov"]))
    for _ in 1...2 { await clock.advance(by: .seconds(1)) }
    await store.settle()
    return (store, recorder.log)
  }

  @Test("mutated system logs: entries up to a typed error naming its line, replayed to a report whose divergences name theirs")
  func logs() async throws {
    let (store, log) = try await Self.session()
    await store.finish()
    let bytes = Array(try log.encoded())
    let lines = bytes.split(separator: 0x0A).count
    let pieces = [
      #"{"child":"a.jpg","#, #""sequence":"#, "-1", "99999999999999999999", #"""#, "}", "\n", "null", "[]",
      #"{"child":"zzz","sequence":1,"event":"x","state":"y","context":{}}"#, #""afterEntry":7"#,
    ].map { Array($0.utf8) }
    var generator = SplitMix64(seed: 0x5157)
    var (errors, diverged) = (0, 0)
    for _ in 0..<Self.count {
      let mutated = ChartFuzzTests.mutate(bytes, pieces: pieces, &generator)
      let read = Log.read(Data(mutated))
      if let error = read.error {
        errors += 1
        #expect(error.line >= 1 && error.line <= lines + 8, "\(error)")
      }
      guard let log = read.log else { continue }
      let report = UploadQueue.chart.replay(log, reportingAll: true)
      if !report.isIdentical { diverged += 1 }
      for divergence in report.divergences { #expect(divergence.line >= 1, "\(divergence)") }
    }
    // The mutations reach both: bad lines, and lines that read but differ.
    #expect(errors > 0 && diverged > 0)
  }

  /// How many effects a store reported started, and how many ended (finished, cancelled, failed).
  final class Tally: Sendable {
    let counts = Mutex((started: 0, ended: 0))
    func record(_ report: StoreReport<UploadQueue.Event, StoreStep<Chart<UploadQueue.State, UploadQueue.Event, UploadQueue.Context, UploadQueue.Effect>>>) {
      switch report {
      case .effectStarted: counts.withLock { $0.started += 1 }
      case .effectFinished, .effectCancelled, .effectFailed: counts.withLock { $0.ended += 1 }
      default: break
      }
    }
  }

  @Test("mutated system snapshots: the whole tree restored, or a typed error; every child reported started is reported ended")
  func snapshots() async throws {
    let (store, _) = try await Self.session()
    let bytes = Array(try JSONEncoder().encode(try store.systemSnapshot()))
    await store.finish()
    let pieces = [
      "-1", "1e300", "2", "0", "1", #"""#, "}", "{", "[", "]", "null", #""state""#, #""global""#, #""x""#,
      #""children":[{"id":"x","machine":"upload","scope":"state","owner":2,"snapshot":"{}","children":[]}],"#,
      #"{\"context\":{\"failures\":0,\"file\":\"x\",\"sent\":true},\"state\":\"sent\"}"#,
    ].map { Array($0.utf8) }
    var generator = SplitMix64(seed: 0x5A9)
    var (restored, refused) = (0, 0)
    for _ in 0..<Self.count {
      let mutated = ChartFuzzTests.mutate(bytes, pieces: pieces, &generator)
      guard let snapshot = try? JSONDecoder().decode(Snapshot.self, from: Data(mutated)) else { continue }
      let clock = ManualClock()
      let tally = Tally()
      do throws(SystemSnapshotError) {
        let store = try UploadQueue.Runtime(
          UploadQueue.chart(services: .fake(clock: clock)), restoring: snapshot,
          children: { child in child.machine == "upload" ? UploadQueue.upload(child.id, services: .fake(clock: clock)) : nil },
          clock: clock, handler: { _, _ in }, inspector: { tally.record($0) })
        restored += 1
        store.send(UploadQueue.Event.add(["e.txt"]))
        for _ in 1...3 { await clock.advance(by: .seconds(1)) }
        await store.finish()
      } catch {
        refused += 1
        #expect(!error.reason.isEmpty)
      }
      let counts = tally.counts.withLock { $0 }
      #expect(counts.started == counts.ended, "\(String(decoding: mutated, as: UTF8.self))")
    }
    #expect(restored > 0 && refused > 0)
  }
}
