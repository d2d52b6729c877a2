import FSMCommand
/// The benchmark workloads `fsm bench` knows, built on demand so only the selected ones
/// allocate their event sequences.
enum Benchmarks {
  struct Factory {
    var name: String
    var make: () -> BenchWorkload
    func callAsFunction() -> BenchWorkload { make() }
  }

  static let names = ["loader", "cd-player", "complex", "store-effects", "store-8-producers", "replay", "walk", "explore", "spec-check", "chart", "chart-parallel", "chart-log-write", "shipped", "chart-walk", "chart-explore", "identity", "system", "system-explore", "view"] + optional

  /// The workloads of the package's traits, when they are on.
  #if ECMAScript
  static let optional = ["ecmascript"]
  #else
  static let optional: [String] = []
  #endif

  static func all(scale: Double) -> [Factory] {
    let count = { (n: Int) in max(1, Int((Double(n) * scale).rounded())) }
    return [
      Factory(name: "loader") { LoaderBench.workload(count: count(10_000_000)) },
      Factory(name: "cd-player") { CDPlayerBench.workload(cycles: count(1_000_000)) },
      Factory(name: "complex") { ComplexBench.workload(count: count(1_000_000)) },
      Factory(name: "store-effects") { StoreBench.effectsWorkload(count: count(1_000_000)) },
      Factory(name: "store-8-producers") { StoreBench.producersWorkload(perProducer: count(1_000_000)) },
      Factory(name: "replay") { ReplayBench.workload(count: count(1_000_000)) },
      Factory(name: "walk") { ModelCheckBench.walkWorkload(steps: count(1_000_000)) },
      Factory(name: "explore") { ModelCheckBench.exploreWorkload(configurations: count(500_000)) },
      Factory(name: "identity") { IdentityBench.workload(count: count(1_000_000)) },
      Factory(name: "chart-walk") { ModelCheckBench.chartWorkloads(steps: count(1_000_000), configurations: 0)[0] },
      Factory(name: "chart-explore") { ModelCheckBench.chartWorkloads(steps: 0, configurations: count(20_000))[1] },
      Factory(name: "spec-check") { SpecCheckBench.workload(rows: count(16_000)) },
      Factory(name: "chart") { ChartBench.workload(count: count(1_000_000), parallel: false) },
      Factory(name: "chart-parallel") { ChartBench.workload(count: count(1_000_000), parallel: true) },
      Factory(name: "shipped") { ShippedBench.workload(count: count(200_000)) },
      Factory(name: "system") { SystemBench.workload(count: count(1_000_000), idleChildren: 10_000) },
      Factory(name: "system-explore") { SystemBench.exploreWorkload(configurations: count(20_000)) },
      Factory(name: "chart-log-write") { ChartLogBench.workload(count: count(1_000_000), memoryEntries: count(3_000_000)) },
    ] + (HeadlessChromium.path == nil ? [] : [Factory(name: "view") { ViewBench.workload(count: count(100_000)) }])
      + optional(count: count(1_000_000))
  }

  /// The factories of ``optional``, of `count` events each.
  static func optional(count: Int) -> [Factory] {
    #if ECMAScript
    [Factory(name: "ecmascript") { ECMAScriptBench.workload(count: count) }]
    #else
    []
    #endif
  }
}
