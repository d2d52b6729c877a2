import FSMCommand
import StateMachine
import StateMachineChecking
import StateMachineExamples

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

  /// The shipped loader chart checked as its users check it, on its own model's alphabet:
  /// seeded random walks (`PropertyCheck.run`, ns per step) and breadth-first exploration
  /// of its configurations and contexts (`Explorer.explore`, ns per configuration, about
  /// `configurations` in all), each beside a table's own (the baseline).
  static func chartWorkloads(steps: Int, configurations: Int) -> [BenchWorkload] {
    let walks = max(1, steps / 100)
    let tableWalk = PropertyCheck(table: LoaderBench.table, context: NoContext(), events: .cases)
    let chartWalk = PropertyCheck(chart: Loader.model.definition, context: Loader.model.context, alphabet: Loader.model.alphabet)
    // The loader chart's whole space (its context included) is small: explored again and
    // again, beside the table explorer on a paged loader of about as many configurations.
    let chartExplorer = Explorer(chart: Loader.model.definition, context: Loader.model.context, alphabet: Loader.model.alphabet)
    let space = chartExplorer.explore(depth: Int.max / 2, limit: 1_000_000).configurations
    let tableExplorer = Explorer(table: pagedLoader(pages: max(1, space / 5)), context: 0, alphabet: Event.allCases)
    let rounds = max(1, configurations / max(1, space))
    // The same machine as a table and as a chart: the captcha table, and the flat chart written
    // from it, on the captcha model's alphabet (as many configurations as the loader's rounds).
    let alphabet = Captcha.model.alphabet
    let captchaTable = Explorer(table: Captcha.table, context: Captcha.Context(), alphabet: alphabet)
    let captchaChart = Explorer(chart: CaptchaChart.chart, context: Captcha.Context(), alphabet: alphabet)
    let captchaSpace = captchaTable.explore(depth: Int.max / 2).configurations
    let captchaRounds = max(1, rounds * space / max(1, captchaSpace))
    return [
      BenchWorkload(
        name: "chart-walk", events: walks * 100,
        variants: [
          BenchVariant(name: "table walk (PropertyCheck.run)") { (try? tableWalk.run(walks: walks, length: 100, seed: 1).steps) ?? -1 },
          BenchVariant(name: "loader chart walk (PropertyCheck.run)") {
            (try? chartWalk.run(walks: walks, length: 100, seed: 1).steps) ?? -1
          },
        ]),
      BenchWorkload(
        name: "chart-explore", events: rounds * space,
        variants: [
          exploring("table explore (Explorer.explore)", rounds: rounds, space: space, exact: false) {
            tableExplorer.explore(depth: Int.max / 2).configurations
          },
          exploring("loader chart explore (Explorer.explore)", rounds: rounds, space: space, exact: true) {
            chartExplorer.explore(depth: Int.max / 2, limit: 1_000_000).configurations
          },
          exploring("captcha table explore, its own model", rounds: captchaRounds, space: captchaSpace, per: rounds * space) {
            captchaTable.explore(depth: Int.max / 2).configurations
          },
          exploring("captcha as a flat chart explore, the same model", rounds: captchaRounds, space: captchaSpace, per: rounds * space) {
            captchaChart.explore(depth: Int.max / 2).configurations
          },
        ]),
    ]
  }

  /// A variant of `rounds` explorations (`explore` gives one's configurations): its checksum is
  /// `per` (by default `rounds * space`, the configurations its workload counts) when each found
  /// `space` configurations (`exact`), or when they found any (a baseline explorer of a machine
  /// of about that size). Another machine's variant in the same workload makes about `per`
  /// configurations in its `rounds` (within one exploration's), and gives `per`.
  static func exploring(
    _ name: String, rounds: Int, space: Int, exact: Bool = true, per: Int? = nil, _ explore: @escaping () -> Int
  ) -> BenchVariant {
    BenchVariant(name: name) {
      var total = 0
      for _ in 0..<rounds { total += explore() }
      if exact { return total == rounds * space ? per ?? total : -total }
      return total > 0 ? per ?? rounds * space : -1
    }
  }
}
