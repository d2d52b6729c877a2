import Foundation
import StateMachine

enum DemoCommand {
  static let help = """
    usage: fsm demo <machine> [--speed N] [--record log.jsonl]
           fsm demo <spec.md|chart.scxml|chart.md> [--events a,b,c | --steps N --seed S]

    Runs a scripted scenario of the machine in a store with its fake services, on a manual
    clock, and prints every step: the clock time, the event, the state before and after, the
    effects, and what the screen shows. The clock is virtual: a 60 s countdown takes about a
    second.

    For a file, plays the events given (for a chart, `after 2s` lets virtual time pass) or a
    seeded random walk over the events the file names, and prints every step the same way. A
    spec's guards are names without code: where several rows may take an event, the walk picks
    one by its seed and shows the guard it assumed. A chart that invokes others (<invoke>) runs
    with them in a store, as one system: each child's steps are printed after its path
    (`[w] finish`), with its end, and a walk picks among the events but those the system raises
    itself (done.invoke.*, error.*).
    options:
      --speed N   clock seconds per real second (default 60; 0: as fast as possible)
      --record P  also record the session as an event log at P (a new file), which
                  `fsm replay <machine> P` replays (shipped machines, and chart files that
                  invoke others; refused for other files)
      --events L  a comma-separated list of events (files only)
      --steps N   events in the random walk (default 12; files only)
      --seed S    the random walk's seed (default 1; files only)
    exit codes: 0 done, 2 bad usage, an unreadable file, or a chart macrostep that never settles
    """

  static var names: String { FSM.catalog.demos.map(\.name).joined(separator: ", ") }

  /// Runs the demo, handing each printed line to `emit` as it happens.
  static func run(_ words: [String], emit: @escaping @Sendable (String) -> Void) async -> CommandResult {
    let arguments: Arguments
    let speed: Int
    do throws(Arguments.Problem) {
      arguments = try Arguments(words, options: ["--speed", "--events", "--steps", "--seed", "--record"], flags: ["--help"])
      speed = try arguments.integer("--speed", default: 60, range: 0...1_000_000)
    } catch {
      return .usage(error.description, help: help)
    }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    guard let name = arguments.positionals.first else { return .usage("missing argument <machine>", help: help) }
    if arguments.positionals.count > 1 { return .usage("unexpected argument '\(arguments.positionals[1])'", help: help) }
    if FSM.catalog.demo(named: name) == nil, name.hasSuffix(".md") || name.hasSuffix(".scxml") || name.contains("/") {
      return await fileDemo(name, arguments, emit: emit)
    }
    guard let demo = FSM.catalog.demo(named: name) else {
      return .usage("no demo for '\(name)'; expected one of: \(names)", help: help)
    }
    // (A shipped machine's demo is its script: events or a walk asked for would go unplayed.)
    if let option = ["--events", "--steps", "--seed"].first(where: { arguments.options[$0] != nil }) {
      return .usage("\(option) is for a spec or chart file; '\(name)' plays its scripted scenario", help: help)
    }
    do throws(LogError) {
      try await demo.run(
        emit: emit,
        pace: { slice in
          guard speed > 0 else { return }
          try? await Task.sleep(for: slice / speed)
        }, recordingTo: arguments.options["--record"])
    } catch {
      return .failure(error.description)
    }
    return .success("")
  }

  /// `fsm demo` on a spec or chart file.
  static func fileDemo(_ path: String, _ arguments: Arguments, emit: @escaping @Sendable (String) -> Void) async -> CommandResult {
    if arguments.options["--events"] != nil, let walk = ["--steps", "--seed"].first(where: { arguments.options[$0] != nil }) {
      return .usage("--events plays the events given, and \(walk) is for a random walk: give one or the other", help: help)
    }
    let script: FileDemo.Script
    do throws(Arguments.Problem) {
      if let list = arguments.options["--events"] {
        script = .events(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
      } else {
        let steps = try arguments.integer("--steps", default: 12, range: 0...100_000)
        let seed = try arguments.integer("--seed", default: 1, range: 0...Int.max)
        script = .walk(steps: steps, seed: UInt64(seed))
      }
    } catch {
      return .usage(error.description, help: help)
    }
    let record = arguments.options["--record"]
    let lines: [String]
    switch MachineSource.resolve(path) {
    case .success(.chart(let chart, let file)):
      let system: DocumentSystem?
      do throws(SCXMLError) { system = try DocumentSystem.of(chart, file: file) } catch { return .failure(error.description) }
      if let system {
        // A document that invokes runs in a store, with its children, as a shipped system does.
        switch await FileDemo.run(system, script, recordingTo: record, emit: emit) {
        case .success: return .success("")
        case .failure(let failure): return .failure(failure.message)
        }
      }
      if record != nil { return .usage(recordRefusal(path), help: help) }
      do throws(ChartDriverError) {
        lines = try FileDemo.run(chart, file: file, script)
      } catch {
        return .failure(error.description)
      }
    case .success(.spec(let spec)):
      if record != nil { return .usage(recordRefusal(path), help: help) }
      lines = FileDemo.run(spec, script)
    case .success(.shipped): return .usage("no demo for '\(path)'; expected one of: \(names)", help: help)
    case .success(.scripted(_, let file)):
      return .failure("\(file) uses the ECMAScript datamodel: run it with `fsm run \(file) --events …`, which evaluates its content")
    case .failure(let error): return .failure(error.message)
    }
    for line in lines { emit(line) }
    return .success("")
  }

  /// Why `--record` is refused for the file at `path`: only a store's session is a log.
  static func recordRefusal(_ path: String) -> String {
    "--record records the shipped machines' demos, and chart files that invoke others (which run in a store), only; '\(path)' is a file "
      + "that runs without a store"
  }
}
