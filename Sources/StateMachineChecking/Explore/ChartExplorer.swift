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
    // (What the search keeps lives in `result` and is passed along, not captured by nested
    // functions: a captured variable is boxed, and every access to it checked at run time.)
    var result = ChartSearch<ID, Event>(alphabet: alphabet)
    // One machine steps from every configuration reached, put back at each one's position
    // (a few words) instead of copied whole; it gathers coverage as bits as it goes.
    var machine = ChartMachine(chart, context: context)
    machine._gatherCoverage()
    machine._discardsOutputs = true
    let ordinals = alphabet.map { machine._ordinal(of: $0) }
    do {
      _ = try machine.start()
    } catch {
      machine._dropCoverage()
      result.violated("settles", error.description, at: 0, then: nil)
      return result.exploration(of: chart, states: states, taken: machine._coveredTransitions)
    }
    // Growing the index refiles every position in it: start with room for a small chart.
    var index = ChartPositionIndex(capacity: min(limit, 128), keying: keying)
    do {
      let key = keying.key(of: machine.context)
      let contextHash = key.hashValue
      let hash = machine._configuration._hash(contextHash: contextHash)
      let slot = index.find(machine._configuration, key: key, hash: hash).slot
      _ = index.add(machine._position, key: key, contextHash: contextHash, hash: hash, slot: slot)
    }
    result.reached(from: -1, by: -1)
    result.firstEntered(machine._keepCoverage(), states: states, at: 0, then: nil)
    if let (name, message) = broken(machine) { result.violated(name, message, at: 0, then: nil) }
    var head = 0
    // Whether the machine is still at the position it was put back to (an unhandled step
    // changes nothing).
    var atHead = true
    while head < index.count {
      let i = head
      head += 1
      atHead = false
      let here = index[i]
      guard result.depths[i] < depth, !here.isHalted else { continue }
      for e in alphabet.indices {
        if !atHead {
          // An event known to change nothing here needs no putting back.
          if machine._isUnhandled(ordinal: ordinals[e], at: here) { continue }
          machine._return(to: here)
        }
        atHead = true
        let moved: Bool
        do {
          moved = try machine._advance(alphabet[e], ordinal: ordinals[e])
        } catch {
          atHead = false
          // What the macrostep covered before it was stopped does not count, as before.
          machine._dropCoverage()
          result.violated("settles", error.description, at: i, then: e)
          continue
        }
        guard moved else { continue }
        atHead = false
        if machine._coverageGrew { result.firstEntered(machine._keepCoverage(), states: states, at: i, then: e) }
        // The machine is compared with what is filed before a position is read from it: most
        // steps reach a configuration reached before.
        let key = keying.key(of: machine.context)
        let contextHash = index.contextHash(of: key, near: i)
        let configuration = machine._configuration
        let hash = configuration._hash(contextHash: contextHash)
        let (found, slot) = index.find(configuration, key: key, hash: hash)
        guard found < 0 else { continue }
        guard index.count < limit else {
          result.truncated = true
          break
        }
        let next = index.add(machine._position, key: key, contextHash: contextHash, hash: hash, slot: slot)
        result.reached(from: i, by: e)
        if let (name, message) = broken(machine) { result.violated(name, message, at: next, then: nil) }
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
  @usableFromInline var neverTaken: [Int] = []
  /// How the chart describes a transition.
  @usableFromInline var describe: @Sendable (Int) -> String = { "transition \($0)" }
  @usableFromInline var transitionCount = 0
  @usableFromInline var stateCount = 0

  @usableFromInline
  init(
    configurations: Int, maxDepth: Int, truncated: Bool, violations: [Violation], shortestPaths: [ID: [Event]],
    statesNeverEntered: [ID], stateCount: Int, neverTaken: [Int], transitionCount: Int, describe: @escaping @Sendable (Int) -> String
  ) {
    (self.configurations, self.maxDepth, self.truncated, self.violations) = (configurations, maxDepth, truncated, violations)
    (self.shortestPaths, self.statesNeverEntered, self.stateCount) = (shortestPaths, statesNeverEntered, stateCount)
    (self.neverTaken, self.transitionCount, self.describe) = (neverTaken, transitionCount, describe)
  }

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
  @usableFromInline let alphabet: [Event]
  @usableFromInline var configurations = 0
  @usableFromInline var maxDepth = 0
  @usableFromInline var truncated = false
  @usableFromInline var violations: [ChartExploration<ID, Event>.Violation] = []
  /// The properties already reported broken (each is reported once, with its shortest path).
  @usableFromInline var broken: Set<String> = []
  @usableFromInline var shortestPaths: [ID: [Event]] = [:]
  /// Per configuration, by number: the one it was first reached from (-1: the start) and the
  /// event (a position in the alphabet), and its depth.
  @usableFromInline var parents: [(from: Int, event: Int)] = []
  @usableFromInline var depths: [Int] = []

  @inlinable
  init(alphabet: [Event]) { self.alphabet = alphabet }

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
  func path(to i: Int, then event: Int?) -> [Event] {
    var events: [Event] = []
    if let event { events.append(alphabet[event]) }
    var j = i
    while j >= 0, j < parents.count, parents[j].from >= 0 {
      events.append(alphabet[parents[j].event])
      j = parents[j].from
    }
    return events.reversed()
  }

  /// States (positions in `states`) entered for the first time by a step from configuration `i`
  /// (by the event at `event`; `nil`: the start).
  @inlinable
  mutating func firstEntered(_ entered: [Int], states: [(id: ID, isHistory: Bool)], at i: Int, then event: Int?) {
    for s in entered where shortestPaths[states[s].id] == nil {
      shortestPaths[states[s].id] = path(to: i, then: event)
    }
  }

  /// `property` is broken at configuration `i` (after the event at `event`, when that step did
  /// not settle): reported the first time only.
  @inlinable
  mutating func violated(_ property: String, _ message: String, at i: Int, then event: Int?) {
    guard broken.insert(property).inserted else { return }
    violations.append(.init(property: property, message: message, path: path(to: i, then: event)))
  }

  /// The exploration of `chart` this search found, with its coverage (`taken`: the transitions
  /// taken, in increasing order).
  @inlinable
  func exploration<Context, Effect>(
    of chart: Chart<ID, Event, Context, Effect>, states: [(id: ID, isHistory: Bool)], taken: [Int]
  ) -> ChartExploration<ID, Event> {
    let declared = chart.declaredTransitions
    // Both lists are in increasing order: merged, without a set.
    var k = 0
    let neverTaken = declared.filter { t in
      while k < taken.count, taken[k] < t { k += 1 }
      return k == taken.count || taken[k] != t
    }
    var neverEntered: [ID] = []
    var stateCount = 0
    for state in states where !state.isHistory {
      stateCount += 1
      if shortestPaths[state.id] == nil { neverEntered.append(state.id) }
    }
    return ChartExploration(
      configurations: configurations, maxDepth: maxDepth, truncated: truncated, violations: violations,
      shortestPaths: shortestPaths, statesNeverEntered: neverEntered, stateCount: stateCount, neverTaken: neverTaken,
      transitionCount: declared.count, describe: chart.describeTransition)
  }
}
