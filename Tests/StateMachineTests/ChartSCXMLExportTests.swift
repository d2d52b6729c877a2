import Foundation
import StateMachine
import Testing

@Suite("Chart export to SCXML: read back, the same chart")
struct ChartSCXMLExportTests {
  /// Random events through `a` and `b` give the same configurations and effects (ids and
  /// effects compared as text).
  static func sameBehaviour<I1, E1>(
    _ a: Chart<I1, E1, NoContext, String>, _ b: Chart<String, String, NoContext, String>, events: [(E1, String)], seed: UInt64,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var x = ChartMachine(a, context: NoContext())
    var y = ChartMachine(b, context: NoContext())
    #expect(try x.start().outputs.count == y.start().outputs.count, sourceLocation: sourceLocation)
    var random = SplitMix64(seed: seed)
    for _ in 0..<300 {
      let (typed, name) = events[Int(random.next() % UInt64(events.count))]
      let p = try? x.send(typed)
      let q = try? y.send(name)
      #expect(p?.effects == q?.effects, sourceLocation: sourceLocation)
      #expect(x.configuration.map { "\($0)" } == y.configuration, "after \(name)", sourceLocation: sourceLocation)
    }
  }

  @Test("every conformance chart: exported, re-imported, the same Markdown and the same steps",
        .enabled(if: SCXMLTests.scionFile("index.tsv") != nil, "needs ../shared/scion"))
  func conformanceCharts() throws {
    for (n, file) in ChartSpecTests.scionCharts().enumerated() {
      let chart = try SCXMLDocument.load(contentsOf: SCXMLTests.scionFile(file)!)
      let back = try SCXMLDocument.parse(Data(chart.scxml().utf8), file: file)
      #expect(back.markdown() == chart.markdown(), "\(file)")
      let names = QuickStepTests.alphabet(chart)
      try Self.sameBehaviour(chart, back, events: names.map { ($0, $0) }, seed: UInt64(n))
    }
  }

  enum Step: UInt8, Hashable, Sendable, Discriminated { case power, play, pause, louder, quieter }
  enum Where: String, Hashable, Sendable { case off, on, resume, playback, stopped, playing, paused, volume, normal, loud, tooLoud }

  @Test("a typed chart and the chart read from its own SCXML export do the same on random events")
  func typedDifferential() throws {
    let typed = try Chart<Where, Step, NoContext, String>(name: "player", states: [
      .atomic(.off, transitions: [.on(.power, to: .resume)]),
      .parallel(.on, regions: [
        .history(.resume, deep: true, default: [.stopped, .normal]),
        .compound(.playback, children: [
          .atomic(.stopped, transitions: [.on(.play, to: .playing)]),
          .atomic(.playing, transitions: [.on(.pause, to: .paused), .on(.play, do: [.effect("already playing")])]),
          .atomic(.paused, transitions: [.on(.play, to: .playing)]),
        ]),
        .compound(.volume, children: [
          .atomic(.normal, transitions: [.on(.louder, to: .loud)]),
          .atomic(.loud, transitions: [.on(.louder, to: .tooLoud), .on(.quieter, when: .inState(.paused), to: .normal)]),
          .atomic(.tooLoud, transitions: [.always(to: .loud)], onEntry: [.effect("too loud"), .raise(.quieter)]),
        ]),
      ], transitions: [.on(.power, to: .off)]),
    ])
    let exported = try typed.scxml()
    #expect(!exported.contains("<!--"), "nothing left out")
    let back = try SCXMLDocument.parse(Data(exported.utf8), file: "player.scxml")
    let events: [(Step, String)] = [(.power, "power"), (.play, "play"), (.pause, "pause"), (.louder, "louder"), (.quieter, "quieter")]
    for seed in UInt64(1)...5 { try Self.sameBehaviour(typed, back, events: events, seed: seed) }
  }

  @Test("Swift code is written by name; an unnamed update by its place, which the chart's bindings bind too")
  func leftOut() throws {
    let chart = try Chart<String, String, Int, String>(name: "c", states: [
      .atomic("a", transitions: [
        .init(events: ["go"], guard: ChartGuard("positive") { n, _ in n > 0 }, targets: ["a"], actions: [.update { n, _ in n += 1 }]),
        .init(events: ["count"], targets: [], actions: [.update("add one") { n, _ in n += 1 }, .make("report") { n, _ in "n=\(n)" }]),
      ]),
    ])
    let text = try chart.scxml()
    #expect(text.contains("xmlns:fsm=\"urn:swift-state-machine:scxml\""))
    #expect(text.contains("<transition event=\"go\" fsm:cond=\"positive\" target=\"a\">"))
    #expect(text.contains("<fsm:update name=\"(update 1 of a: go [positive] / update -&gt; a)\"/>"))
    #expect(!text.contains("<!--"), "nothing left out")
    #expect(text.contains("<fsm:update name=\"add one\"/>"))
    #expect(text.contains("<log expr=\"'report'\" fsm:make=\"report\"/>"))
    // Without bindings no Swift code runs: the guard is kept by name and never holds (as a
    // spec's named guard), and the make is its name.
    let document = try SCXMLDocument.parse(Data(text.utf8), file: "c.scxml")
    #expect(document.markdown().contains("| a | go | positive | a |"))
    var plain = ChartMachine(document, context: NoContext())
    _ = try plain.start()
    #expect(try plain.send("count").effects == ["report"])
    #expect(try plain.send("go").outcome == .unhandled)
    // With the chart's own bindings, the unnamed update runs again: the read-back chart counts.
    let back = try Chart(scxml: Data(text.utf8), file: "c.scxml", bindings: chart.scxmlBindings)
    for c in [chart, back] {
      var machine = ChartMachine(c, context: 1)
      _ = try machine.start()
      _ = try machine.send("go")
      _ = try machine.send("go")
      #expect(machine.context == 3, "both updates ran twice")
    }
  }
}
