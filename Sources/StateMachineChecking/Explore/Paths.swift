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

  /// Simple paths (no configuration visited twice) from `start` (the initial configuration by
  /// default) to every
  /// configuration whose state has case `target`, at most `maxLength` events long, at most
  /// `limit` of them, shortest first. Like XState's graph tools: iterate them and run each
  /// against a real store.
  public func simplePaths<State, E, C, Effect>(
    from start: (state: State, context: C)? = nil, to target: State.Discriminant, maxLength: Int = 10,
    limit: Int = 100
  ) -> [[E]] where Definition == TransitionTable<State, E, C, Effect> {
    typealias Configuration = TableConfiguration<State, C>
    let table = definition
    let origin = Configuration(state: start?.state ?? table.initial, context: start?.context ?? context)
    var found: [[E]] = []
    var visited: Set<Configuration> = [origin]
    var path: [E] = []
    func search(_ configuration: Configuration) {
      if found.count >= limit { return }
      if configuration.state.discriminant == target, !path.isEmpty || origin.state.discriminant == target {
        found.append(path)
        if path.count > 0 { return }
      }
      guard path.count < maxLength else { return }
      for event in alphabet {
        let step = table.step(configuration.state, configuration.context, event)
        if case .rejected = step.outcome { continue }
        let next = Configuration(state: step.state, context: step.context)
        guard visited.insert(next).inserted else { continue }
        path.append(event)
        search(next)
        path.removeLast()
        visited.remove(next)
      }
    }
    search(origin)
    return found.sorted { $0.count < $1.count }
  }
}

/// A configuration of a table (its state and context), as ``Explorer/simplePaths(from:to:maxLength:limit:)`` visits them.
struct TableConfiguration<State: Hashable, Context: Hashable>: Hashable {
  let state: State
  let context: Context
}
