public import StateMachine

/// What an ``Explorer`` found, for a machine of any kind.
public struct Exploration<Definition: ExplorableDefinition>: Sendable {
  /// The events of the machine explored.
  public typealias Event = Definition.Event

  /// A broken property with a shortest counterexample.
  public struct Violation: Sendable {
    /// The property broken: an invariant's name, `no rejection`, `no dead end`, or `settles`
    /// for a chart's macrostep that never settles.
    public let property: String
    /// Where it was broken.
    public let message: String
    /// A shortest event sequence from the start that breaks it.
    public let path: [Event]

    @inlinable
    init(property: String, message: String, path: [Event]) { (self.property, self.message, self.path) = (property, message, path) }
  }

  /// The transitions (a table's rows) and states the exploration exercised.
  public struct Coverage: Sendable, CustomStringConvertible {
    /// The transitions some step took, by number (a table's rows from 0; a chart's as
    /// `Chart.declaredTransitions` numbers them), in increasing order.
    public let transitionsTaken: [Int]
    /// The transitions no step took, in increasing order.
    public let transitionsNeverTaken: [Int]
    /// How many transitions the machine declares.
    public let transitionCount: Int
    /// The states some configuration reached (a chart's: entered, even within a macrostep).
    public let statesReached: [Definition.StateName]
    /// The states never reached.
    public let statesNeverEntered: [Definition.StateName]
    /// How many states the machine has.
    public let stateCount: Int
    @usableFromInline let describe: @Sendable (Int) -> String
    @usableFromInline let noun: String

    @inlinable
    init(
      transitionsTaken: [Int], transitionsNeverTaken: [Int], statesReached: [Definition.StateName],
      statesNeverEntered: [Definition.StateName], describe: @escaping @Sendable (Int) -> String, noun: String
    ) {
      (self.transitionsTaken, self.transitionsNeverTaken) = (transitionsTaken, transitionsNeverTaken)
      transitionCount = transitionsTaken.count + transitionsNeverTaken.count
      (self.statesReached, self.statesNeverEntered) = (statesReached, statesNeverEntered)
      stateCount = statesReached.count + statesNeverEntered.count
      (self.describe, self.noun) = (describe, noun)
    }

    /// What transition `number` does, as the machine describes it (a table's: `row 3: from
    /// idle on load -> loading`).
    public func describeTransition(_ number: Int) -> String { describe(number) }

    /// `rows 12/12, states 5/5` (a table's line also names its rows never hit); `transitions
    /// 9/10, states 11/11`.
    public var description: String {
      "\(noun) \(transitionsTaken.count)/\(transitionCount), states \(statesReached.count)/\(stateCount)"
        + (noun != "rows" || transitionsNeverTaken.isEmpty ? "" : "; never hit: " + transitionsNeverTaken.map { "row \($0 + 1)" }.joined(separator: ", "))
    }

    /// A table's rows some step took.
    @available(*, deprecated, renamed: "transitionsTaken")
    public var rowsHit: [Int] { transitionsTaken }
    /// A table's rows.
    @available(*, deprecated, renamed: "transitionCount")
    public var rowCount: Int { transitionCount }
    /// A table's rows never taken.
    @available(*, deprecated, renamed: "transitionsNeverTaken")
    public var rowsNeverHit: [Int] { transitionsNeverTaken }
  }

  /// Distinct configurations visited.
  public let configurations: Int
  /// The deepest level reached, in events.
  public let maxDepth: Int
  /// Whether the configuration limit cut the exploration short.
  public let truncated: Bool
  /// A shortest event sequence to each state reached (a chart's: each state ever entered,
  /// compound and parallel ones included, a state entered and left within a macrostep too).
  public let shortestPaths: [Definition.StateName: [Event]]
  /// Every broken property, each with a shortest counterexample.
  public let violations: [Violation]
  /// The transitions and states exercised.
  public let coverage: Coverage

  @inlinable
  init(
    configurations: Int, maxDepth: Int, truncated: Bool, shortestPaths: [Definition.StateName: [Event]], violations: [Violation],
    coverage: Coverage
  ) {
    (self.configurations, self.maxDepth, self.truncated) = (configurations, maxDepth, truncated)
    (self.shortestPaths, self.violations, self.coverage) = (shortestPaths, violations, coverage)
  }

  /// A shortest event sequence reaching `state`, if it was reached.
  public func shortestPath(to state: Definition.StateName) -> [Event]? { shortestPaths[state] }

  /// The states never entered (what a chart's exploration called them).
  @available(*, deprecated, message: "use coverage.statesNeverEntered")
  public var statesNeverEntered: [Definition.StateName] { coverage.statesNeverEntered }
  /// The transitions never taken, described (what a chart's exploration called them).
  @available(*, deprecated, message: "use coverage.transitionsNeverTaken and coverage.describeTransition(_:)")
  public var transitionsNeverTaken: [String] { coverage.transitionsNeverTaken.map(coverage.describe) }
}

/// What ``Explorer``'s search gathers, in the caller's specialisation; made into an
/// ``Exploration`` (whose fields callers only read) when it ends.
@usableFromInline
struct ExplorationSearch<Definition: ExplorableDefinition> {
  @usableFromInline let alphabet: [Definition.Event]
  /// The states coverage counts, as the machine's explorer numbers them.
  @usableFromInline let states: [(name: Definition.StateName, counts: Bool)]
  @usableFromInline var configurations = 0
  @usableFromInline var maxDepth = 0
  @usableFromInline var truncated = false
  @usableFromInline var violations: [Exploration<Definition>.Violation] = []
  /// The properties already reported broken (each is reported once, with its shortest path).
  @usableFromInline var broken: Set<String> = []
  @usableFromInline var shortestPaths: [Definition.StateName: [Definition.Event]] = [:]
  /// Per configuration, by number: the one it was first reached from (-1: the start) and the
  /// event (a position in the alphabet), and its depth.
  @usableFromInline var parents: [(from: Int, event: Int)] = []
  @usableFromInline var depths: [Int] = []

  @inlinable
  init(alphabet: [Definition.Event], states: [(name: Definition.StateName, counts: Bool)]) { (self.alphabet, self.states) = (alphabet, states) }

  /// Makes room for `configurations` configurations and a path to every state, so that a small
  /// machine's search does not grow its arrays and table step by step (each growth a copy).
  @inlinable
  mutating func reserve(_ configurations: Int) {
    parents.reserveCapacity(configurations)
    depths.reserveCapacity(configurations)
    shortestPaths.reserveCapacity(states.count)
  }

  /// The next configuration was first reached from configuration `from` by event `event`
  /// (-1, -1: the start).
  @inlinable
  mutating func reached(from: Int, by event: Int) {
    let depth = from < 0 ? 0 : depths[from] + 1
    parents.append((from, event))
    depths.append(depth)
    maxDepth = max(maxDepth, depth)
  }

  /// The shortest events to configuration `i`, then the event at `event` of the alphabet if any.
  @inlinable
  func path(to i: Int, then event: Int?) -> [Definition.Event] {
    var events: [Definition.Event] = []
    if let event { events.append(alphabet[event]) }
    var j = i
    while j >= 0, j < parents.count, parents[j].from >= 0 {
      events.append(alphabet[parents[j].event])
      j = parents[j].from
    }
    return events.reversed()
  }

  /// States (numbered as ``states``) entered for the first time by a step from configuration
  /// `i` (by the event at `event`; `nil`: the start).
  @inlinable
  mutating func firstEntered(_ entered: [Int], at i: Int, then event: Int?) {
    for s in entered where shortestPaths[states[s].name] == nil {
      shortestPaths[states[s].name] = path(to: i, then: event)
    }
  }

  /// `property` is broken at configuration `i` (after the event at `event`, when that step did
  /// not end well): reported the first time only.
  @inlinable
  mutating func violated(_ property: String, _ message: String, at i: Int, then event: Int?) {
    guard broken.insert(property).inserted else { return }
    violations.append(.init(property: property, message: message, path: path(to: i, then: event)))
  }

  /// The exploration of `definition` this search found, with its coverage (`taken`: the
  /// transitions taken, in increasing order).
  @inlinable
  func exploration(of definition: Definition, taken: [Int]) -> Exploration<Definition> {
    let declared = definition._coverageTransitions
    // Both lists are in increasing order: merged, without a set.
    var k = 0
    var (takenDeclared, neverTaken): ([Int], [Int]) = ([], [])
    for t in declared {
      while k < taken.count, taken[k] < t { k += 1 }
      if k < taken.count, taken[k] == t { takenDeclared.append(t) } else { neverTaken.append(t) }
    }
    var reached: [Definition.StateName] = []
    var neverEntered: [Definition.StateName] = []
    for state in states where state.counts {
      if shortestPaths[state.name] == nil { neverEntered.append(state.name) } else { reached.append(state.name) }
    }
    return Exploration(
      configurations: configurations, maxDepth: maxDepth, truncated: truncated, shortestPaths: shortestPaths, violations: violations,
      coverage: .init(
        transitionsTaken: takenDeclared, transitionsNeverTaken: neverTaken, statesReached: reached,
        statesNeverEntered: neverEntered, describe: { [definition] in definition._describeTransition($0) },
        noun: Definition._transitionsNoun))
  }
}
