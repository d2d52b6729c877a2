import Foundation
import StateMachine
import StateMachineChecking
import Testing

/// Chart walks draw events as table walks do when given an ``EventSource``: only cases the
/// configuration names, payloads from generators, payloads shrunk.
@Suite("Chart walks from an event source")
struct ChartWalkSourceTests {
  enum Upload: Sendable, Hashable, Discriminated {
    case pick, progress(Int), cancel
    enum Kind: String, Hashable, Sendable, CaseIterable { case pick, progress, cancel }
    var discriminant: Kind {
      switch self {
      case .pick: .pick
      case .progress: .progress
      case .cancel: .cancel
      }
    }
  }

  struct Progress: Sendable, Hashable { var percent = 0 }

  static func upload() throws -> Chart<String, Upload, Progress, String> {
    try Chart(name: "upload", states: [
      .atomic("idle", transitions: [.on(.pick, to: "uploading")]),
      .atomic("uploading", transitions: [
        .on(.progress, do: [.update { progress, event in if case .progress(let p)? = event { progress.percent = p } }]),
        .on(.cancel, to: "idle", actions: [.update { progress, _ in progress.percent = 0 }]),
      ]),
    ])
  }

  static let percent = Gen.int(in: 0...200)

  static let source = EventSource<Upload>(shrink: { event in
    if case .progress(let p) = event { percent.shrink(p).map { .progress($0) } } else { [] }
  }) { kind, generator in
    switch kind {
    case .pick: .pick
    case .progress: .progress(percent.next(&generator))
    case .cancel: .cancel
    }
  }

  @Test("a broken invariant is found with generated payloads and shrunk to the least payload that breaks it")
  func shrinksPayloads() throws {
    let check = PropertyCheck(chart: try Self.upload(), context: Progress(), events: Self.source)
      .invariant("at most 100 %") { _, progress in progress.percent <= 100 }
    #expect(throws: PropertyFailure<Upload>.self) { try check.run(walks: 50, length: 20, seed: 3) }
    do {
      try check.run(walks: 50, length: 20, seed: 3)
    } catch {
      #expect(error.events == [.pick, .progress(101)], "\(error)")
      #expect(error.originalLength >= error.events.count)
    }
  }

  /// Events a source made, in order.
  final class Made: @unchecked Sendable {  // safe: `events` is only touched under `lock`
    private let lock = NSLock()
    private var stored: [Upload] = []
    func add(_ event: Upload) { lock.withLock { stored.append(event) } }
    var events: [Upload] { lock.withLock { stored } }
  }

  @Test("a walk sends only events the configuration names (unhandledShare 0)")
  func onlyNamedEvents() throws {
    let chart = try Self.upload()
    let made = Made()
    let recording = EventSource<Upload> { kind, generator in
      let event: Upload =
        switch kind {
        case .pick: .pick
        case .progress: .progress(Self.percent.next(&generator))
        case .cancel: .cancel
        }
      made.add(event)
      return event
    }
    let summary = try PropertyCheck(chart: chart, context: Progress(), events: recording).run(walks: 1, length: 300, seed: 9)
    #expect(summary.steps == 300)
    var machine = ChartMachine(chart, context: Progress())
    _ = try machine.start()
    #expect(made.events.count == 300)
    for event in made.events {
      #expect(chart.mayHandle(eventNamed: "\(event.discriminant)", in: machine.configuration), "\(event) in \(machine.configuration)")
      #expect(try machine.send(event).outcome == .transitioned)
    }
  }

  struct Case: Sendable, CustomStringConvertible {
    let name: String
    let configuration: [String]
    let handled: Bool
    var description: String { "\(name) in \(configuration)" }
  }

  static let cases: [Case] = [
    Case(name: "play", configuration: ["stopped"], handled: true),
    Case(name: "stop", configuration: ["stopped"], handled: false),
    Case(name: "power.off", configuration: ["stopped"], handled: true),  // the parent's transition
    Case(name: "power", configuration: ["stopped"], handled: false),  // "power.off" does not name "power"
    Case(name: "error.execution", configuration: ["playing"], handled: true),  // "error" names it
    Case(name: "errors", configuration: ["playing"], handled: false),
    Case(name: "anything", configuration: ["off"], handled: true),  // "*"
    Case(name: "play", configuration: ["nowhere"], handled: false),
  ]

  @Test("mayHandle matches event names as SCXML descriptors do, ancestors included", arguments: cases)
  func mayHandle(_ c: Case) throws {
    typealias T = ChartTransition<String, String, NoContext, String>
    let chart = try Chart<String, String, NoContext, String>(name: "deck", states: [
      .compound("deck", children: [
        .atomic("stopped", transitions: [.on("play", to: "playing")]),
        .atomic("playing", transitions: [.on("error", to: "stopped"), .on("stop", to: "stopped")]),
      ], transitions: [.on("power.off", to: "off")]),
      .atomic("off", transitions: [T(events: ["*"], targets: ["deck"])]),
    ])
    #expect(chart.mayHandle(eventNamed: c.name, in: c.configuration) == c.handled)
  }
}
