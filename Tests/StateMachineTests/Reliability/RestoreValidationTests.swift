import Foundation
@testable import StateMachine
import StateMachineExamples
import Testing

/// Restoring a chart checks the whole snapshot: only configurations and histories the chart
/// can really be in are accepted.
@Suite("Restoring a chart: impossible snapshots are refused")
struct RestoreValidationTests {
  typealias S = Radio.State

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let configuration: [S]
    let history: [S: [S]]
    var halted = false
    /// `nil`: the snapshot is legal.
    let says: String?
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "off", configuration: [.off], history: [:], says: nil),
    Case(label: "on, every region", configuration: [.playing, .online, .awake], history: [:], says: nil),
    Case(label: "off, remembering paused", configuration: [.off], history: [.resume: [.paused]], says: nil),
    Case(label: "not started", configuration: [], history: [:], says: nil),
    Case(label: "history remembers itself", configuration: [.off], history: [.resume: [.resume]], says: "remembers the history state 'resume'"),
    Case(label: "history remembers nothing", configuration: [.off], history: [.resume: []], says: "remembers nothing"),
    Case(label: "shallow history remembers two children", configuration: [.off], history: [.resume: [.stopped, .playing]], says: "remembers 2 children of 'playback'"),
    Case(label: "shallow history remembers a state outside", configuration: [.off], history: [.resume: [.online]], says: "not inside its parent"),
    Case(label: "history remembers one state twice", configuration: [.off], history: [.resume: [.paused, .paused]], says: "twice"),
    Case(label: "a state that is not history has history", configuration: [.off], history: [.playback: [.paused]], says: "is not a history state"),
    Case(label: "two top-level states", configuration: [.off, .stopped, .online, .awake], history: [:], says: "2 children of '(chart)'"),
    Case(label: "two children of one compound", configuration: [.stopped, .playing, .online, .awake], history: [:], says: "2 children of 'playback'"),
    Case(label: "a region missing", configuration: [.playing, .online], history: [:], says: "region 'sleepTimer' of 'on' is not active"),
    Case(label: "a compound in the configuration", configuration: [.playback, .online, .awake], history: [:], says: "'playback' is not an atomic state"),
    Case(label: "a state listed twice", configuration: [.off, .off], history: [:], says: "listed twice"),
    Case(label: "not started, yet with history", configuration: [], history: [.resume: [.paused]], says: "not started"),
    Case(label: "not started, yet halted", configuration: [], history: [:], halted: true, says: "not started"),
  ]

  @Test("ChartMachine(restoring:) accepts legal snapshots and refuses impossible ones, naming the rule", arguments: cases)
  func restore(_ c: Case) throws {
    let snapshot = ChartSnapshot(configuration: c.configuration, history: c.history, context: NoContext(), isHalted: c.halted)
    do {
      var machine = try ChartMachine(Radio.chart, restoring: snapshot)
      #expect(c.says == nil, "restored an impossible snapshot")
      #expect(machine.snapshot == snapshot)
      for event in Radio.Event.allCases { _ = try machine.send(event) }
    } catch let error as ChartRestoreError {
      let says = try #require(c.says, "refused a legal snapshot: \(error)")
      #expect(error.message.contains(says), "\(error)")
    }
  }

  @Test("a chart log whose header is impossible is invalid (line 1, field state), with or without entries", arguments: cases.filter { $0.says != nil })
  func logHeader(_ c: Case) throws {
    let state = ChartLogState(configuration: c.configuration, history: c.history, isHalted: c.halted)
    let header = LogHeader(machine: "radio", fingerprint: Radio.chart.fingerprint, state: state, context: NoContext())
    typealias RadioLog = EventLog<ChartLogState<S>, Radio.Event, NoContext, Radio.Effect>
    let data = try RadioLog.line(header)
    let entry = LogEntry<ChartLogState<S>, Radio.Event, NoContext, Radio.Effect>(
      sequence: 1, time: nil, event: .power, outcome: .transitioned, state: ChartLogState(configuration: [.off]),
      context: NoContext(), effects: [])
    for entries in [[], [entry]] {
      var text = data
      for e in entries { text += try RadioLog.line(e) }
      let read = RadioLog.read(text, for: Radio.chart)
      guard case .invalidValue(line: 1, field: "state", let detail)? = read.error else {
        Issue.record("expected an invalid header state, got \(String(describing: read.error))")
        continue
      }
      #expect(detail.contains(c.says!))
      let path = temporaryPath("bad-header")
      defer { try? FileManager.default.removeItem(atPath: path) }
      try text.write(to: URL(fileURLWithPath: path))
      #expect(throws: LogError.invalidValue(line: 1, field: "state", detail: detail)) { _ = try Radio.chart.replay(logAt: path) }
    }
  }
}

@Suite("Macrosteps that flood the internal queue")
struct QueueFloodTests {
  @Test("a flood of 1,000 raises per microstep stops with queueOverflow before it fills memory; the machine goes on")
  func flood() throws {
    let raises = [ChartAction<String, NoContext, String>](repeating: .raise("go"), count: 1_000)
    let chart = try Chart<String, String, NoContext, String>(name: "flood", states: [
      .atomic("a", transitions: [.on("go", do: raises), .on("next", to: "b")]),
      .atomic("b"),
    ])
    var machine = ChartMachine(chart, context: NoContext())
    _ = try machine.start()
    #expect {
      _ = try machine.send("go")
    } throws: { error in
      guard case .queueOverflow(chart: "flood", let events, states: ["a"])? = error as? ChartRunError else { return false }
      return events > ChartMachine<String, String, NoContext, String>.maxInternalEvents && events <= 12_000
    }
    #expect(machine.internalQueue.isEmpty, "the stopped macrostep's queue is dropped")
    #expect(try machine.send("next").outcome == .transitioned)
    #expect(machine.configuration == ["b"])
  }
}
