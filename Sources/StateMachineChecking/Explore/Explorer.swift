public import StateMachine

/// Bounded exhaustive exploration (model checking) of a machine of any kind, a table or a
/// chart: breadth-first over its configurations (a table's state, a chart's active states and
/// history, with the context) trying every event of a finite alphabet in each, each
/// configuration visited once.
///
/// ```swift
/// let result = Explorer(table: CDPlayer.table, context: NoContext(), alphabet: CDPlayer.Event.allCases)
///     .explore(depth: 10)
/// print(result.coverage)                        // rows 12/12, states 5/5
/// result.shortestPath(to: .playing)             // [openClose, openClose, cdDetected, play]
///
/// let chart = Explorer(chart: player, context: NoContext(), alphabet: ["power", "play"])
///     .invariant("never both off and playing") { states, _ in !(states.contains("off") && states.contains("playing")) }
///     .explore(depth: 12)
/// print(chart.coverage)                         // transitions 9/10, states 11/11
/// ```
///
/// Every kind is explored by the same search, with the same limits and rules: invariants
/// (``PropertyChecking/invariant(_:_:)``) checked in every configuration reached, each broken
/// one reported once with a shortest path; ``StepCheck/noRejection``,
/// ``StepCheck/noDeadEnd`` and, for a system, ``StepCheck/messagesDelivered``; a chart's
/// macrostep that does not settle reported as `settles` (and not explored further); coverage
/// of transitions (a table's rows) and states.
public struct Explorer<Definition: ExplorableDefinition>: PropertyChecking, Sendable where Definition.Context: Sendable {
  /// The events explored.
  public typealias Event = Definition.Event
  /// The context.
  public typealias Context = Definition.Context

  @usableFromInline let definition: Definition
  @usableFromInline let context: Context
  @usableFromInline let alphabet: [Event]
  /// The states coverage counts (read once: a chart makes the list when asked).
  @usableFromInline let coverageStates: [(name: Definition.StateName, counts: Bool)]
  /// The invariants every reached configuration must satisfy, and the step checks
  /// (``StepCheck/noRejection`` reports rejected events; without it they are skipped).
  public var properties = Properties<Definition.Configuration, Context>()
  /// What of a context tells configurations apart (see ``abstracting(_:)``); `nil`: all of it.
  @usableFromInline var abstraction: (@Sendable (Context) -> AnyHashable)?

  /// Explores `definition` (a table, a chart) from its start with `context`, trying every
  /// event of `alphabet` in every configuration.
  public init(_ definition: Definition, context: Context, alphabet: [Event]) {
    (self.definition, self.context, self.alphabet) = (definition, context, alphabet)
    coverageStates = definition._coverageStates
  }

  /// The explorer with configurations told apart by `abstraction` of their context instead of
  /// the whole context: two configurations of the same place (state, or active states and
  /// history) whose contexts give the same key are one configuration, explored once from the
  /// first reached.
  ///
  /// For a context too rich to explore whole (the users of every page loaded, a list of files
  /// being synced), keep what the guards and invariants depend on: a count, a flag, a bound.
  /// The space is then as small as those make it. It is an abstraction: behaviour that depends
  /// on what the key drops is explored only as the first context reached shows it.
  ///
  /// ```swift
  /// Explorer(chart: Loader.chart, context: .init(), alphabet: alphabet)
  ///     .abstracting { context in [context.pages.count, context.attempts] }
  ///     .explore(depth: 30)
  /// ```
  public func abstracting<Key: Hashable & Sendable>(_ abstraction: @escaping @Sendable (Context) -> Key) -> Self {
    var copy = self
    copy.abstraction = { AnyHashable(abstraction($0)) }
    return copy
  }

  /// Explores up to `depth` events deep, filing at most `limit` configurations (past it the
  /// exploration goes on without filing more, and says it was ``Exploration/truncated``).
  ///
  /// (Inlinable: the search is specialised for your machine's types where you call it.)
  @inlinable
  public func explore(depth: Int = 20, limit: Int = 1_000_000) -> Exploration<Definition> {
    if let abstraction { return search(depth: depth, limit: limit, keying: AbstractedContext(abstraction)) }
    return search(depth: depth, limit: limit, keying: WholeContext())
  }

  /// The search, with contexts told apart by `keying`.
  @inlinable
  func search<Keying: ContextKeying>(depth: Int, limit: Int, keying: Keying) -> Exploration<Definition> where Keying.Context == Context {
    // (What the search keeps lives in `result` and is passed along, not captured by nested
    // functions: a captured variable is boxed, and every access to it checked at run time.)
    var result = ExplorationSearch<Definition>(alphabet: alphabet, states: coverageStates)
    // One machine steps from every configuration reached, put back at each one's place instead
    // of copied whole; it gathers coverage as bits as it goes.
    var machine = Definition._Explorer(definition, context: context)
    let ordinals = alphabet.map { machine.ordinal(of: $0) }
    let deadEnd = properties.has(.noDeadEnd) ? definition._deadEndTest() : nil
    do {
      try machine.start()
    } catch {
      machine.dropCoverage()
      result.violated("settles", "\(error)", at: 0, then: nil)
      return result.exploration(of: definition, taken: machine.coveredTransitions)
    }
    // Growing the index refiles every position in it: start with room for a small machine.
    var index = PositionIndex<Definition._Explorer, Keying>(capacity: min(limit, 128), events: alphabet.count, keying: keying)
    result.reserve(min(limit, 128))
    do {
      let key = index.keyNumber(of: &machine, near: -1, event: -1)
      let hash = machine.placeHash(contextHash: Int(key))
      let slot = index.find(&machine, key: key, hash: hash).slot
      _ = index.add(machine.place, context: machine.context, halted: machine.isHalted, key: key, hash: hash, slot: slot)
    }
    result.reached(from: -1, by: -1)
    if properties.has(.messagesDelivered), let undelivered = machine._undeliveredMessage {
      result.violated("messages delivered", "\(undelivered), at the start", at: 0, then: nil)
    }
    result.firstEntered(machine.keepCoverage(), at: 0, then: nil)
    check(&machine, at: 0, deadEnd: deadEnd, &result)
    var head = 0
    // Whether the machine is still at the position it was put back to (a step that changed
    // nothing leaves it there).
    var atHead = true
    while head < index.count {
      let i = head
      head += 1
      atHead = false
      guard result.depths[i] < depth, !index.halted[i] else { continue }
      let (here, hereContext) = (index.places[i], index.contexts[i])
      for e in alphabet.indices {
        if !atHead {
          // An event known to change nothing here needs no putting back.
          if machine.isUnhandled(ordinal: ordinals[e], at: here) { continue }
          machine.return(to: here, context: hereContext)
        }
        atHead = true
        let response: MachineResponse
        do {
          response = try machine.advance(alphabet[e], ordinal: ordinals[e])
        } catch {
          atHead = false
          // What the macrostep covered before it was stopped does not count.
          machine.dropCoverage()
          result.violated("settles", "\(error)", at: i, then: e)
          continue
        }
        if properties.has(.messagesDelivered), let undelivered = machine._undeliveredMessage,
          !result.broken.contains("messages delivered")
        {
          result.violated("messages delivered", "\(undelivered), now in \(machine.configuration)", at: i, then: e)
        }
        guard response.isHandled else {
          if let reason = response.rejection, properties.has(.noRejection) {
            result.violated("no rejection", "\(alphabet[e]) rejected in \(machine.configuration): \(reason)", at: i, then: e)
          }
          continue
        }
        atHead = false
        if machine.coverageGrew { result.firstEntered(machine.keepCoverage(), at: i, then: e) }
        // The machine is compared with what is filed before a position is read from it: most
        // steps reach a configuration reached before.
        let key = index.keyNumber(of: &machine, near: i, event: e)
        let hash = machine.placeHash(contextHash: Int(key))
        let (found, slot) = index.find(&machine, key: key, hash: hash)
        guard found < 0 else { continue }
        guard index.count < limit else {
          result.truncated = true
          continue
        }
        let next = index.add(machine.place, context: machine.context, halted: machine.isHalted, key: key, hash: hash, slot: slot)
        result.reached(from: i, by: e)
        check(&machine, at: next, deadEnd: deadEnd, &result)
      }
    }
    result.configurations = index.count
    return result.exploration(of: definition, taken: machine.coveredTransitions)
  }

  /// Checks configuration `i`, where `machine` is: every invariant it breaks that was not
  /// broken before, and whether it is a dead end (when `deadEnd` is given). (`machine` is
  /// `inout` only to pass it by its address, not a copy of it.)
  @inlinable
  func check(
    _ machine: inout Definition._Explorer, at i: Int, deadEnd: (@Sendable (Definition.Configuration) -> Bool)?,
    _ result: inout ExplorationSearch<Definition>
  ) {
    // (The configuration is read only when something reads it: a chart's is an array.)
    guard !properties.invariants.isEmpty || deadEnd != nil else { return }
    let configuration = machine.configuration
    while let (property, message) = properties.broken(configuration, machine.context, skipping: result.broken) {
      result.violated(property, message, at: i, then: nil)
    }
    if let deadEnd, !result.broken.contains("no dead end"), deadEnd(configuration) {
      result.violated("no dead end", "\(configuration) is a dead end", at: i, then: nil)
    }
  }
}
