import StateMachine
import StateMachineChecking

enum ExploreCommand {
  static let help = """
    usage: fsm explore <machine|spec.md|chart.scxml|chart.md> [--depth N] [--limit N] [--walks N --length N --seed S]

    Explores the machine breadth-first over its configurations (state and context) with every
    event of its alphabet, and prints coverage (rows and states exercised, rows never hit),
    the reachable states with a shortest path to each, and any violation with its shortest
    path (rejected events, dead ends). With --walks, also runs seeded random walks. For a
    chart: its configurations (active states and history) over the event names its
    transitions mention, transitions never taken, states never active, a shortest path to
    each state, and macrosteps that never settle. For a spec table (no code behind its guards):
    its states over the events it names, each guarded row taken as holding or not, rows never
    hit, a shortest path to each state, and dead ends.

    options:
      --depth N    events deep at most (default 20)
      --limit N    configurations at most (default 1000000)
      --walks N    random walks to run (default 0)
      --length N   steps per walk (default 50)
      --seed S     the walks' seed (default: random, printed)

    exit codes: 0 no violation, 1 a violation, 2 bad usage
    """

  typealias Run = @Sendable (Int, Int, (walks: Int, length: Int, seed: UInt64?)?) -> (lines: [String], failed: Bool)

  /// How to explore the catalog's machine `name`: its model's alphabet and invariants.
  static func explorer(for name: String) -> Run? { FSM.catalog.explorers[name] }

  static func run<S, E, C, Effect>(_ model: MachineModel<TransitionTable<S, E, C, Effect>>) -> Run {
    { depth, limit, walks in
      report(model.explorer.explore(depth: depth, limit: limit), walks: walks) { walks in
        do throws(PropertyFailure<E>) {
          let r = try model.propertyCheck.run(walks: walks.walks, length: walks.length, seed: walks.seed)
          return ("walks: \(r.walks) walks, \(r.steps) steps, seed \(r.seed): no failure", false)
        } catch {
          return ("walks: \(error.description)", true)
        }
      }
    }
  }

  static func report<S, E, C, Effect>(
    _ result: Exploration<TransitionTable<S, E, C, Effect>>, walks: (walks: Int, length: Int, seed: UInt64?)?,
    run: ((walks: Int, length: Int, seed: UInt64?)) -> (String, Bool)
  ) -> (lines: [String], failed: Bool) {
    var lines = [
      "configurations: \(result.configurations) (depth \(result.maxDepth)\(result.truncated ? ", limit reached" : ""))",
      "coverage: \(result.coverage)",
    ]
    for row in result.coverage.transitionsNeverTaken { lines.append("  never hit: \(result.coverage.describeTransition(row))") }
    lines += [
      "reachable states:",
    ]
    for state in result.coverage.statesReached {
      let path = result.shortestPath(to: state) ?? []
      lines.append("  \(state): " + (path.isEmpty ? "(initial)" : path.map { "\($0)" }.joined(separator: ", ")))
    }
    for violation in result.violations {
      lines.append("violation: \(violation.property): \(violation.message)")
      lines.append("  shortest path: " + violation.path.map { "\($0)" }.joined(separator: ", "))
    }
    var failed = !result.violations.isEmpty
    if let walks, walks.walks > 0 {
      let (line, walkFailed) = run(walks)
      lines.append(line)
      failed = failed || walkFailed
    }
    return (lines, failed)
  }

  /// Explores a shipped chart over its model's alphabet, with its invariants; with walks, also
  /// random walks.
  static func run<ID, E, C, Effect>(_ model: MachineModel<Chart<ID, E, C, Effect>>) -> Run {
    { depth, limit, walks in
      var (lines, failed) = report(
        model.explorer.explore(depth: depth, limit: limit), chart: model.definition, alphabet: model.alphabet.map { "\($0)" })
      if let walks, walks.walks > 0 {
        do throws(PropertyFailure<E>) {
          let r = try model.propertyCheck.run(walks: walks.walks, length: walks.length, seed: walks.seed)
          lines.append("walks: \(r.walks) walks, \(r.steps) steps, seed \(r.seed): no failure")
        } catch {
          lines.append("walks: \(error.description)")
          failed = true
        }
      }
      return (lines, failed)
    }
  }

  /// Explores a document chart over the event names its transitions mention.
  static func exploreChart(_ chart: SCXMLDocument.DocumentChart, depth: Int, limit: Int) -> (lines: [String], failed: Bool) {
    let alphabet = chart.eventNames
    let result = Explorer(chart: chart, context: NoContext(), alphabet: alphabet).explore(depth: depth, limit: limit)
    return report(result, chart: chart, alphabet: alphabet)
  }

  static func report<ID, E, C, Effect>(
    _ result: Exploration<Chart<ID, E, C, Effect>>, chart: Chart<ID, E, C, Effect>, alphabet: [String]
  ) -> (lines: [String], failed: Bool) {
    let path = { (events: [E]) in events.map { "\($0)" }.joined(separator: ", ") }
    var lines = [
      "alphabet: " + alphabet.joined(separator: ", "),
      "configurations: \(result.configurations) (depth \(result.maxDepth)\(result.truncated ? ", limit reached" : ""))",
      "coverage: \(result.coverage)",
    ]
    let coverage = result.coverage
    if !coverage.statesNeverEntered.isEmpty { lines.append("states never entered: " + coverage.statesNeverEntered.map { "\($0)" }.joined(separator: ", ")) }
    for transition in coverage.transitionsNeverTaken { lines.append("never taken: \(coverage.describeTransition(transition))") }
    lines.append("states, with a shortest path:")
    for id in chart.stateIDs {
      guard let events = result.shortestPath(to: id) else { continue }
      lines.append("  \(id): " + (events.isEmpty ? "(start)" : path(events)))
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
      case .success(.chart(let chart, _)):
        let (lines, failed) = exploreChart(chart, depth: depth, limit: limit)
        let text = lines.joined(separator: "\n") + "\n"
        return failed ? .findings(text) : .success(text)
      case .success(.spec(let spec)):
        let (lines, failed) = SpecGraph(spec: spec).explore(depth: depth)
        let text = lines.joined(separator: "\n") + "\n"
        return failed ? .findings(text) : .success(text)
      case .success: break
      case .failure(let error): return .failure(error.message)
      }
    }
    guard let explore = explorer(for: name) else {
      let names = FSM.catalog.machines.map(\.name).filter { explorer(for: $0) != nil }.joined(separator: ", ")
      return .usage("unknown machine '\(name)'; expected one of: \(names)", help: help)
    }
    let (lines, failed) = explore(depth, limit, (walks, length, seed))
    let text = lines.joined(separator: "\n") + "\n"
    return failed ? .findings(text) : .success(text)
  }
}
