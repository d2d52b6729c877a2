import Foundation
@testable import StateMachine
import StateMachineChecking
import StateMachineExamples
import Testing

/// ``ChartExplorer`` keys configurations by a machine's position (compiled key, context,
/// halting) and steps one machine put back at each position, gathering coverage as bits. The
/// reference here is the plain search it replaced: copies of machines, keyed by their public
/// snapshots, coverage from each step's reported transitions and entered states. Both must find
/// the same configurations, depth, truncation and coverage.
@Suite("Exploring by position finds what exploring by snapshot finds")
struct ExplorationIdentityTests {
  struct Found: Equatable, CustomStringConvertible {
    var configurations = 0
    var maxDepth = 0
    var truncated = false
    var taken = Set<Int>()
    /// Declared transitions never taken, described (two transitions may read alike).
    var neverTaken: [String] = []
    var entered = Set<Int>()
    var description: String {
      "\(configurations) configurations, depth \(maxDepth), truncated \(truncated), never taken \(neverTaken), entered \(entered.sorted())"
    }
  }

  /// Breadth-first by snapshot over copied machines.
  static func reference<ID, Event, Context: Hashable, Effect>(
    _ chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event], depth: Int, limit: Int
  ) -> Found {
    var found = Found()
    var start = ChartMachine(chart, context: context)
    start.reportsTransitions = true
    guard let first = try? start.start() else { return found }
    found.taken.formUnion(first.transitions)
    found.entered.formUnion(first.entered)
    var index: [ChartSnapshot<ID, Context>: Int] = [start.snapshot: 0]
    var machines = [start]
    var depths = [0]
    var head = 0
    search: while head < machines.count {
      let i = head
      head += 1
      guard depths[i] < depth, !machines[i].isHalted else { continue }
      for event in alphabet {
        var machine = machines[i]
        guard let step = try? machine.send(event) else { continue }
        found.taken.formUnion(step.transitions)
        found.entered.formUnion(step.entered)
        guard index[machine.snapshot] == nil else { continue }
        guard machines.count < limit else {
          found.truncated = true
          continue search
        }
        index[machine.snapshot] = machines.count
        machines.append(machine)
        depths.append(depths[i] + 1)
        found.maxDepth = max(found.maxDepth, depths[i] + 1)
      }
    }
    found.configurations = machines.count
    return found
  }

  /// What ``Explorer`` found, in the reference's terms.
  static func explored<ID, Event, Context: Hashable & Sendable, Effect>(
    _ chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event], depth: Int, limit: Int
  ) -> Found {
    let result = Explorer(chart: chart, context: context, alphabet: alphabet).explore(depth: depth, limit: limit)
    var found = Found(configurations: result.configurations, maxDepth: result.maxDepth, truncated: result.truncated)
    found.neverTaken = result.coverage.transitionsNeverTaken.map(result.coverage.describeTransition).sorted()
    for (n, state) in chart.states.enumerated() where result.shortestPath(to: state.id) != nil { found.entered.insert(n) }
    return found
  }

  static func compare<ID, Event, Context: Hashable & Sendable, Effect>(
    _ chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event], label: String,
    depth: Int = 8, limit: Int = 3_000, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let expected = reference(chart, context: context, alphabet: alphabet, depth: depth, limit: limit)
    let neverTaken = chart.declaredTransitions.filter { !expected.taken.contains($0) }.map(chart.describeTransition).sorted()
    let got = explored(chart, context: context, alphabet: alphabet, depth: depth, limit: limit)
    #expect(got.configurations == expected.configurations, "\(label): configurations", sourceLocation: sourceLocation)
    #expect(got.maxDepth == expected.maxDepth, "\(label): depth", sourceLocation: sourceLocation)
    #expect(got.truncated == expected.truncated, "\(label): truncated", sourceLocation: sourceLocation)
    #expect(got.neverTaken == neverTaken, "\(label): transitions never taken", sourceLocation: sourceLocation)
    #expect(got.entered == expected.entered, "\(label): states entered", sourceLocation: sourceLocation)
  }

  @Test("every conformance chart", .enabled(if: SCXMLTests.scionFile("index.tsv") != nil, "needs ../shared/scion"))
  func conformanceCharts() throws {
    let folder = try #require(SCXMLTests.scionFile(""))
    for file in ChartSpecTests.scionCharts() {
      let chart = try SCXMLDocument.load(contentsOf: folder + "/" + file)
      Self.compare(chart, context: NoContext(), alphabet: QuickStepTests.alphabet(chart), label: file)
    }
  }

  @Test("the shipped charts on their models' alphabets, contexts included")
  func shippedCharts() {
    Self.compare(Loader.chart, context: Loader.model.context, alphabet: Loader.model.alphabet, label: "loader", depth: 40)
    Self.compare(PhoneLogin.chart, context: PhoneLogin.model.context, alphabet: PhoneLogin.model.alphabet, label: "phone-login", depth: 6)
    Self.compare(Radio.chart, context: NoContext(), alphabet: Radio.model.alphabet, label: "radio", depth: 40)
  }

  @Test("random charts: history, parallel regions, eventless transitions and guards on the context", arguments: 0..<40)
  func randomCharts(_ seed: Int) throws {
    let chart = try RandomChart.make(seed: UInt64(seed))
    Self.compare(chart, context: 0, alphabet: RandomChart.alphabet, label: "random chart \(seed)", depth: 6, limit: 2_000)
  }

  @Test("a macrostep that never settles adds nothing to coverage, and a later step does not take its states")
  func unsettled() throws {
    let text = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml">
        <state id="a"><transition event="go" target="b"/></state>
        <state id="b"><transition event="spin" target="c"/><transition event="back" target="a"/></state>
        <state id="c"><transition target="d"/></state>
        <state id="d"><transition target="c"/></state>
      </scxml>
      """
    let chart = try SCXMLDocument.parse(Data(text.utf8), file: "spin.scxml")
    Self.compare(chart, context: NoContext(), alphabet: ["go", "spin", "back"], label: "spin")
    let result = Explorer(chart: chart, context: NoContext(), alphabet: ["go", "spin", "back"]).explore()
    #expect(result.shortestPath(to: "c") == nil && result.shortestPath(to: "d") == nil)
    #expect(result.coverage.statesNeverEntered == ["c", "d"])
  }

  @Test("a limit truncates both searches alike")
  func truncation() throws {
    let chart = try RandomChart.make(seed: 3)
    Self.compare(chart, context: 0, alphabet: RandomChart.alphabet, label: "random chart 3, limit 10", depth: 6, limit: 10)
  }
}


/// A checker's machine skips content that only makes outputs; it must reach what a machine
/// that makes them reaches.
@Suite("A machine that discards outputs steps as one that makes them")
struct DiscardedOutputTests {
  static func compare<ID, Event, Context: Equatable, Effect>(
    _ chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event], seed: UInt64, label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var making = ChartMachine(chart, context: context)
    var discarding = ChartMachine(chart, context: context)
    discarding._discardOutputs()
    _ = try making.start()
    #expect(try discarding.start().outputs.isEmpty, "\(label): start", sourceLocation: sourceLocation)
    var random = SplitMix64(seed: seed)
    var made = 0
    for n in 0..<300 {
      let event = alphabet[Int(random.next() % UInt64(alphabet.count))]
      let a = Result { () throws(ChartRunError) in try making.send(event) }
      let b = Result { () throws(ChartRunError) in try discarding.send(event) }
      if case .success(let step) = a { made += step.outputs.count }
      if case .success(let step) = b { #expect(step.outputs.isEmpty, "\(label) \(n): outputs", sourceLocation: sourceLocation) }
      #expect(making.configuration == discarding.configuration, "\(label) \(n): configuration", sourceLocation: sourceLocation)
      #expect(making.context == discarding.context, "\(label) \(n): context", sourceLocation: sourceLocation)
      #expect(making.historyValues == discarding.historyValues, "\(label) \(n): history", sourceLocation: sourceLocation)
      #expect(making.isHalted == discarding.isHalted, "\(label) \(n): halted", sourceLocation: sourceLocation)
    }
    if label == "loader" { #expect(made > 0, "the loader chart makes effects on its alphabet", sourceLocation: sourceLocation) }
  }

  @Test("the shipped charts and random charts")
  func charts() throws {
    try Self.compare(Loader.chart, context: Loader.model.context, alphabet: Loader.model.alphabet, seed: 1, label: "loader")
    try Self.compare(PhoneLogin.chart, context: PhoneLogin.model.context, alphabet: PhoneLogin.model.alphabet, seed: 2, label: "phone-login")
    for seed in 0..<20 {
      try Self.compare(try RandomChart.make(seed: UInt64(seed)), context: 0, alphabet: RandomChart.alphabet, seed: UInt64(seed), label: "random \(seed)")
      try Self.compare(
        try RandomChart.make(seed: UInt64(seed), ordinals: true), context: 0, alphabet: RandomChart.alphabet, seed: UInt64(seed),
        label: "random numbered \(seed)")
    }
  }
}
