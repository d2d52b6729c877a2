public import StateMachine

extension Explorer {
  /// Checks that a state of case `state` is reachable within `steps` events.
  ///
  /// - Throws: ``PropertyFailure`` naming the state when no sequence of at most `steps` events reaches it.
  @discardableResult
  public func requireReachable(_ state: State.Discriminant, within steps: Int) throws(PropertyFailure<Event>) -> [Event] {
    if let path = explore(depth: steps).shortestPath(to: state) { return path }
    throw PropertyFailure(
      seed: 0, property: "\(state) reachable within \(steps) steps",
      message: "no sequence of at most \(steps) events from \(table.initial) reaches \(state)", events: [], originalLength: 0)
  }

  /// Simple paths (no configuration visited twice) from `start` (the initial configuration by
  /// default) to every
  /// configuration whose state has case `target`, at most `maxLength` events long, at most
  /// `limit` of them, shortest first. Like XState's graph tools: iterate them and run each
  /// against a real store.
  public func simplePaths(
    from start: (state: State, context: Context)? = nil, to target: State.Discriminant, maxLength: Int = 10,
    limit: Int = 100
  ) -> [[Event]] {
    let origin = Configuration(state: start?.state ?? table.initial, context: start?.context ?? context)
    var found: [[Event]] = []
    var visited: Set<Configuration> = [origin]
    var path: [Event] = []
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
