import Foundation
import StateMachine
import Synchronization
import Testing

/// A store restores from a snapshot or a log, and a recorder attaches to a store in one line.
@Suite("Stores restore, resume a log, and record from where they are")
struct StoreResumeTests {
  static func temporaryLog(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("fsm-\(name)-\(UInt32.random(in: 0...UInt32.max)).jsonl").path
  }

  /// An upload store whose work reports progress, then finishes, on the clock.
  static func uploadStore(
    clock: ManualClock, _ make: (UpChart, @escaping Store<Chart<Up, UpEvent, UpContext, Command<UpEvent, UpWork>>>.Handler) throws -> Store<Chart<Up, UpEvent, UpContext, Command<UpEvent, UpWork>>>
  ) throws -> Store<Chart<Up, UpEvent, UpContext, Command<UpEvent, UpWork>>> {
    try make(try ChartStoreTests.upload()) { _, send in
      try await clock.sleep(for: .milliseconds(300))
      send(.progress(70))
      try await clock.sleep(for: .milliseconds(300))
      send(.finished)
    }
  }

  @Test("store.record(to:) before start records the whole session; the log starts at the store's snapshot and replays identically")
  func recordInOneLine() async throws {
    let (clock, path) = (ManualClock(), Self.temporaryLog("record"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try Self.uploadStore(clock: clock) { chart, handler in
      try Store(chart, context: UpContext(percent: 5), clock: clock, handler: handler)
    }
    let recorder = try store.record(to: path)
    store.start()
    store.send(.pick)
    await clock.advance(by: .seconds(2))
    store.send(.close)
    await store.finish()
    try recorder.close()

    let log = recorder.log
    #expect(log.header.state == ChartLogState(configuration: [.idle]))
    #expect(log.header.context == UpContext(percent: 5))
    #expect(log.entries.map(\.event) == [.pick, .progress(70), .finished, .beat, .beat, .close])
    #expect(log.entries.map(\.time) == [0, 0.3, 0.6, 1, 2, 2], "each entry carries its step's time on the store's clock")
    #expect(try store.chart.replay(logAt: path).isIdentical)
  }

  @Test("a log resumed into a new store continues where the first store stopped, and the whole log replays")
  func resumeAChartStore() async throws {
    let (clock, path) = (ManualClock(), Self.temporaryLog("resume"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let first = try Self.uploadStore(clock: clock) { chart, handler in
      try Store(chart, context: UpContext(), clock: clock, handler: handler)
    }
    let recorder = try first.record(to: path)
    first.start()
    first.send(.pick)
    await clock.advance(by: .milliseconds(400))  // progress 70, still uploading
    let where1 = first.snapshot
    await first.finish()
    try recorder.close()
    #expect(where1.configuration == [.uploading])

    let chart = try ChartStoreTests.upload()
    let resumed = try LogRecorder(resuming: path, chart: chart)
    #expect(resumed.count == 2)
    #expect(resumed.lastChartSnapshot() == where1)
    let second = try Store(chart, resuming: resumed, clock: clock) { _, _ in }
    #expect(second.snapshot == where1, "the store continues from the log's last state")
    #expect(second.runningEffectCount == 0, "restoring enters nothing: no entry content runs")
    second.send(.finished)
    second.send(.close)
    await second.finish()
    try resumed.close()

    let log = try #require(EventLog<ChartLogState<Up>, UpEvent, UpContext, Command<UpEvent, UpWork>>.read(contentsOf: path, for: chart).log)
    #expect(log.entries.map(\.event) == [.pick, .progress(70), .finished, .close])
    #expect(log.entries.map(\.sequence) == [1, 2, 3, 4])
    #expect(log.entries.last?.state.isHalted == true)
    #expect(try chart.replay(logAt: path).isIdentical)
  }

  struct RestoreCase: Sendable, CustomTestStringConvertible {
    let label: String
    let snapshot: ChartSnapshot<Up, UpContext>
    var testDescription: String { label }
  }

  static let impossible: [RestoreCase] = [
    RestoreCase(label: "two children of one compound", snapshot: ChartSnapshot(configuration: [.idle, .done], history: [:], context: UpContext())),
    RestoreCase(label: "an atomic state under a final one", snapshot: ChartSnapshot(configuration: [.idle, .closed], history: [:], context: UpContext())),
    RestoreCase(label: "no configuration (a chart not started)", snapshot: ChartSnapshot(configuration: [], history: [:], context: UpContext())),
    RestoreCase(label: "a compound as the configuration", snapshot: ChartSnapshot(configuration: [.session], history: [:], context: UpContext())),
    RestoreCase(label: "history of a chart without history states", snapshot: ChartSnapshot(configuration: [.idle], history: [.session: [.idle]], context: UpContext())),
  ]

  @Test("Store(restoring:) refuses a snapshot the chart cannot be in, with a typed error", arguments: impossible)
  func restoreRefusesImpossible(_ item: RestoreCase) throws {
    #expect(throws: ChartRestoreError.self) {
      _ = try Store(try ChartStoreTests.upload(), restoring: item.snapshot) { _, _ in }
    }
  }

  @Test("a store restored from a halted snapshot refuses events as halted; one restored mid-way steps on")
  func restoredStoreSteps() async throws {
    let chart = try ChartStoreTests.upload()
    let halted = try Store(chart, restoring: ChartSnapshot(configuration: [.closed], history: [:], context: UpContext(), isHalted: true)) { _, _ in }
    #expect(halted.isHalted)
    #expect(halted.send(.pick) == .rejected(.halted))
    await halted.finish()

    let ledger = ChartLedger()
    let store = try Store(
      chart, restoring: ChartSnapshot(configuration: [.done], history: [:], context: UpContext(percent: 100, beats: 3)),
      clock: ManualClock()
    ) { _, _ in } inspector: { ledger.record($0) }
    store.start()
    #expect(ledger.lines.isEmpty, "the heartbeat of `session` was not restarted: the snapshot holds no running effects")
    store.send(.pick)
    #expect(store.configuration == [.uploading])
    #expect(store.context.beats == 3)
    #expect(ledger.lines == ["start upload (in state)"])
    await store.finish()
  }

  @Test("record(to:) refuses an existing file (untouched), a second recorder, a finished store, and a store in the middle of a step")
  func recordRefusals() async throws {
    let clock = ManualClock()
    let path = Self.temporaryLog("exists")
    try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try Store(try ChartStoreTests.upload(), context: UpContext(), clock: clock) { _, _ in }
    #expect(throws: LogError.alreadyExists(path: path)) { try store.record(to: path) }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
    let recorder = try store.record()
    #expect(throws: LogError.self) { try store.record() }
    store.send(.pick)
    #expect(recorder.count == 1)
    await store.finish()
    #expect(throws: LogError.self) { try store.record() }

    // From inside a step: with a real clock, the handler starts on the thread that handles the event.
    let inStep = Guarded<LogError?>(nil)
    let box = Guarded<Store<Chart<Up, UpEvent, UpContext, Command<UpEvent, UpWork>>>?>(nil)
    let busy = try Store(try ChartStoreTests.upload(), context: UpContext(), clock: ContinuousClock()) { _, _ in
      do throws(LogError) { _ = try box.withLock { $0 }?.record() } catch { inStep.withLock { $0 = error } }
    }
    box.withLock { $0 = busy }
    busy.start()
    busy.send(.pick)
    await busy.settle()
    let refusal = try #require(inStep.withLock { $0 })
    #expect("\(refusal)".contains("handling an event"))
    await busy.finish()
    box.withLock { $0 = nil }
  }

  @Test("LogRecorder(resuming:chart:) refuses a log whose last state the chart cannot be in, and leaves the file as it was")
  func resumeRefusesImpossibleLastState() throws {
    let chart = try ChartStoreTests.upload()
    let path = Self.temporaryLog("bad-last")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var machine = ChartMachine(chart, context: UpContext())
    _ = try machine.start()
    let recorder = try LogRecorder(chart: chart, machine: machine, file: path)
    try recorder.record(.pick, step: try machine.send(.pick), machine: machine)
    try recorder.close()
    let good = try String(contentsOfFile: path, encoding: .utf8)
    let bad = good.replacingOccurrences(of: #"["uploading"]"#, with: #"["uploading","done"]"#)
    #expect(bad != good)
    try bad.write(toFile: path, atomically: false, encoding: .utf8)
    #expect {
      _ = try LogRecorder(resuming: path, chart: chart)
    } throws: { error in
      guard case .invalidValue(let line, let field, _)? = error as? LogError else { return false }
      return line == 2 && field == "state"
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == bad)
  }

  @Test("a table store resumed from its log has started: start() runs its state's entry effects no second time")
  func resumedTableStoreHasStarted() async throws {
    let path = Self.temporaryLog("table-start")
    defer { try? FileManager.default.removeItem(atPath: path) }
    typealias Rec = StoreRecordingTests
    let store = Store(Rec.table, context: 0, clock: ManualClock()) { _, _ in }
    let recorder = try store.record(to: path, durability: .onDemand)
    store.start()
    store.send(.start)  // into `waiting`, whose entry asks and sets a timer
    await store.finish()
    try recorder.close()

    let resumed = try LogRecorder(resuming: path, table: Rec.table)
    let started = Mutex<[String]>([])
    let again = try Store(
      Rec.table, resuming: resumed, clock: ManualClock(), handler: { _, _ in },
      inspector: { report in
        if case .effectStarted(_, let description) = report { started.withLock { $0.append(description) } }
      })
    again.start()
    #expect(again.state == .waiting)
    #expect(started.withLock { $0 } == [])
    #expect(again.runningEffectCount == 0)
    await again.finish()
    try resumed.close()
    let log = try #require(EventLog<Rec.S, Rec.E, Int, Command<Rec.E, Rec.W>>.read(contentsOf: path, for: Rec.table).log)
    #expect(log.entries.map(\.event) == [.start])
  }

  @Test("a table store records in one line and resumes from its log; many senders lose no step to batching")
  func tableStoreRecordsAndResumes() async throws {
    let path = Self.temporaryLog("table")
    defer { try? FileManager.default.removeItem(atPath: path) }
    typealias Rec = StoreRecordingTests
    let store = Store(Rec.table, context: 0) { _, _ in }
    let recorder = try store.record(to: path, durability: .onDemand)
    store.start()
    store.send(.start)
    await store.finish()
    try recorder.close()
    #expect(recorder.count == 1)

    let resumed = try LogRecorder(resuming: path, table: Rec.table)
    let again = try Store(Rec.table, resuming: resumed) { _, _ in }
    #expect(again.state == .waiting)
    #expect(again.context == 1)
    again.send(.timeout)
    again.send(.start)
    await again.finish()
    try resumed.close()
    let log = try #require(EventLog<Rec.S, Rec.E, Int, Command<Rec.E, Rec.W>>.read(contentsOf: path, for: Rec.table).log)
    #expect(log.entries.map(\.event) == [.start, .timeout, .start])
    #expect(Rec.table.replay(log).isIdentical)

    // Quiet steps (no effects, nobody listening) are batched; a recorder must still see each.
    let quiet = try TransitionTable<Rec.S, Rec.E, Int, Command<Rec.E, Rec.W>>(
      name: "quiet", initial: .idle, states: [.state(.idle)],
      rows: [.transition(from: .idle, on: .start, to: .idle).update { n, _ in n += 1 }])
    let busy = Store(quiet, context: 0) { _, _ in }
    let all = try busy.record()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 { group.addTask { for _ in 0..<2_000 { busy.send(.start) } } }
    }
    await busy.finish()
    #expect(busy.context == 8_000)
    #expect(all.count == 8_000)
    #expect(all.log.entries.map(\.context) == Array(1...8_000))
  }
}
