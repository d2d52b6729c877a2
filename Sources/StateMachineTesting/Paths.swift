public import StateMachine

extension Explorer {
  /// Simple paths (no configuration visited twice) from the initial configuration to every
  /// configuration whose state has case `target`, at most `maxLength` events long, at most
  /// `limit` of them, shortest first. Like XState's graph tools: iterate them and run each
  /// against a real store.
  public func simplePaths(to target: State.Discriminant, maxLength: Int = 10, limit: Int = 100) -> [[Event]] {
    var found: [[Event]] = []
    var visited: Set<Configuration> = [Configuration(state: table.initial, context: context)]
    var path: [Event] = []
    func search(_ configuration: Configuration) {
      if found.count >= limit { return }
      if configuration.state.discriminant == target, !path.isEmpty || table.initial.discriminant == target {
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
    search(Configuration(state: table.initial, context: context))
    return found.sorted { $0.count < $1.count }
  }
}
