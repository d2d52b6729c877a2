import Foundation
import StateMachine
import Testing

/// A system's log records each child's end, once, as its parent reports the invoke ended:
/// finished, cancelled or failed.
@Suite("Systems of machines: each child's end in the system's log")
struct ChildEndLogTests {
  typealias Parent = Chart<String, String, [String], Command<String, Never>>
  typealias Log = EventLog<ChartLogState<String>, String, [String], Command<String, Never>>

  /// The system tests' job (a table), done in `done`.
  static let job = ChildMachine<String>(SystemMachines.job, context: [], doneWhen: { $0 == "done" }, onDone: { _ in "jobDone" })

  /// idle → running (runs `child` as `job` while there) → finished on its done; `stop` leaves
  /// running. (Its types are `Codable`, so each step is recorded.)
  static func parent(_ name: String = "parent", child: ChildMachine<String> = job) throws -> Parent {
    try Parent(name: name, states: [
      .atomic("idle", transitions: [.on("start", to: "running")]),
      .atomic(
        "running", transitions: [.on("jobDone", to: "finished"), .on("stop", to: "idle")],
        onEntry: [.effect(.invoke(child, id: "job", scope: .state))]),
      .final("finished"),
    ])
  }

  /// How a session ends its child, and the end its log records.
  struct Ending: CustomTestStringConvertible, Sendable {
    let label: String
    /// The session after `start` (the child `job` runs): what is sent, and to whom.
    let inputs: [(event: String, to: String?)]
    /// Whether the store is finished with the child still running.
    let finishes: Bool
    let ended: String
    var testDescription: String { label }
  }

  static let endings: [Ending] = [
    Ending(label: "done: finished", inputs: [("complete", "job")], finishes: false, ended: "finished"),
    Ending(label: "its state left: cancelled", inputs: [("stop", nil)], finishes: false, ended: "cancelled"),
    Ending(label: "its parent finishing: cancelled", inputs: [("pause", "job")], finishes: true, ended: "cancelled"),
  ]

  /// The parent's store, recorded, run through `start` and `inputs` on a manual clock.
  static func recorded(_ inputs: [(event: String, to: String?)], finishing: Bool) async throws -> (Log, ledger: SystemLedger) {
    let ledger = SystemLedger()
    let store = try Store(
      try parent(), context: [], clock: ManualClock(), handler: { _, _ in }, inspector: { ledger.record($0) })
    let recorder = try store.record()
    store.start()
    store.send("start")
    for input in inputs {
      let result = input.to.map { store.send(input.event, to: $0) } ?? store.send(input.event)
      #expect(result == .accepted, "\(input)")
    }
    await store.settle()
    if finishing { #expect(store.children == ["job"]) }
    await store.finish()
    return (recorder.log, ledger)
  }

  @Test("each child's end is one line after its steps, as its parent's inspector reports the invoke ended", arguments: endings)
  func ends(_ ending: Ending) async throws {
    let (log, ledger) = try await Self.recorded(ending.inputs, finishing: ending.finishes)
    let ends = log.childLines.filter { $0.ended != nil }
    #expect(ends.map(\.path) == ["job"])
    #expect(ends.map(\.ended) == [ending.ended as String?])
    #expect(ends.first?.text == #"{"child":"job","ended":"\#(ending.ended)"}"#)
    #expect(ends.first?.sequence == 0)
    #expect(log.childLines.last?.ended == ending.ended, "the end comes after the child's steps")
    // The inspector's report of the same end: one, of the same kind.
    #expect(ledger.all.filter { !$0.hasPrefix("start ") } == ["\(ending.ended) invoke job as job (in state)"])
    // No inspector is shown an end as a step.
    #expect(!ledger.childSteps.contains { $0.hasPrefix("step job: : ") })
    // The log replays identical, its end lines read back and checked.
    let read = Log.read(try log.encoded())
    #expect(read.error == nil)
    #expect(read.log?.childLines == log.childLines)
    let report = try Self.parent().replay(log)
    #expect(report.isIdentical, "\(report)")
  }

  @Test("a child that cannot start ends failed, with its error, in the log and to the inspector")
  func failedStart() async throws {
    let ledger = SystemLedger()
    let chart = try Parent(name: "parent", states: [.atomic("idle", onEntry: [.effect(.invoke(Self.job, id: "a/b"))])])
    let store = try Store(chart, context: [], clock: ManualClock(), handler: { _, _ in }, inspector: { ledger.record($0) })
    let recorder = try store.record()
    store.start()
    await store.finish()
    let end = try #require(recorder.log.childLines.first)
    #expect(recorder.log.childLines.count == 1)
    #expect(end.path == "a/b")
    #expect(end.ended == "failed")
    let error = try #require(ledger.all.last?.split(separator: ": ", maxSplits: 1).last.map(String.init))
    #expect(ledger.all.last?.hasPrefix("failed invoke job as a/b") == true)
    #expect(end.text == #"{"child":"a/b","ended":"failed","error":"\#(error)"}"#)
  }

  @Test("a grandchild's end reaches the root's log by its path; no inspector of a child's is shown it")
  func grandchild() async throws {
    let groupLedger = SystemLedger()
    let group = ChildMachine<String>(try Self.parent("group"), context: [], onDone: { _ in "jobDone" }, inspector: { groupLedger.record($0) })
    let store = try Store(try Self.parent(child: group), context: [], clock: ManualClock(), handler: { _, _ in })
    let recorder = try store.record()
    store.start()
    store.send("start")
    store.send("start", to: "job")
    #expect(store.children == ["job", "job/job"])
    // Left while both run: the group is cancelled, and its job with it.
    store.send("stop")
    await store.settle()
    await store.finish()
    let ends = recorder.log.childLines.filter { $0.ended != nil }
    #expect(Set(ends.map(\.path)) == ["job", "job/job"])
    #expect(ends.allSatisfy { $0.ended == "cancelled" })
    // The group's own inspector saw its job's start and end as effects, and no end as a step.
    #expect(groupLedger.all == ["start invoke job as job (in state)", "cancelled invoke job as job (in state)"])
    #expect(groupLedger.childSteps.isEmpty)
  }

  @Test("a recorder attached after a child started logs neither its steps nor its end, and the log replays identical")
  func childBeforeRecorder() async throws {
    let store = try Store(try Self.parent(), context: [], clock: ManualClock(), handler: { _, _ in })
    store.start()
    store.send("start")
    #expect(store.children == ["job"])
    // Attached while the store is idle, after the step that started the job.
    let recorder = try store.record()
    #expect(store.send("note", to: "job") == .accepted)
    store.send("stop")
    await store.settle()
    await store.finish()
    let log = recorder.log
    #expect(log.entries.map { "\($0.event)" } == ["stop"])
    // The log never saw the job start: it has none of its lines, its end included.
    #expect(log.childLines.isEmpty)
    let report = try Self.parent().replay(log)
    #expect(report.isIdentical, "\(report)")
  }

  @Test("an end of a child no replayed step started is a divergence naming it and its line")
  func endOfUnknownChild() async throws {
    let (recorded, _) = try await Self.recorded([("stop", nil)], finishing: false)
    var log = recorded
    let index = try #require(log.childLines.firstIndex { $0.ended != nil })
    let end = log.childLines[index]
    log.childLines[index] = ChildLogLine(
      path: "ghost", sequence: 0, afterEntry: end.afterEntry, line: end.line, text: #"{"child":"ghost","ended":"cancelled"}"#,
      ended: "cancelled")
    let report = try Self.parent().replay(log)
    let first = try #require(report.divergences.first)
    #expect(report.divergences.count == 1)
    #expect(first.machine == "ghost")
    #expect(first.line == end.line)
    #expect(first.differences.first?.actual == "no child ghost was started")
  }

  struct BadEnd: CustomTestStringConvertible, Sendable {
    let label: String
    let line: String
    var testDescription: String { label }
  }

  @Test("a child's end line that says no way of ending is refused, naming its line and field", arguments: [
    BadEnd(label: "an unknown ending", line: #"{"child":"job","ended":"exploded"}"#),
    BadEnd(label: "an ending that is not a string", line: #"{"child":"job","ended":3}"#),
  ])
  func badEnd(_ bad: BadEnd) async throws {
    let (log, _) = try await Self.recorded([("stop", nil)], finishing: false)
    var lines = try log.encoded().split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    let index = try #require(lines.firstIndex { $0.contains(#""ended""#) })
    lines[index] = bad.line
    let read = Log.read(Data((lines.joined(separator: "\n") + "\n").utf8))
    #expect(read.error == .invalidValue(line: index + 1, field: "ended", detail: "expected how the child ended: one of finished, cancelled, failed"))
  }

  @Test("a system checked on the caller's thread logs the same ends as its store's recorder")
  func synchronousEnds() async throws {
    let inputs: [(event: String, to: String?)] = [("pause", "job"), ("stop", nil), ("start", nil), ("complete", "job")]
    let (recorded, _) = try await Self.recorded(inputs, finishing: false)
    let stored = recorded.childLines.filter { $0.ended != nil }.map(\.text)
    var system = SystemMachine(MachineSystem(chart: try Self.parent()), context: [])
    let log = SystemLog()
    try system.begin(logging: log)
    _ = try system.step(.root("start"), logging: log)
    for input in inputs {
      _ = try system.step(input.to.map { .message(input.event, to: $0) } ?? .root(input.event), logging: log)
    }
    let checked = log.lines.compactMap(\.json).filter { $0.contains(#""ended""#) }
    #expect(stored == [#"{"child":"job","ended":"cancelled"}"#, #"{"child":"job","ended":"finished"}"#])
    #expect(checked == stored)
    #expect(log.lines.filter { $0.json?.contains(#""ended""#) == true }.map(\.shown) == ["[job] ended: cancelled", "[job] ended: finished"])
  }

  @Test("a session page's lane leaves a child where it ended")
  func lane() async throws {
    let (log, _) = try await Self.recorded([("stop", nil)], finishing: false)
    let lanes = SessionLane.lanes(of: log.childLines, invoked: log.entries.map { _ in [] })
    let job = try #require(lanes.first { $0.path == "job" })
    #expect(job.events.last == "(ended)")
    #expect(job.states.last == "(cancelled)")
  }
}

extension ChildEndLogTests {
  typealias Host = TransitionTable<String, String, [String], Command<String, Never>>

  /// A host of `count` jobs, each spawned (`spawn-N`: child `cN`, which replaces a running
  /// one) and stopped (`stop-N`) by its own event.
  static func host(children count: Int) throws -> Host {
    let job = ChildMachine<String>(SystemMachines.job, context: [])
    return try Host(
      name: "host", initial: "up",
      rows: (0..<count).flatMap { n -> [Host.Row] in
        [
          .stayInAny(on: "spawn-\(n)", effects: .invoke(job, id: EffectID("c\(n)"), scope: .global)),
          .stayInAny(on: "stop-\(n)", effects: .cancel(EffectID("c\(n)"))),
        ]
      })
  }

  @Test("under producers messaging children while others stop and start them, each start's end is logged exactly once, between it and the next start")
  func endsUnderChurn() async throws {
    let (children, perProducer) = (10, 300)
    let store = Store(try Self.host(children: children), context: [], clock: ManualClock(), handler: { _, _ in })
    let recorder = try store.record()
    for n in 0..<children { store.send("spawn-\(n)") }
    await withTaskGroup(of: Void.self) { group in
      for p in 0..<4 {
        group.addTask {
          // Accepted, or refused by a child stopped meanwhile: either is fine here.
          for i in 0..<perProducer { _ = store.send("note", to: "c\((i + p) % children)") }
        }
      }
      group.addTask {
        for i in 0..<100 {
          store.send("stop-\(i % children)")
          if i % 3 != 0 { store.send("spawn-\(i % children)") }
          await Task.yield()
        }
      }
    }
    await store.settle()
    await store.finish()
    let log = recorder.log
    for n in 0..<children {
      let path = "c\(n)"
      // The entries (by sequence) that started this id, and where each end was logged (after
      // how many entries).
      let starts = log.entries.filter { entry in
        entry.effects.contains { if case .invoke(_, let id, _) = $0 { id.name == path } else { false } }
      }.map(\.sequence)
      let ends = log.childLines.filter { $0.path == path && $0.ended != nil }
      // (Started at first, then again after most of its ten stops.)
      #expect(starts.count > 5, "\(path)")
      #expect(ends.count == starts.count, "\(path): \(starts.count) starts, \(ends.count) ends")
      #expect(ends.allSatisfy { $0.ended == "cancelled" }, "\(path)")
      for (k, (start, end)) in zip(starts, ends).enumerated() {
        #expect(end.afterEntry >= start, "\(path): end \(k) logged before its start")
        if k + 1 < starts.count { #expect(end.afterEntry <= starts[k + 1], "\(path): end \(k) logged after the next start's step") }
      }
    }
  }
}
