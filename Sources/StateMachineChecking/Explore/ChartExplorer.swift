public import StateMachine

/// Bounded exhaustive exploration of a statechart: breadth-first over its configurations
/// (active states, history and context), trying every event of a finite alphabet in each,
/// each configuration visited once.
///
/// ```swift
/// let result = ChartExplorer(chart: chart, context: NoContext(), alphabet: ["power", "play"])
///     .invariant("never both off and playing") { states, _ in !(states.contains("off") && states.contains("playing")) }
///     .explore(depth: 12)
/// print(result.coverage)                    // transitions 9/10, states 11/11
/// result.shortestPath(to: "loud")           // ["power", "louder"]
/// ```
public struct ChartExplorer<ID: Hashable & Sendable, Event: Sendable, Context: Hashable & Sendable, Effect: Sendable>: ChartChecking {
  @usableFromInline let chart: Chart<ID, Event, Context, Effect>
  @usableFromInline let context: Context
  @usableFromInline let alphabet: [Event]
  /// The chart's states in document order (``Chart/states``, read once).
  @usableFromInline let states: [(id: ID, isHistory: Bool)]
  /// The invariants checked in every configuration.
  public var invariants: [(name: String, holds: @Sendable (_ configuration: [ID], _ context: Context) -> Bool)] = []
  /// What of a context tells configurations apart (see ``abstracting(_:)``); `nil`: all of it.
  @usableFromInline var abstraction: (@Sendable (Context) -> AnyHashable)?

  /// Explores `chart` from its start with `context`, trying every event of `alphabet`.
  public init(chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event]) {
    (self.chart, self.context, self.alphabet) = (chart, context, alphabet)
    states = chart.states
  }

  /// The explorer with configurations told apart by `abstraction` of their context instead of
  /// the whole context: two configurations with the same active states and history whose
  /// contexts give the same key are one configuration, explored once from the first reached.
  ///
  /// For a context too rich to explore whole (the users of every page loaded, a list of files
  /// being synced), keep what the guards and invariants depend on: a count, a flag, a bound.
  /// The space is then as small as those make it. It is an abstraction: behaviour that depends
  /// on what the key drops is explored only as the first context reached shows it.
  ///
  /// ```swift
  /// ChartExplorer(chart: Loader.chart, context: .init(), alphabet: alphabet)
  ///     .abstracting { context in [context.pages.count, context.attempts] }
  ///     .explore(depth: 30)
  /// ```
  public func abstracting<Key: Hashable & Sendable>(_ abstraction: @escaping @Sendable (Context) -> Key) -> Self {
    var copy = self
    copy.abstraction = { AnyHashable(abstraction($0)) }
    return copy
  }

  /// Explores up to `depth` events deep, stopping after `limit` configurations. A macrostep
  /// that does not settle is a violation (its path is reported) and is not explored further.
  ///
  /// (Inlinable: the search is specialised for your chart's types where you call it.)
  @inlinable
  public func explore(depth: Int = 20, limit: Int = 100_000) -> ChartExploration<ID, Event> {
    if let abstraction { return search(depth: depth, limit: limit, keying: AbstractedContext(abstraction)) }
    return search(depth: depth, limit: limit, keying: WholeContext())
  }

  /// The search, with contexts told apart by `keying`.
  @inlinable
  func search<Keying: ContextKeying>(depth: Int, limit: Int, keying: Keying) -> ChartExploration<ID, Event> where Keying.Context == Context {
    typealias Machine = ChartMachine<ID, Event, Context, Effect>
    var result = ChartSearch<ID, Event>()
    // One machine steps from every configuration reached, put back at each one's position
    // (a few words) instead of copied whole; it gathers coverage as bits as it goes.
    var machine = Machine(chart, context: context)
    machine._gatherCoverage()
    machine._discardsOutputs = true
    let ordinals = alphabet.map { machine._ordinal(of: $0) }
    var violated = Set<String>()
    do {
      _ = try machine.start()
    } catch {
      machine._dropCoverage()
      result.violations.append(.init(property: "settles", message: error.description, path: []))
      return result.exploration(of: chart, states: states, taken: machine._coveredTransitions)
    }
    // Growing the index refiles every position in it: start with room for a small chart.
    var index = ChartPositionIndex(capacity: min(limit, 128), keying: keying)
    let first = machine._position
    let firstKey = keying.key(of: first.context)
    _ = index.file(first, key: firstKey, contextHash: firstKey.hashValue)
    var parent: [(from: Int, event: Int)] = [(-1, -1)]
    var depthOf = [0]
    func path(to i: Int) -> [Event] {
      var events: [Event] = []
      var j = i
      while parent[j].from >= 0 {
        events.append(alphabet[parent[j].event])
        j = parent[j].from
      }
      return events.reversed()
    }
    func firstEntered(_ machine: inout Machine, at i: Int, then event: Event?) {
      for s in machine._keepCoverage() where result.shortestPaths[states[s].id] == nil {
        result.shortestPaths[states[s].id] = event.map { path(to: i) + [$0] } ?? path(to: i)
      }
    }
    func visit(_ machine: Machine, at i: Int) {
      if let (name, message) = broken(machine), !violated.contains(name) {
        violated.insert(name)
        result.violations.append(.init(property: name, message: message, path: path(to: i)))
      }
    }
    firstEntered(&machine, at: 0, then: nil)
    visit(machine, at: 0)
    var head = 0
    // Whether the machine is still at `positions[head - 1]` (an unhandled step changes nothing).
    var atHead = true
    while head < index.count {
      let i = head
      head += 1
      atHead = false
      guard depthOf[i] < depth, !index[i].isHalted else { continue }
      for (e, event) in alphabet.enumerated() {
        if !atHead { machine._return(to: index[i]) }
        atHead = true
        let step: ChartStep<Event, Effect>
        do {
          step = try machine._send(event, ordinal: ordinals[e])
        } catch {
          atHead = false
          // What the macrostep covered before it was stopped does not count, as before.
          machine._dropCoverage()
          if !violated.contains("settles") {
            violated.insert("settles")
            result.violations.append(.init(property: "settles", message: error.description, path: path(to: i) + [event]))
          }
          continue
        }
        guard step.outcome == .transitioned else { continue }
        atHead = false
        if machine._coverageGrew { firstEntered(&machine, at: i, then: event) }
        // One lookup that files the position as the next configuration when it is new.
        let position = machine._position
        let positionKey = keying.key(of: position.context)
        let (next, new) = index.file(position, key: positionKey, contextHash: index.contextHash(of: positionKey, near: i))
        guard new else { continue }
        guard next < limit else {
          index.removeLast()
          result.truncated = true
          break
        }
        parent.append((i, e))
        depthOf.append(depthOf[i] + 1)
        result.maxDepth = max(result.maxDepth, depthOf[i] + 1)
        visit(machine, at: next)
      }
    }
    result.configurations = index.count
    return result.exploration(of: chart, states: states, taken: machine._coveredTransitions)
  }
}

/// What ``ChartExplorer/explore(depth:limit:)`` found.
public struct ChartExploration<ID: Hashable & Sendable, Event: Sendable>: Sendable {
  /// An invariant broken, or a macrostep that did not settle, with the shortest path to it.
  public struct Violation: Sendable {
    /// The invariant broken, or `settles` for a macrostep that never settles.
    public let property: String
    /// Where it was broken.
    public let message: String
    /// The shortest event sequence from the start that breaks it.
    public let path: [Event]

    @usableFromInline
    init(property: String, message: String, path: [Event]) { (self.property, self.message, self.path) = (property, message, path) }
  }

  /// Configurations reached.
  public internal(set) var configurations = 0
  /// The deepest level reached, in events.
  public internal(set) var maxDepth = 0
  /// The limit stopped the search before every configuration was reached.
  public internal(set) var truncated = false
  /// Every broken invariant, each with a shortest path.
  public internal(set) var violations: [Violation] = []
  /// A shortest event sequence to each state ever entered (compound and parallel ones included;
  /// a state entered and left within a macrostep too).
  public internal(set) var shortestPaths: [ID: [Event]] = [:]
  /// States (not history) never entered.
  public internal(set) var statesNeverEntered: [ID] = []
  /// Declared transitions never taken, as `describeTransition(_:)` prints them (described
  /// when read: an exploration nobody reads the coverage of costs no text).
  public var transitionsNeverTaken: [String] { neverTaken.map(describe) }
  /// The declared transitions never taken, by number.
  var neverTaken: [Int] = []
  /// How the chart describes a transition.
  var describe: @Sendable (Int) -> String = { "transition \($0)" }
  var transitionsTaken = Set<Int>()
  var transitionCount = 0
  var stateCount = 0

  init() {}

  /// The shortest event sequence that makes `state` active, if any does.
  public func shortestPath(to state: ID) -> [Event]? { shortestPaths[state] }

  /// `transitions 9/10, states 11/11`.
  public var coverage: String {
    "transitions \(transitionCount - neverTaken.count)/\(transitionCount), states \(stateCount - statesNeverEntered.count)/\(stateCount)"
  }
}

/// What ``ChartExplorer``'s search gathers, in the caller's specialisation; made into a
/// ``ChartExploration`` (whose fields callers only read) when it ends.
@usableFromInline
struct ChartSearch<ID: Hashable & Sendable, Event: Sendable> {
  @usableFromInline var configurations = 0
  @usableFromInline var maxDepth = 0
  @usableFromInline var truncated = false
  @usableFromInline var violations: [ChartExploration<ID, Event>.Violation] = []
  @usableFromInline var shortestPaths: [ID: [Event]] = [:]

  @inlinable
  init() {}

  /// The exploration of `chart` this search found, with its coverage.
  @usableFromInline
  func exploration<Context, Effect>(
    of chart: Chart<ID, Event, Context, Effect>, states: [(id: ID, isHistory: Bool)], taken: [Int]
  ) -> ChartExploration<ID, Event> {
    let transitionsTaken = Set(taken)
    var result = ChartExploration<ID, Event>()
    (result.configurations, result.maxDepth, result.truncated) = (configurations, maxDepth, truncated)
    (result.violations, result.shortestPaths, result.transitionsTaken) = (violations, shortestPaths, transitionsTaken)
    let declared = chart.declaredTransitions
    result.transitionCount = declared.count
    result.neverTaken = declared.filter { !transitionsTaken.contains($0) }
    result.describe = chart.describeTransition
    result.statesNeverEntered = states.filter { !$0.isHistory && shortestPaths[$0.id] == nil }.map(\.id)
    result.stateCount = states.filter { !$0.isHistory }.count
    return result
  }
}
