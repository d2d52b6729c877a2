import StateMachine
import StateMachineChecking

enum ExploreCommand {
  static let help = """
    usage: fsm explore <machine|spec.md|chart.scxml|chart.md> [--depth N] [--limit N] [--walks N --length N --seed S]

    Explores the machine breadth-first over its configurations (a table's state, a chart's
    active states and history, with the context) with every event of its alphabet, and prints
    one report for every kind: the alphabet, the configurations, coverage with the transitions
    (a table's rows) never taken and the states never entered, each state reached with a
    shortest path to it, and every violation with its shortest path (rejected events, dead
    ends, broken invariants, a chart's macrosteps that never settle). With --walks, also runs
    seeded random walks. A chart file is explored (and walked) over the event names its
    transitions mention; one that invokes charts (<invoke>) is explored with them, as one
    system whose configurations are its own with each running child's, over its events but
    those the system raises itself (done.invoke.*, error.*). For a spec table (no code behind
    its guards, so no walks): its states over the events it names, each guarded row taken as
    holding or not, rows never hit, a shortest path to each state, and dead ends.

    options:
      --depth N    events deep at most (default 20)
      --limit N    configurations at most (default 1000000)
      --walks N    random walks to run (default 0)
      --length N   steps per walk (default 50)
      --seed S     the walks' seed (default: random, printed)

    exit codes: 0 no violation, 1 a violation, 2 bad usage
    """

  typealias Run = @Sendable (Int, Int, Walks?) -> (lines: [String], failed: Bool)

  /// How to explore the catalog's machine `name`: its model's alphabet and invariants.
  static func explorer(for name: String) -> Run? { FSM.catalog.explorers[name] }

  /// How `explore` checks a model of any kind: its exploration, then its walks when asked for.
  static func run<Definition: ExplorableDefinition>(_ model: MachineModel<Definition>) -> Run where Definition.Context: Sendable {
    { depth, limit, walks in
      let (lines, failed) = report(model.explorer.explore(depth: depth, limit: limit), alphabet: model.alphabet.map { "\($0)" })
      return walking(model.propertyCheck, walks, after: (lines, failed))
    }
  }

  /// The report `explored`, and after it the walks asked for (none: the report alone) of
  /// `check`: their count and seed, or the first failure, shrunk.
  static func walking<Definition>(
    _ check: @autoclosure () -> PropertyCheck<Definition>, _ walks: Walks?, after explored: (lines: [String], failed: Bool)
  ) -> (lines: [String], failed: Bool) {
    guard let walks, walks.walks > 0 else { return explored }
    var (lines, failed) = explored
    do throws(PropertyFailure<Definition.Event>) {
      let r = try check().run(walks: walks.walks, length: walks.length, seed: walks.seed)
      lines.append("walks: \(r.walks) walks, \(r.steps) steps, seed \(r.seed): no failure")
    } catch {
      lines.append("walks: \(error.description)")
      failed = true
    }
    return (lines, failed)
  }

  /// The random walks asked for: how many, how long, and their seed (`nil`: a random one).
  typealias Walks = (walks: Int, length: Int, seed: UInt64?)

  /// The document `root` and the charts it invokes, explored (and walked) together from
  /// `context`, a configuration being the document's with each running child's, over `inputs`,
  /// the events from outside the system (each the event `named` makes of it).
  static func exploreSystem<ID, Event, Context: Hashable & Sendable, Work>(
    of root: Chart<ID, Event, Context, Command<Event, Work>>, context: Context, inputs: [String], named: (String) -> Event,
    title: String, depth: Int, limit: Int, walks: Walks?
  ) -> (lines: [String], failed: Bool) {
    let events = inputs.map { SystemEvent<Event>.root(named($0)) }
    let result = Explorer(MachineSystem(chart: root), context: context, alphabet: events).explore(depth: depth, limit: limit)
    var (lines, failed) = report(result, alphabet: inputs)
    lines.insert("system: \(title)", at: 1)
    return walking(PropertyCheck(MachineSystem(chart: root), context: context, alphabet: events), walks, after: (lines, failed))
  }

  static func exploreChart(
    _ chart: SCXMLDocument.DocumentChart, system: DocumentSystem?, depth: Int, limit: Int, walks: Walks?
  ) -> (lines: [String], failed: Bool) {
    let alphabet = chart.eventNames
    if let system {
      return exploreSystem(
        of: system.root, context: NoContext(), inputs: system.inputs, named: { $0 }, title: system.title, depth: depth, limit: limit,
        walks: walks)
    }
    let result = Explorer(chart: chart, context: NoContext(), alphabet: alphabet).explore(depth: depth, limit: limit)
    return walking(PropertyCheck(chart: chart, context: NoContext(), alphabet: alphabet), walks, after: report(result, alphabet: alphabet))
  }

  /// The one report of an exploration, a table's or a chart's: the alphabet, the size of the
  /// space, coverage with what was never taken or entered, a shortest path to each state
  /// reached, and every violation with its shortest path.
  static func report<Definition>(_ result: Exploration<Definition>, alphabet: [String]) -> (lines: [String], failed: Bool) {
    let path = { (events: [Definition.Event]) in events.map { "\($0)" }.joined(separator: ", ") }
    let coverage = result.coverage
    var lines = [
      "alphabet: " + alphabet.joined(separator: ", "),
      "configurations: \(result.configurations) (depth \(result.maxDepth)\(result.truncated ? ", limit reached" : ""))",
      "coverage: \(coverage)",
    ]
    for transition in coverage.transitionsNeverTaken { lines.append("  never taken: \(coverage.describeTransition(transition))") }
    if !coverage.statesNeverEntered.isEmpty {
      lines.append("  states never entered: " + coverage.statesNeverEntered.map { "\($0)" }.joined(separator: ", "))
    }
    lines.append("states reached, with a shortest path:")
    for state in coverage.statesReached {
      let events = result.shortestPath(to: state) ?? []
      lines.append("  \(state): " + (events.isEmpty ? "(start)" : path(events)))
    }
    for violation in result.violations {
      lines.append("violation: \(violation.property): \(violation.message)")
      lines.append("  shortest path: " + path(violation.path))
    }
    return (lines, !result.violations.isEmpty)
  }

  static func run(_ words: [String]) -> CommandResult {
    let arguments: Arguments
    let depth, limit, walks, length: Int
    let seed: UInt64?
    do throws(Arguments.Problem) {
      arguments = try Arguments(
        words, options: ["--depth", "--limit", "--walks", "--length", "--seed"], flags: ["--help"])
      depth = try arguments.integer("--depth", default: 20, range: 0...10_000)
      limit = try arguments.integer("--limit", default: 1_000_000, range: 1...100_000_000)
      walks = try arguments.integer("--walks", default: 0, range: 0...10_000_000)
      length = try arguments.integer("--length", default: 50, range: 1...1_000_000)
      if let text = arguments.options["--seed"] {
        guard let value = UInt64(text) else {
          throw Arguments.Problem.badValue(option: "--seed", value: text, expected: "a whole number from 0 to \(UInt64.max)")
        }
        seed = value
      } else {
        seed = nil
      }
    } catch {
      return .usage(error.description, help: help)
    }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    guard let name = arguments.positionals.first else { return .usage("missing argument <machine>", help: help) }
    if arguments.positionals.count > 1 { return .usage("unexpected argument '\(arguments.positionals[1])'", help: help) }
    if name.hasSuffix(".scxml") || name.hasSuffix(".md") {
      switch MachineSource.resolve(name) {
      case .success(.chart(let chart, let file)):
        let system: DocumentSystem?
        do throws(SCXMLError) { system = try DocumentSystem.of(chart, file: file) } catch { return .failure(error.description) }
        let (lines, failed) = exploreChart(chart, system: system, depth: depth, limit: limit, walks: (walks, length, seed))
        let text = lines.joined(separator: "\n") + "\n"
        return failed ? .findings(text) : .success(text)
      case .success(.spec(let spec)):
        // (A spec's guards are names without code: there is no machine to walk.)
        if walks > 0 { return .usage("--walks walks a machine; '\(name)' is a spec table, whose guards have no code to run", help: help) }
        let (lines, failed) = SpecGraph(spec: spec).explore(depth: depth)
        let text = lines.joined(separator: "\n") + "\n"
        return failed ? .findings(text) : .success(text)
      case .success(.scripted(let chart, _)):
        // Each event as a name alone, without data.
        let names = chart.eventNames
        let (context, alphabet) = (SCXMLSession(for: chart, sessionID: "explore"), names.map { SCXMLEvent($0) })
        let (lines, failed) =
          chart.declaresInvokes
          // With the charts it invokes, as one system, over the events from outside it.
          ? exploreSystem(
            of: chart, context: context, inputs: DocumentSystem.inputs(of: names), named: { SCXMLEvent($0) },
            title: DocumentSystem.title(of: chart), depth: depth, limit: limit, walks: (walks, length, seed))
          : walking(
            PropertyCheck(chart: chart, context: context, alphabet: alphabet), (walks, length, seed),
            after: report(Explorer(chart: chart, context: context, alphabet: alphabet).explore(depth: depth, limit: limit), alphabet: names))
        let text = lines.joined(separator: "\n") + "\n"
        return failed ? .findings(text) : .success(text)
      case .success: break
      case .failure(let error): return .failure(error.message)
      }
    }
    guard let explore = explorer(for: name) else {
      let names = FSM.catalog.machines.map(\.name).filter { explorer(for: $0) != nil }.joined(separator: ", ")
      if FSM.catalog.machine(named: name) != nil {
        // Listed, but nothing says what to send it: a model gives its alphabet.
        let others = names.isEmpty ? "no machine of the catalog has one" : "explorable: \(names)"
        return .failure("machine '\(name)' has no model to explore (a catalog Model gives its alphabet and invariants); \(others)")
      }
      return .usage("unknown machine '\(name)'; expected one of: \(names)", help: help)
    }
    let (lines, failed) = explore(depth, limit, (walks, length, seed))
    let text = lines.joined(separator: "\n") + "\n"
    return failed ? .findings(text) : .success(text)
  }
}
