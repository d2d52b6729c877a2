import Foundation
import StateMachine
import Testing

/// An upload flow as a chart: the upload belongs to `uploading`, progress updates the context
/// without leaving it, a heartbeat belongs to the compound `session`.
enum Up: String, Hashable, Sendable, Codable { case session, idle, uploading, done, closed }

enum UpEvent: Sendable, Equatable, Codable, Discriminated {
  case pick, progress(Int), finished, cancel, beat, close, again, ping
  enum Kind: UInt8, Hashable, Sendable { case pick, progress, finished, cancel, beat, close, again, ping }
  var discriminant: Kind {
    switch self {
    case .pick: .pick
    case .progress: .progress
    case .finished: .finished
    case .cancel: .cancel
    case .beat: .beat
    case .close: .close
    case .again: .again
    case .ping: .ping
    }
  }
}

enum UpWork: Sendable, Equatable, Codable, CustomStringConvertible {
  case upload
  var description: String { "upload" }
}

struct UpContext: Sendable, Equatable, Codable {
  var percent = 0
  var beats = 0
}

typealias UpChart = Chart<Up, UpEvent, UpContext, Command<UpEvent, UpWork>>

/// Every start and end the inspector saw, in order.
final class ChartLedger: Sendable {
  private let entries = Guarded<[String]>([])
  private let handled = Guarded<[(UpEvent, [Up])]>([])

  /// The events the store stepped, in order, with the configuration each left.
  var steps: [(UpEvent, [Up])] { handled.withLock { $0 } }

  func record(_ event: StoreReport<UpEvent, StoreStep<Chart<Up, UpEvent, UpContext, Command<UpEvent, UpWork>>>>) {
    if case .step(let step) = event { handled.withLock { $0.append((step.event, step.to)) } }
    let line: String? =
      switch event {
      case .effectStarted(_, let d): "start \(d)"
      case .effectFinished(_, let d): "finished \(d)"
      case .effectCancelled(_, let d): "cancelled \(d)"
      case .effectFailed(let d, _, _): "failed \(d)"
      case .lateEventDropped(let e, _): "late \(e)"
      case .eventRejected(let e, let r): "rejected \(e): \(r)"
      case .queuedEventDropped(let e): "dropped \(e)"
      case .childStep(let step): "child \(step)"
      case .step: nil
      }
    if let line { entries.withLock { $0.append(line) } }
  }

  var lines: [String] { entries.withLock { $0 } }
}

@Suite("ChartStore: effects live as long as the state they belong to")
struct ChartStoreTests {
  static func upload() throws -> UpChart {
    try UpChart(name: "upload", states: [
      .compound(.session, children: [
        .atomic(.idle, transitions: [.on(.pick, to: .uploading)]),
        .atomic(.uploading, transitions: [
          .on(.progress, do: [.update { context, event in if case .progress(let p)? = event { context.percent = p } }]),
          .on(.finished, to: .done),
          .on(.cancel, to: .idle),
          .on(.again, to: .uploading),
        ], onEntry: [.effect(.perform(.upload, id: "upload", scope: .state))]),
        .atomic(.done, transitions: [.on(.pick, to: .uploading)]),
      ], transitions: [
        .on(.beat, do: [.update { context, _ in context.beats += 1 }]),
        .on(.close, to: .closed),
      ], onEntry: [.effect(.every(.seconds(1), send: .beat, id: "heartbeat", scope: .state))]),
      .final(.closed),
    ])
  }

  /// A store whose upload never returns on its own (it sleeps on the clock until cancelled).
  static func store(clock: ManualClock, ledger: ChartLedger) throws -> Store<Chart<Up, UpEvent, UpContext, Command<UpEvent, UpWork>>> {
    try Store(try upload(), context: UpContext(), clock: clock) { _, _ in
      try await clock.sleep(for: .seconds(3600))
    } inspector: { ledger.record($0) }
  }

  @Test("a targetless transition updates the context and leaves the upload running")
  func progressKeepsTheUpload() async throws {
    let (clock, ledger) = (ManualClock(), ChartLedger())
    let store = try Self.store(clock: clock, ledger: ledger)
    store.start()
    store.send(.pick)
    store.send(.progress(10))
    store.send(.progress(60))
    await store.settle()
    #expect(store.configuration == [.uploading])
    #expect(store.context.percent == 60)
    #expect(ledger.lines == ["start every 1 s: beat (in state)", "start upload (in state)"])
    store.send(.cancel)
    await store.settle()
    #expect(ledger.lines.last == "cancelled upload (in state)")
    await store.finish()
  }

  @Test("a timer on a compound state survives moves between its children, and ends when it is left")
  func compoundTimer() async throws {
    let (clock, ledger) = (ManualClock(), ChartLedger())
    let store = try Self.store(clock: clock, ledger: ledger)
    store.start()
    for event in [UpEvent.pick, .finished, .pick, .cancel] {
      store.send(event)
      await clock.advance(by: .seconds(1))
    }
    #expect(store.context.beats == 4, "one beat a second across idle → uploading → done → uploading → idle")
    #expect(!ledger.lines.contains("cancelled every 1 s: beat (in state)"))
    store.send(.close)
    await store.settle()
    #expect(store.isHalted)
    #expect(ledger.lines.last == "cancelled every 1 s: beat (in state)")
    await clock.advance(by: .seconds(5))
    #expect(store.context.beats == 4)
    await store.finish()
  }

  @Test("an external self-transition restarts the state's effects; a halted chart refuses events")
  func restartAndHalt() async throws {
    let (clock, ledger) = (ManualClock(), ChartLedger())
    let store = try Self.store(clock: clock, ledger: ledger)
    store.start()
    store.send(.pick)
    store.send(.again)
    await store.settle()
    #expect(ledger.lines == [
      "start every 1 s: beat (in state)", "start upload (in state)", "cancelled upload (in state)", "start upload (in state)",
    ])
    store.send(.close)
    await store.settle()
    #expect(store.configuration == [.closed])
    #expect(store.send(.pick) == .rejected(.halted))
    #expect(store.runningEffectCount == 0)
    #expect(ledger.lines.suffix(3) == ["cancelled every 1 s: beat (in state)", "cancelled upload (in state)", "rejected pick: the chart has halted (it reached a final state)"])
    await store.finish()
  }

  @Test("steps report configurations; states yields them")
  func observation() async throws {
    let store = try Self.store(clock: ManualClock(), ledger: ChartLedger())
    let steps = Guarded<[String]>([])
    let observed = Task {
      var seen: [[Up]] = []
      for await configuration in store.states {
        seen.append(configuration)
        if seen.count == 3 { break }
      }
      return seen
    }
    let storeSteps = store.steps
    let collected = Task {
      for await step in storeSteps { steps.withLock { $0.append("\(step.sequence) \(step.event): \(step.from) → \(step.to) \(step.outcome)") } }
    }
    try await Task.sleep(for: .milliseconds(50))
    store.send(.pick)
    store.send(.progress(5))
    store.send(.finished)
    #expect(await observed.value == [[.idle], [.uploading], [.done]])
    await store.finish()
    await collected.value
    #expect(steps.withLock { $0 } == [
      "1 pick: [StoreTests.Up.idle] → [StoreTests.Up.uploading] transitioned",
      "2 progress(5): [StoreTests.Up.uploading] → [StoreTests.Up.uploading] transitioned",
      "3 finished: [StoreTests.Up.uploading] → [StoreTests.Up.done] transitioned",
    ])
  }
}

@Suite("ChartStore: random sessions")
struct ChartStoreRandomTests {
  @Test("every started effect ends exactly once; the store follows the bare machine", arguments: [1, 2, 3, 4] as [UInt64])
  func randomSessions(seed: UInt64) async throws {
    var random = SplitMix64(seed: seed)
    let events: [UpEvent] = [.pick, .progress(1), .finished, .cancel, .beat, .again, .ping]
    let (clock, ledger) = (ManualClock(), ChartLedger())
    let store = try Store(try ChartStoreTests.upload(), context: UpContext(), clock: clock) { _, send in
      try await clock.sleep(for: .milliseconds(700))
      send(.progress(50))
      try await clock.sleep(for: .milliseconds(700))
      send(.finished)
    } inspector: { ledger.record($0) }
    var machine = ChartMachine(try ChartStoreTests.upload(), context: UpContext())
    _ = try machine.start()
    store.start()
    for _ in 0..<300 {
      if random.next() % 4 == 0 {
        await clock.advance(by: .milliseconds(Int(random.next() % 1500)))
        continue
      }
      let event = events[Int(random.next() % UInt64(events.count))]
      store.send(event)
      await store.settle()
    }
    if seed % 2 == 0 { store.send(.close) }
    await store.finish()
    // The store's steps, replayed on a bare machine, reach the same configurations.
    #expect(ledger.steps.count == store.stepCount)
    for (event, configuration) in ledger.steps {
      _ = try machine.send(event)
      #expect(machine.configuration == configuration, "after \(event)")
    }
    #expect(machine.context == store.context)
    #expect(ledger.lines.filter { $0 == "start upload (in state)" }.count > 5, "the session ran uploads")
    #expect(ledger.lines.contains("cancelled upload (in state)") && ledger.lines.contains("finished upload (in state)"))
    var open: [String: Int] = [:]
    for line in ledger.lines {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      switch parts[0] {
      case "start": open[parts[1], default: 0] += 1
      case "finished", "cancelled", "failed": open[parts[1], default: 0] -= 1
      default: break
      }
      #expect(open[parts[1], default: 0] >= 0, "\(line): ended more often than started")
    }
    #expect(open.values.allSatisfy { $0 == 0 }, "every start ends once: \(open)")
  }
}

/// An uploader whose upload reports 40 % and then waits (on the clock) until cancelled.
struct FakeUploader: Sendable {
  let clock: ManualClock
  func upload(progress: @Sendable (Int) -> Void) async throws {
    progress(40)
    try await clock.sleep(for: .seconds(3600))
  }
}

@Test("README: the ChartStore example runs as the README says")
func readmeChartStoreExample() async throws {
  let clock = ManualClock()
  let uploader = FakeUploader(clock: clock)
  // The README's code, as written there:
  let upload = try Chart<Up, UpEvent, UpContext, Command<UpEvent, UpWork>>(name: "upload", states: [
      .compound(.session, children: [
          .atomic(.idle, transitions: [.on(.pick, to: .uploading)]),
          .atomic(.uploading, transitions: [
              .on(.progress, do: [.update { context, event in if case .progress(let p)? = event { context.percent = p } }]),
              .on(.finished, to: .done),
              .on(.cancel, to: .idle),
          ], onEntry: [.effect(.perform(.upload, id: "upload", scope: .state))]),
          .atomic(.done, transitions: [.on(.pick, to: .uploading)]),
      ], transitions: [.on(.beat, do: [.update { context, _ in context.beats += 1 }])],
         onEntry: [.effect(.every(.seconds(1), send: .beat, id: "heartbeat", scope: .state))]),
  ])
  let store = try Store(upload, context: UpContext(), clock: clock) { work, send in
      try await uploader.upload(progress: { send(.progress($0)) })
      send(.finished)
  }
  store.start()                // the heartbeat starts with `session`
  #expect(store.runningEffectCount == 1)
  store.send(.pick)            // [uploading]: the upload starts
  store.send(.progress(40))    // still [uploading]: the upload goes on, percent is 40
  await store.settle()
  #expect(store.configuration == [.uploading])
  #expect(store.context.percent == 40, "the upload goes on, percent is 40")
  #expect(store.runningEffectCount == 2, "the heartbeat and the upload")
  store.send(.cancel)          // [idle]: leaving `uploading` cancels the upload; the heartbeat goes on
  await clock.advance(by: .seconds(2))
  #expect(store.configuration == [.idle])
  #expect(store.context.beats == 2)
  #expect(store.runningEffectCount == 1, "the upload was cancelled; the heartbeat runs on")
  await store.finish()
}

@Test("a chart store's session, recorded through its inspector, replays identically; a changed entry diverges")
func recordChartStore() async throws {
  let clock = ManualClock()
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-chart-store-\(UInt32.random(in: 0...UInt32.max)).jsonl").path
  defer { try? FileManager.default.removeItem(atPath: path) }
  let chart = try ChartStoreTests.upload()
  let recorder = try LogRecorder(
    chart: chart, snapshot: ChartSnapshot(configuration: [.idle], history: [:], context: UpContext()), file: path, clock: clock)
  let recorded = try Store(chart, context: UpContext(), clock: clock, handler: { _, send in
    try await clock.sleep(for: .milliseconds(300))
    send(.progress(70))
    try await clock.sleep(for: .milliseconds(300))
    send(.finished)
  }, inspector: recorder.storeInspector())
  #expect(recorded.snapshot == ChartSnapshot(configuration: [.idle], history: [:], context: UpContext()))
  recorded.start()
  recorded.send(.pick)
  await clock.advance(by: .seconds(3))
  recorded.send(.pick)
  recorded.send(.cancel)
  recorded.send(.close)
  await recorded.finish()
  try recorder.close()
  let log = recorder.log
  #expect(log.entries.map(\.event) == [.pick, .progress(70), .finished, .beat, .beat, .beat, .pick, .cancel, .close])
  #expect(log.entries.last?.state.isHalted == true)
  #expect(try chart.replay(logAt: path).isIdentical)
  let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: #""percent":70"#, with: #""percent":71"#)
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  #expect(try !chart.replay(logAt: path).isIdentical)
}
