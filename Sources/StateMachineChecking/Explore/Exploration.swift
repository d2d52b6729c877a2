public import StateMachine

/// Bounded exhaustive exploration (model checking) of a table: breadth-first over
/// configurations (state and context) with a finite event alphabet, each configuration
/// visited once.
///
/// ```swift
/// let result = Explorer(table: CDPlayer.table, context: NoContext(), alphabet: CDPlayer.Event.allCases)
///     .explore(depth: 10)
/// print(result.coverage)            // rows 12/12, states 5/5
/// result.shortestPath(to: .playing) // [openClose, openClose, cdDetected, play]
/// ```
public struct Explorer<State: Discriminated & Hashable, Event: Discriminated, Context: Hashable & Sendable, Effect: Sendable>:
  PropertyChecking, Sendable
{
  /// The table explored.
  public typealias Table = TransitionTable<State, Event, Context, Effect>

  @usableFromInline let table: Table
  @usableFromInline let context: Context
  @usableFromInline let alphabet: [Event]
  /// The invariants every reached configuration must satisfy, and the step checks
  /// (``StepCheck/noRejection`` reports rejected events; without it they are skipped).
  public var properties = Properties<State, Context>()

  /// What of a context tells configurations apart (see ``abstracting(_:)``); `nil`: all of it.
  @usableFromInline var abstraction: (@Sendable (Context) -> AnyHashable)?

  /// Explores `table` from its initial state and `context`, trying every event of `alphabet`
  /// in every configuration.
  public init(table: Table, context: Context, alphabet: [Event]) {
    self.table = table
    self.context = context
    self.alphabet = alphabet
  }

  /// The explorer with configurations told apart by their state and `abstraction` of their
  /// context instead of the whole context, as ``ChartExplorer/abstracting(_:)`` does for a
  /// chart: keep what the guards and invariants depend on, and the space stays small.
  public func abstracting<Key: Hashable & Sendable>(_ abstraction: @escaping @Sendable (Context) -> Key) -> Self {
    var copy = self
    copy.abstraction = { AnyHashable(abstraction($0)) }
    return copy
  }

  /// A configuration as the search files it: its state and its context's key.
  @usableFromInline
  struct Filed<Key: Hashable>: Hashable {
    @usableFromInline let state: State
    @usableFromInline let key: Key
    @inlinable init(state: State, key: Key) { (self.state, self.key) = (state, key) }
  }

  @usableFromInline
  struct Configuration: Hashable {
    @usableFromInline let state: State
    @usableFromInline let context: Context
    @inlinable init(state: State, context: Context) {
      self.state = state
      self.context = context
    }
  }

  /// Explores up to `depth` events deep, stopping after `limit` configurations.
  @inlinable
  public func explore(depth: Int = 20, limit: Int = 1_000_000) -> Exploration<State, Event> {
    if let abstraction { return search(depth: depth, limit: limit, keying: AbstractedContext(abstraction)) }
    return search(depth: depth, limit: limit, keying: WholeContext())
  }

  /// The search, with contexts told apart by `keying`.
  @inlinable
  func search<Keying: ContextKeying>(depth: Int, limit: Int, keying: Keying) -> Exploration<State, Event>
  where Keying.Context == Context {
    typealias Key = Keying.Key
    let deadEnds = Set(table.analyze().deadEnds)
    let start = Configuration(state: table.initial, context: context)
    var index: [Filed<Key>: Int] = [Filed(state: start.state, key: keying.key(of: start.context)): 0]
    var parent: [(from: Int, event: Int)] = [(-1, -1)]
    var configurations = [start]
    var depthOf = [0]
    var rowsHit = Set<Int>()
    var violations: [Exploration<State, Event>.Violation] = []
    var violated = Set<String>()
    var firstReach: [State.Discriminant: Int] = [start.state.discriminant: 0]
    var truncated = false

    func path(to i: Int, then event: Int? = nil) -> [Event] {
      var events: [Event] = []
      var j = i
      while parent[j].from >= 0 {
        events.append(alphabet[parent[j].event])
        j = parent[j].from
      }
      events.reverse()
      if let event { events.append(alphabet[event]) }
      return events
    }
    func check(_ configuration: Configuration, at i: Int) {
      while let (property, message) = properties.broken(configuration.state, configuration.context, skipping: violated) {
        violated.insert(property)
        violations.append(.init(property: property, message: message, path: path(to: i)))
      }
      if properties.has(.noDeadEnd), !violated.contains("no dead end"), deadEnds.contains(configuration.state.discriminant) {
        violated.insert("no dead end")
        violations.append(.init(property: "no dead end", message: "\(configuration.state) is a dead end", path: path(to: i)))
      }
    }
    check(start, at: 0)

    var head = 0
    while head < configurations.count {
      let i = head
      head += 1
      guard depthOf[i] < depth else { continue }
      for (e, event) in alphabet.enumerated() {
        let step = table.step(configurations[i].state, configurations[i].context, event)
        if case .rejected(let reason) = step.outcome {
          if properties.has(.noRejection), !violated.contains("no rejection") {
            violated.insert("no rejection")
            violations.append(.init(property: "no rejection", message: "\(event) rejected in \(configurations[i].state): \(reason)", path: path(to: i, then: e)))
          }
          continue
        }
        if let row = step.row { rowsHit.insert(row) }
        let next = Configuration(state: step.state, context: step.context)
        let filed = Filed(state: next.state, key: keying.key(of: next.context))
        guard index[filed] == nil else { continue }
        guard configurations.count < limit else {
          truncated = true
          continue
        }
        let j = configurations.count
        index[filed] = j
        configurations.append(next)
        parent.append((i, e))
        depthOf.append(depthOf[i] + 1)
        if firstReach[next.state.discriminant] == nil { firstReach[next.state.discriminant] = j }
        check(next, at: j)
      }
    }
    var shortest: [State.Discriminant: [Event]] = [:]
    for (state, i) in firstReach { shortest[state] = path(to: i) }
    return Exploration(
      configurations: configurations.count, maxDepth: depthOf.max() ?? 0, truncated: truncated,
      shortestPaths: shortest, violations: violations,
      coverage: .init(
        rowsHit: rowsHit.sorted(), rowCount: table.rows.count,
        statesReached: table.stateCases.filter { firstReach[$0] != nil }, stateCount: table.stateCases.count))
  }
}

/// What an exploration found.
public struct Exploration<State: Discriminated, Event> {
  /// A violated property with a shortest counterexample.
  public struct Violation {
    /// The property broken.
    public let property: String
    /// Where it was broken.
    public let message: String
    /// A shortest event sequence from the initial configuration to the violation.
    public let path: [Event]

    @inlinable
    init(property: String, message: String, path: [Event]) {
      (self.property, self.message, self.path) = (property, message, path)
    }
  }

  /// Rows and states exercised.
  public struct Coverage: CustomStringConvertible {
    /// Indices (from 0) of the rows some step took.
    public let rowsHit: [Int]
    /// The table's rows.
    public let rowCount: Int
    /// State cases reached.
    public let statesReached: [State.Discriminant]
    /// The table's states.
    public let stateCount: Int

    @inlinable
    init(rowsHit: [Int], rowCount: Int, statesReached: [State.Discriminant], stateCount: Int) {
      (self.rowsHit, self.rowCount, self.statesReached, self.stateCount) = (rowsHit, rowCount, statesReached, stateCount)
    }

    /// Rows (indices from 0) never taken.
    public var rowsNeverHit: [Int] { (0..<rowCount).filter { !rowsHit.contains($0) } }

    public var description: String {
      "rows \(rowsHit.count)/\(rowCount), states \(statesReached.count)/\(stateCount)"
        + (rowsNeverHit.isEmpty ? "" : "; never hit: " + rowsNeverHit.map { "row \($0 + 1)" }.joined(separator: ", "))
    }
  }

  /// Distinct configurations visited.
  public let configurations: Int
  /// The deepest level reached.
  public let maxDepth: Int
  /// Whether the configuration limit cut the exploration short.
  public let truncated: Bool
  /// A shortest event sequence to each reached state case.
  public let shortestPaths: [State.Discriminant: [Event]]
  /// Every violated property, each with a shortest counterexample.
  public let violations: [Violation]
  /// Rows and states exercised.
  public let coverage: Coverage

  @inlinable
  init(
    configurations: Int, maxDepth: Int, truncated: Bool, shortestPaths: [State.Discriminant: [Event]],
    violations: [Violation], coverage: Coverage
  ) {
    (self.configurations, self.maxDepth, self.truncated) = (configurations, maxDepth, truncated)
    (self.shortestPaths, self.violations, self.coverage) = (shortestPaths, violations, coverage)
  }

  /// A shortest event sequence reaching a state of case `state`, if one was reached.
  public func shortestPath(to state: State.Discriminant) -> [Event]? { shortestPaths[state] }
}

extension Exploration: Sendable where Event: Sendable {}
extension Exploration.Violation: Sendable where Event: Sendable {}
extension Exploration.Coverage: Sendable {}
