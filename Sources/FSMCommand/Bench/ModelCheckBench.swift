import StateMachine
import StateMachineChecking

/// Random walks and exhaustive exploration on the `loader` machine.
enum ModelCheckBench {
  typealias State = LoaderBench.State
  typealias Event = LoaderBench.Event

  /// `walks` walks of 100 steps: ns per step.
  static func walkWorkload(steps: Int) -> BenchWorkload {
    let walks = max(1, steps / 100)
    let check = PropertyCheck(table: LoaderBench.table, context: NoContext(), events: .cases)
      .invariant("a state of the table") { s, _ in s.rawValue < 5 }
    return BenchWorkload(
      name: "walk", events: walks * 100,
      variants: [
        BenchVariant(name: "switch (random walk)") {
          var rng = SplitMix64(seed: 1)
          var total = 0
          let valid: [[Event]] = [[.load], [.succeeded, .failed], [.load, .reset], [.retryTapped, .reset], [.load, .reset]]
          for _ in 0..<walks {
            var state = State.idle
            for _ in 0..<100 {
              let choices = valid[Int(state.rawValue)]
              state = LoaderBench.next(state, choices[Int(rng.next() % UInt64(choices.count))])
              total += 1
            }
            blackHole(state)
          }
          return total
        },
        BenchVariant(name: "walk (PropertyCheck.run)") {
          (try? check.run(walks: walks, length: 100, seed: 1).steps) ?? -1
        },
      ])
  }

  /// A loader that counts pages up to `pages`: about 5 x `pages` configurations.
  static func pagedLoader(pages: Int) -> TransitionTable<State, Event, Int, Never> {
    try! TransitionTable(
      name: "paged-loader", initial: .idle,
      rows: [
        .transition(from: [.idle, .success, .retry], on: .load, to: .loading),
        .transition(from: .loading, on: .succeeded, to: .success).when("more pages") { page, _ in page < pages }
          .update { page, _ in page += 1 },
        .transition(from: .loading, on: .failed, to: .failure),
        .transition(from: .failure, on: .retryTapped, to: .retry),
        .transition(from: [.success, .failure, .retry], on: .reset, to: .idle),
      ],
      policy: .ignore)
  }

  /// Exhaustive exploration: ns per configuration.
  static func exploreWorkload(configurations: Int) -> BenchWorkload {
    let pages = max(1, configurations / 5)
    let table = pagedLoader(pages: pages)
    let explorer = Explorer(table: table, context: 0, alphabet: Event.allCases)
      .invariant("page in range") { _, page in page <= pages }
    let expected = explorer.explore(depth: Int.max / 2).configurations
    return BenchWorkload(
      name: "explore", events: expected,
      variants: [
        BenchVariant(name: "switch (states only, reference)") {
          var seen = Set<State>()
          var frontier: [State] = [.idle]
          while let state = frontier.popLast() {
            guard seen.insert(state).inserted else { continue }
            for event in Event.allCases { frontier.append(LoaderBench.next(state, event)) }
          }
          blackHole(seen)
          return expected
        },
        BenchVariant(name: "explore (Explorer.explore)") {
          explorer.explore(depth: Int.max / 2).configurations
        },
      ])
  }
}
