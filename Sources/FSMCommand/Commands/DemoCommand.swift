import Foundation
import StateMachine
import StateMachineExamples

enum DemoCommand {
  static let help = """
    usage: fsm demo <machine> [--speed N]

    Runs a scripted scenario of the machine in a store with its fake services, on a manual
    clock, and prints every step: the clock time, the event, the state before and after, the
    effects, and what the screen shows. The clock is virtual: a 60 s countdown takes about a
    second.
    options:
      --speed N   clock seconds per real second (default 60; 0: as fast as possible)
    exit codes: 0 done, 2 bad usage
    """

  static var names: String { MachineCatalog.demos.map(\.name).joined(separator: ", ") }

  /// Runs the demo, handing each printed line to `emit` as it happens.
  static func run(_ words: [String], emit: @escaping @Sendable (String) -> Void) async -> CommandResult {
    let arguments: Arguments
    let speed: Int
    do throws(Arguments.Problem) {
      arguments = try Arguments(words, options: ["--speed"], flags: ["--help"])
      speed = try arguments.integer("--speed", default: 60, range: 0...1_000_000)
    } catch {
      return .usage(error.description, help: help)
    }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    guard let name = arguments.positionals.first else { return .usage("missing argument <machine>", help: help) }
    if arguments.positionals.count > 1 { return .usage("unexpected argument '\(arguments.positionals[1])'", help: help) }
    guard let demo = MachineCatalog.demo(named: name) else {
      return .usage("no demo for '\(name)'; expected one of: \(names)", help: help)
    }
    await demo.run(emit: emit) { slice in
      guard speed > 0 else { return }
      try? await Task.sleep(for: slice / speed)
    }
    return .success("")
  }
}
