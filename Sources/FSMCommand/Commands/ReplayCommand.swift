import Foundation
import StateMachine

enum ReplayCommand {
  static let help = """
    usage: fsm replay <machine|spec.md|chart.scxml|chart.md> <log.jsonl> [--all]

    Feeds the logged events through the machine's table from the logged initial state and
    compares every step with the log (outcome, state, context, effects). Effects are not
    performed: their results are events in the log.

    A system's log (a machine that runs child machines) replays whole: each child's steps
    (the lines led by {"child":"<path>",…}) against a machine of its own, made from the
    child machine the replayed step started; a divergence names the child, its step and
    the log's line.

    With a spec table (the Markdown a Swift machine's `markdown()` writes, or one written by
    hand), the log of the Swift machine is checked by names: each logged step must be one the
    spec's rows allow from the logged state before it (a guard may hold or not); contexts and
    effects are not compared.

    options:
      --all   report every divergence, not only the first

    exit codes: 0 identical, 1 divergence (printed), 2 bad usage or unreadable log (the error names the line)
    """

  static func run(_ words: [String]) -> CommandResult {
    let arguments: Arguments
    do { arguments = try Arguments(words, options: [], flags: ["--help", "--all"]) } catch { return .usage(error.description, help: help) }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    guard arguments.positionals.count >= 1 else { return .usage("missing argument <machine>", help: help) }
    guard arguments.positionals.count >= 2 else { return .usage("missing argument <log.jsonl>", help: help) }
    if arguments.positionals.count > 2 { return .usage("unexpected argument '\(arguments.positionals[2])'", help: help) }
    let (name, path) = (arguments.positionals[0], arguments.positionals[1])
    let all = arguments.flags.contains("--all")
    if name.hasSuffix(".scxml") || name.hasSuffix(".md") {
      switch MachineSource.resolve(name) {
      case .success(.chart(let chart, let file)):
        // A document that invokes others recorded its children's steps with its own: replayed whole.
        do throws(SCXMLError) {
          if let system = try DocumentSystem.of(chart, file: file) { return replay(system.root, logAt: path, all: all) }
        } catch {
          return .failure(error.description)
        }
        return replay(chart, logAt: path, all: all)
      case .success(.scripted(let chart, _)): return replay(chart, logAt: path, all: all)
      case .success(.spec(let spec)): return SpecReplay.replay(spec, logAt: path, all: all)
      case .success: break
      case .failure(let error): return .failure(error.message)
      }
    }
    guard let machine = FSM.catalog.machine(named: name) else {
      let names = FSM.catalog.machines.filter(\.canReplay).map(\.name).joined(separator: ", ")
      return .usage("unknown machine '\(name)'; expected one of: \(names)", help: help)
    }
    switch machine.replay(logAt: path, reportingAll: all) {
    case nil:
      return .failure("machine '\(name)' cannot replay logs (its types are not Codable and Equatable)")
    case .unreadable(.io(_, let detail), _)?:
      return .failure("\(path): \(detail)")
    case .unreadable(let error, let entries)?:
      return .failure("\(path): \(error.description)\n(\(entries) valid entr\(entries == 1 ? "y" : "ies") before it)")
    case .replayed(let report)?:
      let text = "\(path): \(report.description)\n"
      return report.isIdentical ? .success(text) : .findings(text)
    }
  }

  /// Replays a chart file's log at `path`.
  static func replay<ID: Codable, Event: Codable, Context: Codable & Equatable, Effect: Codable & Equatable>(
    _ chart: Chart<ID, Event, Context, Effect>, logAt path: String, all: Bool
  ) -> CommandResult {
    do throws(LogError) {
      let report = try chart.replay(logAt: path, reportingAll: all)
      let text = "\(path): \(report.description)\n"
      return report.isIdentical ? .success(text) : .findings(text)
    } catch {
      if case .io(_, let detail) = error { return .failure("\(path): \(detail)") }
      return .failure("\(path): \(error.description)")
    }
  }
}
