import FSMCommand
import StateMachine

package enum BenchCommand {
  package static let help = """
    usage: fsm bench [--json] [--repetitions N] [--scale F] [--workload NAME] [--variant TEXT]

    Measures the step of this framework against hand-written baselines (variants named
    `switch`: an enum + switch, inlined; `dictionary`: a [(state, event): state] lookup) on the
    same seeded event sequences, interleaved, and reports the median ns/event and the ratio to
    the switch. Build in release mode: `swift run -c release fsm bench`.

    workloads: loader (10 M random valid events; also through a Store), cd-player (Boost.SML's
               11-event cycle x 1 M), complex (50 states x 50 events, every row guarded and with
               an effect), store-effects (1 M loader events, one performed effect each),
               store-8-producers (8 threads x 1 M loader events into one Store), replay, walk,
               explore, spec-check (parse and check 16,000-row specs of adversarial shapes),
               chart and chart-parallel (a 3-level statechart, compound only and with two
               parallel regions, against a switch over its flattened configurations),
               chart-log-write (a table's and the chart's recorder writing 1 M steps to a file;
               notes the resident memory a file recorder grows by over 3 M chart entries),
               shipped (every shipped table and chart on 200,000 seeded random events from its
               own model's alphabet, beside the easy chart), chart-walk and chart-explore (the
               loader chart's random walks and exploration, beside a table's; and the captcha
               explored as its table and as the same machine written as a flat chart), identity
               (each shipped and bench chart stepped compiled and by the SCXML algorithm alone,
               side by side on 1 M seeded events, failing on the first difference), system
               (messages between machines in one store, from a table parent and a chart
               parent, the parent's part of each, and its step with one other effect; a child's
               start and stop, its machine shared or made for each start; idle children; and the
               step of the synchronous system the checkers run), system-explore (the
               upload queue and its children explored whole, beside a table's exploration),
               view (where headless Chromium is installed: fsm view's page of a 100,000-step log
               opened at three steps, beside a one-step page; notes what each page says its
               script took to open at the step, shown_ms_…),
               ecmascript (with the ECMAScript trait: 1 M `cond` evaluations by the datamodel)

    options:
      --json           print a JSON array of {workload, variant, ns_per_event, ratio_to_switch, ...}
      --repetitions N  interleaved repetitions per variant (default 5, at least 1)
      --scale F        multiply the event counts by F (default 1; e.g. 0.01 for a quick look)
      --workload NAME  run only this workload
      --variant TEXT   run only the variants whose name contains TEXT, beside each workload's
                       baseline (for a profile of one case)
    """

  /// `bench` as a command added to the library's (see ``FSM/Added``).
  package static var added: FSM.Added { FSM.Added(run: run, help: help) }

  package static func run(_ words: [String]) -> CommandResult {
    let arguments: Arguments
    let repetitions: Int
    let scale: Double
    do {
      arguments = try Arguments(words, options: ["--repetitions", "--scale", "--workload", "--variant"], flags: ["--help", "--json"])
      repetitions = try arguments.integer("--repetitions", default: 5, range: 1...1000)
      scale = try arguments.number("--scale", default: 1, range: 0.000_001...100)
    } catch {
      return .usage(error.description, help: help)
    }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    if let extra = arguments.positionals.first { return .usage("unexpected argument '\(extra)'", help: help) }
    var workloads = Benchmarks.all(scale: scale)
    if let only = arguments.options["--workload"] {
      workloads = workloads.filter { $0.name == only }
      guard !workloads.isEmpty else {
        if only == "view" { return .failure("the view workload opens pages in a browser: \(HeadlessChromium.Missing())") }
        return .usage("option '--workload': '\(only)'; expected one of \(Benchmarks.names.joined(separator: ", "))", help: help)
      }
    }
    var results: [BenchResult] = []
    do {
      for workload in workloads {
        var built = workload()
        if let text = arguments.options["--variant"] { built.keepVariants(containing: text) }
        results += try built.measure(repetitions: repetitions)
      }
    } catch {
      return .failure("\(error)")
    }
    return .success(arguments.flags.contains("--json") ? BenchReport.json(results) : BenchReport.table(results))
  }
}
