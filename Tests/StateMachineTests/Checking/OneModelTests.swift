import StateMachine
import StateMachineChecking
import Testing

/// A table and a chart are two kinds of one machine model (``MachineDefinition``): what a tool
/// written over the model sees of each, and the one ``PropertyCheck`` run over both.
@Suite("One machine model: tables and charts under one property check")
struct OneModelTests {
  enum Light: String, Hashable, Sendable, Codable, Discriminated { case off, on, broken }
  enum Press: String, Hashable, Sendable, Codable, Discriminated { case toggle, smash, repair }

  /// A lamp: toggled on and off; smashed while on it breaks for good (a dead end); `repair`
  /// is handled nowhere. The context counts the toggles.
  static func table() throws -> TransitionTable<Light, Press, Int, Never> {
    try TransitionTable(
      name: "lamp", initial: .off,
      rows: [
        .transition(from: .off, on: .toggle, to: .on).update { count, _ in count += 1 },
        .transition(from: .on, on: .toggle, to: .off).update { count, _ in count += 1 },
        .transition(from: .on, on: .smash, to: .broken),
      ])
  }

  /// The same lamp as a chart.
  static func chart() throws -> Chart<String, String, Int, Never> {
    try Chart(name: "lamp", states: [
      .atomic("off", transitions: [.on("toggle", to: "on", actions: [.update { count, _ in count += 1 }])]),
      .atomic("on", transitions: [.on("toggle", to: "off", actions: [.update { count, _ in count += 1 }]), .on("smash", to: "broken")]),
      .atomic("broken"),
    ])
  }

  /// Walks `definition` through `events` as any tool written over the model does.
  static func walk<D: MachineDefinition>(_ definition: D, context: D.Context, _ events: [D.Event]) throws -> (
    responses: [String], configuration: D.Configuration, context: D.Context, deadEnd: Bool
  ) {
    var machine = D.Instance(definition, context: context)
    try machine.begin()
    try machine.begin()  // a second begin does nothing
    var responses: [String] = []
    for event in events { responses.append(try machine.step(event).description) }
    return (responses, machine.configuration, machine.context, definition._deadEndTest()(machine.configuration))
  }

  /// What the model shows of one kind, as text (the kinds name their states differently).
  struct Seen: Equatable, CustomStringConvertible {
    let responses: [String]
    let configuration: String
    let context: Int
    let deadEnd: Bool
    var description: String { "\(responses) → \(configuration), \(context), dead end \(deadEnd)" }
  }

  struct Kind: Sendable, CustomStringConvertible {
    let description: String
    /// How the kind answers an event nothing handles: a table rejects it (no row), a chart
    /// ignores it (no transition); neither changes anything.
    let refusal: String
    let walk: @Sendable () throws -> Seen
    let walkToBreak: @Sendable () throws -> Seen
    /// A property check of the lamp: at most `toggles` toggles, and no dead end when asked.
    let check: @Sendable (_ toggles: Int, _ deadEnds: Bool, _ seed: UInt64) throws -> (property: String, events: [String])?
  }

  static let kinds = [
    Kind(description: "a table", refusal: "rejected: no row handles this event in this state") {
      let seen = try walk(try table(), context: 0, [.toggle, .repair, .toggle, .toggle])
      return Seen(responses: seen.responses, configuration: "\(seen.configuration)", context: seen.context, deadEnd: seen.deadEnd)
    } walkToBreak: {
      let seen = try walk(try table(), context: 0, [.toggle, .smash, .toggle])
      return Seen(responses: seen.responses, configuration: "\(seen.configuration)", context: seen.context, deadEnd: seen.deadEnd)
    } check: { toggles, deadEnds, seed in
      var check = PropertyCheck(try table(), context: 0, alphabet: [.toggle, .smash])
        .invariant("at most \(toggles) toggles") { _, count in count <= toggles }
      if deadEnds { check = check.checking(.noDeadEnd) }
      do {
        try check.run(walks: 100, length: 20, seed: seed)
        return nil
      } catch let failure as PropertyFailure<Press> { return (failure.property, failure.events.map { "\($0)" }) }
    },
    Kind(description: "a chart", refusal: "ignored") {
      let seen = try walk(try chart(), context: 0, ["toggle", "repair", "toggle", "toggle"])
      return Seen(responses: seen.responses, configuration: "\(seen.configuration)", context: seen.context, deadEnd: seen.deadEnd)
    } walkToBreak: {
      let seen = try walk(try chart(), context: 0, ["toggle", "smash", "toggle"])
      return Seen(responses: seen.responses, configuration: "\(seen.configuration)", context: seen.context, deadEnd: seen.deadEnd)
    } check: { toggles, deadEnds, seed in
      var check = PropertyCheck(chart: try chart(), context: 0, alphabet: ["toggle", "smash"])
        .invariant("at most \(toggles) toggles") { _, count in count <= toggles }
      if deadEnds { check = check.checking(.noDeadEnd) }
      do {
        try check.run(walks: 100, length: 20, seed: seed)
        return nil
      } catch let failure as PropertyFailure<String> { return (failure.property, failure.events) }
    },
  ]

  @Test("a step is handled, ignored or rejected, and the configuration and context follow", arguments: kinds)
  func responses(_ kind: Kind) throws {
    let seen = try kind.walk()
    #expect(seen.responses == ["handled", kind.refusal, "handled", "handled"])
    #expect(seen.configuration.contains("on") && seen.context == 3 && !seen.deadEnd, "\(seen)")
  }

  @Test("a configuration no event leaves is a dead end; a step there changes nothing", arguments: kinds)
  func deadEnd(_ kind: Kind) throws {
    let seen = try kind.walkToBreak()
    #expect(seen.responses == ["handled", "handled", kind.refusal], "\(seen)")
    #expect(seen.configuration.contains("broken") && seen.context == 1 && seen.deadEnd, "\(seen)")
  }

  @Test("one property check finds the same least counterexample in either kind", arguments: kinds)
  func sameCounterexample(_ kind: Kind) throws {
    // Smashing the lamp on is the shortest way to a dead end: two events, whatever the seed.
    for seed in UInt64(1)...5 {
      let failure = try #require(try kind.check(100, true, seed))
      #expect(failure.property == "no dead end" && failure.events == ["toggle", "smash"], "seed \(seed): \(failure)")
    }
    // An invariant on the context is shrunk to as few toggles as break it.
    let failure = try #require(try kind.check(1, false, 7))
    #expect(failure.property == "at most 1 toggles" && failure.events == ["toggle", "toggle"], "\(failure)")
  }

  @Test("the chart's old name is a deprecated alias of the one property check")
  @available(*, deprecated)
  func deprecatedAlias() throws {
    let check: ChartPropertyCheck<String, String, Int, Never> = PropertyCheck(chart: try Self.chart(), context: 0, alphabet: ["toggle"])
    let report: ChartPropertyCheck<String, String, Int, Never>.Summary = try check.run(walks: 2, length: 3, seed: 1)
    #expect(report.steps == 6)
  }
}

/// The one explorer explores both kinds by the same rules: the same default limit and
/// truncation, every broken invariant reported once with a shortest path, dead ends.
@Suite("One explorer: the same rules for tables and charts")
struct OneExplorerTests {
  typealias Lamp = OneModelTests

  /// What exploring the lamp found, as text (the kinds name their states and events alike).
  struct Found: Equatable, CustomStringConvertible {
    let configurations: Int
    let truncated: Bool
    let violations: [String]
    var description: String { "\(configurations) configurations\(truncated ? ", truncated" : ""): \(violations)" }
  }

  struct Kind: Sendable, CustomStringConvertible {
    let description: String
    /// Explores the lamp with at most `limit` configurations; invariants on the toggle count.
    let explore: @Sendable (_ limit: Int?, _ depth: Int) throws -> Found
  }

  static func found<D: ExplorableDefinition>(_ result: Exploration<D>) -> Found {
    Found(
      configurations: result.configurations, truncated: result.truncated,
      violations: result.violations.map { "\($0.property) after \($0.path.map { "\($0)" })" })
  }

  static let kinds = [
    Kind(description: "a table") { limit, depth in
      let explorer = Explorer(table: try Lamp.table(), context: 0, alphabet: [.toggle, .smash])
        .invariant("at most 2 toggles") { _, count in count <= 2 }
        .invariant("at most 3 toggles") { _, count in count <= 3 }
        .checking(.noDeadEnd)
      return found(limit.map { explorer.explore(depth: depth, limit: $0) } ?? explorer.explore(depth: depth))
    },
    Kind(description: "a chart") { limit, depth in
      let explorer = Explorer(chart: try Lamp.chart(), context: 0, alphabet: ["toggle", "smash"])
        .invariant("at most 2 toggles") { _, count in count <= 2 }
        .invariant("at most 3 toggles") { _, count in count <= 3 }
        .checking(.noDeadEnd)
      return found(limit.map { explorer.explore(depth: depth, limit: $0) } ?? explorer.explore(depth: depth))
    },
  ]

  @Test("every broken property is reported once, with a shortest path", arguments: kinds)
  func everyViolation(_ kind: Kind) throws {
    // The count grows with each toggle: each toggle makes a new configuration, and a smash from
    // `on` a dead end. Depth 5: counts 0...5, and the lamps broken at counts 1 and 3.
    let found = try kind.explore(nil, 5)
    #expect(
      found.violations == [
        "no dead end after [\"toggle\", \"smash\"]", "at most 2 toggles after [\"toggle\", \"toggle\", \"toggle\"]",
        "at most 3 toggles after [\"toggle\", \"toggle\", \"toggle\", \"toggle\"]",
      ], "\(found)")
    #expect(found.configurations == 6 + 2 && !found.truncated, "\(found)")
  }

  @Test("past the limit the search goes on without filing, and says it was truncated", arguments: kinds)
  func truncation(_ kind: Kind) throws {
    let found = try kind.explore(4, 5)
    #expect(found.configurations == 4 && found.truncated, "\(found)")
    // The default limit is the same for both kinds (1,000,000): 40 events deep is not cut
    // (counts 0...40, and the lamps broken at the 20 odd counts below 40).
    let deep = try kind.explore(nil, 40)
    #expect(deep.configurations == 41 + 20 && !deep.truncated, "\(deep)")
  }
}

@Suite("Simple paths over both kinds")
struct SimplePathsTests {
  typealias Lamp = OneModelTests

  @Test("a table and a chart give the same simple paths to the same state")
  func samePaths() throws {
    let table = Explorer(table: try Lamp.table(), context: 0, alphabet: [.toggle, .smash])
      .simplePaths(to: .broken, maxLength: 4).map { $0.map { "\($0)" } }
    let chart = Explorer(chart: try Lamp.chart(), context: 0, alphabet: ["toggle", "smash"])
      .simplePaths(to: "broken", maxLength: 4)
    // Each toggle changes the count, so no configuration repeats: smash after 1 or 3 toggles.
    #expect(table == [["toggle", "smash"], ["toggle", "toggle", "toggle", "smash"]])
    #expect(chart == table)
  }

  @Test("a chart's compound state is reached when a descendant is active")
  func compound() throws {
    let chart = try Chart<String, String, NoContext, Never>(name: "player", states: [
      .atomic("off", transitions: [.on("power", to: "playing")]),
      .compound("on", children: [.atomic("playing", transitions: [.on("pause", to: "paused")]), .atomic("paused")],
                transitions: [.on("power", to: "off")]),
    ])
    let paths = Explorer(chart: chart, context: NoContext(), alphabet: ["power", "pause"]).simplePaths(to: "on", maxLength: 3)
    #expect(paths == [["power"]])
    #expect(Explorer(chart: chart, context: NoContext(), alphabet: ["power", "pause"]).simplePaths(to: "paused", maxLength: 3) == [["power", "pause"]])
  }
}
