public import StateMachine

extension Explorer {
  /// Checks that `state` (a table's state case, a chart's state) is reachable within `steps`
  /// events.
  ///
  /// - Throws: ``PropertyFailure`` naming the state when no sequence of at most `steps` events reaches it.
  @discardableResult
  public func requireReachable(_ state: Definition.StateName, within steps: Int) throws(PropertyFailure<Event>) -> [Event] {
    if let path = explore(depth: steps).shortestPath(to: state) { return path }
    throw PropertyFailure(
      seed: 0, property: "\(state) reachable within \(steps) steps",
      message: "no sequence of at most \(steps) events from the start of \(definition.name) reaches \(state)", events: [], originalLength: 0)
  }

  /// Simple paths (no configuration visited twice) from the start to every configuration in
  /// which `target` is active (a table's state of that case; a chart's state, or a descendant
  /// of it), at most `maxLength` events long, at most `limit` of them, shortest first. Like
  /// XState's graph tools: iterate them and run each against a real store.
  ///
  /// A path ends where it first reaches `target` (unless that is the start).
  public func simplePaths(to target: Definition.StateName, maxLength: Int = 10, limit: Int = 100) -> [[Event]] {
    paths(from: nil, to: target, maxLength: maxLength, limit: limit)
  }

  /// Simple paths, as ``simplePaths(to:maxLength:limit:)`` finds them, from a table's
  /// configuration `start` instead of its initial one.
  public func simplePaths<State, E, C, Effect>(
    from start: (state: State, context: C), to target: State.Discriminant, maxLength: Int = 10,
    limit: Int = 100
  ) -> [[E]] where Definition == TransitionTable<State, E, C, Effect> {
    paths(from: (start.state, start.context), to: target, maxLength: maxLength, limit: limit)
  }

  /// The simple paths from `start` (a place and context read from the kind's explorer; `nil`:
  /// the machine's start).
  func paths(
    from start: (place: Definition._Explorer.Place, context: Context)?, to target: Definition.StateName, maxLength: Int, limit: Int
  ) -> [[Event]] {
    var machine = Definition._Explorer(definition, context: context)
    do { try machine.start() } catch { return [] }
    if let start { machine.return(to: start.place, context: start.context) }
    let ordinals = alphabet.map { machine.ordinal(of: $0) }
    let startsThere = definition._isIn(target, machine.configuration)
    typealias Position = PathPosition<Definition._Explorer.Place, Context>
    var found: [[Event]] = []
    var visited: Set<Position> = [Position(place: machine.place, context: machine.context)]
    var path: [Event] = []
    // Depth first, the machine put back at each position before each event (events are tried
    // from where the search stands, not where the last one led).
    func search(_ position: Position) {
      if found.count >= limit { return }
      if !path.isEmpty || startsThere, definition._isIn(target, machine.configuration) {
        found.append(path)
        if !path.isEmpty { return }
      }
      guard path.count < maxLength else { return }
      for e in alphabet.indices {
        machine.return(to: position.place, context: position.context)
        guard let response = try? machine.advance(alphabet[e], ordinal: ordinals[e]), response.isHandled else { continue }
        let next = Position(place: machine.place, context: machine.context)
        guard visited.insert(next).inserted else { continue }
        path.append(alphabet[e])
        search(next)
        path.removeLast()
        visited.remove(next)
      }
    }
    search(Position(place: machine.place, context: machine.context))
    return found.sorted { $0.count < $1.count }
  }
}

/// A position a path search visits: where the machine is, and its context.
struct PathPosition<Place: Hashable, Context: Hashable>: Hashable {
  let place: Place
  let context: Context
}
