import Foundation
import StateMachine

enum RunCommand {
  static let help = """
    usage: fsm run <chart.scxml> [--events a,b,c] [--max-events N]

    Starts the chart and prints its configuration (the active atomic states) and the effects
    of the first macrostep; then, for each event read from standard input (one per line) or
    given with --events, the whole macrostep it causes. A line `after 500ms` (or `after 2s`)
    lets that much virtual time pass, so delayed sends fire. Sends without delay are handled
    after each macrostep, as SCXML's external queue does. Blank lines and empty items are
    skipped.

    options:
      --events L      a comma-separated list of events instead of standard input
      --max-events N  the most events one input may cause (sends handled after it, delayed
                      sends falling due while time passes); default 10000. A chart that keeps
                      sending itself events stops there with an error
    exit codes: 0 done, 2 bad usage, an unreadable chart, a macrostep that never settles, or an
    input that causes more than --max-events events
    """

  static func run(_ words: [String], input: @escaping () -> String? = { readLine() }) -> CommandResult {
    let arguments: Arguments
    let maxEvents: Int
    do throws(Arguments.Problem) {
      arguments = try Arguments(words, options: ["--events", "--max-events"], flags: ["--help"])
      maxEvents = try arguments.integer("--max-events", default: DocumentDriver.defaultMaxEventsPerInput, range: 1...100_000_000)
    } catch {
      return .usage(error.description, help: help)
    }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    guard let path = arguments.positionals.first else { return .usage("missing argument <chart.scxml>", help: help) }
    if arguments.positionals.count > 1 { return .usage("unexpected argument '\(arguments.positionals[1])'", help: help) }
    var given = arguments.options["--events"].map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    let next: () -> String? = {
      if given != nil { return given!.isEmpty ? nil : given!.removeFirst() }
      return input()
    }
    switch DocumentLoad.read(path) {
    case .plain(let chart):
      var driver = DocumentDriver(chart, maxEventsPerInput: maxEvents)
      return drive(&driver, next)
    case .scripted(let chart, let make):
      var driver = ChartDriver<SCXMLEvent, SCXMLSession>(chart, maxEventsPerInput: maxEvents, datamodel: make)
      return drive(&driver, next)
    case .refused(let error, let needsTrait):
      return .failure(error.description + (needsTrait ? "\n" + FSM.enableECMAScript : ""))
    }
  }

  /// Starts `driver`'s chart and steps it through the inputs `next` gives, reporting each.
  static func drive<Event, Context>(_ driver: inout ChartDriver<Event, Context>, _ next: () -> String?) -> CommandResult {
    var lines: [String] = []
    func report(_ title: String, from effectCount: Int, _ driver: ChartDriver<Event, Context>) {
      lines.append("\(title) -> [\(driver.machine.configuration.joined(separator: ", "))]" + (driver.machine.isHalted ? " (halted)" : ""))
      for effect in driver.effects[effectCount...] { lines.append("  effect: \(effect)") }
    }
    do {
      try driver.start()
      try driver.drain()
      report("start", from: 0, driver)
      while let raw = next() {
        let event = raw.trimmingCharacters(in: .whitespaces)
        // A blank line, or an empty item of --events, is no event (no event's name is empty:
        // sent, it took a chart's `*` transitions).
        if event.isEmpty { continue }
        let effectCount = driver.effects.count
        if event.hasPrefix("after ") {
          guard let delay = SCXMLDocument.duration(String(event.dropFirst(6))) else {
            return .failure("'\(event)': expected a time such as 500ms or 2s after 'after'")
          }
          try driver.advance(by: delay)
        } else {
          let step = try driver.send(event)
          try driver.drain()
          if step.outcome == .unhandled { lines.append("\(event): no transition") }
          if step.outcome == .halted { lines.append("\(event): the chart has halted") }
        }
        report(event, from: effectCount, driver)
      }
    } catch {
      return CommandResult(code: 2, output: lines.joined(separator: "\n") + "\n", errorOutput: "error: \(error)\n")
    }
    return .success(lines.joined(separator: "\n") + "\n")
  }
}
