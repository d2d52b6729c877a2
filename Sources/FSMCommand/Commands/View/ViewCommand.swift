import Foundation
import StateMachine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

enum ViewCommand {
  static let help = """
    usage: fsm view <machine|spec.md|chart.scxml> <log.jsonl> [-o page.html]
           fsm view <machine|spec.md|chart.scxml> [-o page.html] [--limit N]

    Writes a recorded log as one self-contained HTML page (nothing fetched: it works from
    file://) to scrub through: the machine drawn (by Graphviz when `dot` is installed, else
    as nested boxes) with the active states lit, the steps on a slider (←/→, Home/End), each
    step's event, effects, time and context, and, when the machine no longer steps as the log
    says, the step of the first divergence with both outcomes side by side. `#step=N` in the
    page's URL opens it at step N (0 is where the log starts).

    The log is read as `fsm replay` reads it, with the same errors; against a spec file, by
    state and event names, each step checked against the spec's rows.

    Without a log, writes a simulator: the machine's configurations explored from the start
    over its model's alphabet (a chart file's: the event names it mentions; a spec's: the
    events it names, each guarded row a way to go; a system's: events for its root and
    messages for its children), the events handled where the path clicked so far ends as
    buttons, and the path as a log that `fsm replay` reads (a system's with its children's
    steps). `#path=2.0` in the URL follows the third event offered, then the first.

    The page is written whole or not at all; an existing file is replaced only when `-o`
    names it or `fsm view` wrote it.

    options:
      -o <page.html>  where to write the page (default: the log's path with .html; for a
                      simulator, <machine>.simulator.html)
      --limit N       a simulator's configurations at most (default 2000)

    exit codes: 0 page written, 2 bad usage, an unreadable log, or a page that cannot be written
    """

  static func run(_ words: [String]) -> CommandResult {
    let arguments: Arguments
    do { arguments = try Arguments(words, options: ["-o", "--limit"], flags: ["--help"]) } catch { return .usage(error.description, help: help) }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    guard arguments.positionals.count >= 1 else { return .usage("missing argument <machine>", help: help) }
    if arguments.positionals.count > 2 { return .usage("unexpected argument '\(arguments.positionals[2])'", help: help) }
    let named = arguments.options["-o"]
    guard arguments.positionals.count == 2 else {
      let limit = arguments.options["--limit"].map { Int($0) } ?? 2000
      guard let limit, limit > 0 else { return .usage("--limit expects a positive number, got '\(arguments.options["--limit"] ?? "")'", help: help) }
      return simulate(arguments.positionals[0], named: named, limit: limit)
    }
    if arguments.options["--limit"] != nil { return .usage("--limit is for a simulator (no log given)", help: help) }
    let (name, path) = (arguments.positionals[0], arguments.positionals[1])
    let output = named ?? (path.hasSuffix(".jsonl") ? String(path.dropLast(6)) : path) + ".html"

    let source: MachineSource
    switch MachineSource.resolve(name) {
    case .success(let resolved): source = resolved
    case .failure(let error): return .failure(error.message)
    }
    let read: SessionRead
    switch source {
    case .shipped(let machine):
      guard let session = machine.session(logAt: path) else {
        return .failure("machine '\(name)' cannot replay logs (its types are not Codable and Equatable)")
      }
      read = session
    case .chart(let chart, let file):
      do throws(SCXMLError) {
        // A document that invokes others: its log is its system's, its children's steps with its own.
        read = try DocumentSystem.of(chart, file: file).map { MachineDescription.session(of: $0.root, logAt: path) }
          ?? MachineDescription.session(of: chart, logAt: path)
      } catch {
        return .failure(error.description)
      }
    case .scripted(let chart, _):
      read = MachineDescription.session(of: chart, logAt: path)
    case .spec(let spec):
      // Read by names against the spec's rows, as `fsm replay` checks it.
      switch SpecSession.read(spec, logAt: path) {
      case .success(let steps): read = .read(steps)
      case .failure(let failure): return .failure(failure.message)
      }
    }
    let session: SessionSteps
    switch read {
    case .read(let steps): session = steps
    case .unreadable(.io(_, let detail), _): return .failure("\(path): \(detail)")
    case .unreadable(let error, let entries):
      return .failure("\(path): \(error.description)\n(\(entries) valid entr\(entries == 1 ? "y" : "ies") before it)")
    }
    if let failure = write(SessionPage.html(session, svg: Graphviz.svg(source.render(.dot))), to: output, named: named != nil) { return failure }
    let steps = session.events.count - 1
    let verdict = session.divergenceStep.map { step in
      "diverges at step \(step)" + (session.divergence?.machine.map { " (child \($0))" } ?? "")
    } ?? "replays identically"
    return .success("\(output): \(steps) step\(steps == 1 ? "" : "s") of \(session.machine), \(verdict)\n")
  }

  /// Writes the simulator page of the machine `name`.
  static func simulate(_ name: String, named: String?, limit: Int) -> CommandResult {
    let source: MachineSource
    switch MachineSource.resolve(name) {
    case .success(let resolved): source = resolved
    case .failure(let error): return .failure(error.message)
    }
    let simulation: Result<Simulation, ViewFailure>
    switch source {
    case .shipped(let machine):
      guard let simulate = FSM.catalog.simulators[machine.name] else {
        if FSM.catalog.explorers[machine.name] != nil {
          // A model the simulator cannot step: one whose types are not Codable.
          return .failure(
            "machine '\(name)' cannot be simulated: the simulator steps a table, a chart or a system whose (root's) types are "
              + "Codable; `fsm explore \(name)` explores its model")
        }
        return .failure("machine '\(name)' has no model to simulate (a catalog Model whose types are Codable gives the alphabet)")
      }
      simulation = simulate(limit)
    case .chart(let chart, let file):
      let system: DocumentSystem?
      do throws(SCXMLError) { system = try DocumentSystem.of(chart, file: file) } catch { return .failure(error.description) }
      if let system {
        // The document with the charts it invokes, over the events from outside the system.
        simulation = MachineSystem.simulation(of: MachineSystem(chart: system.root), context: NoContext(), alphabet: system.systemInputs, limit: limit)
      } else {
        simulation = Simulation.of(chart: chart, context: NoContext(), alphabet: chart.eventNames, limit: limit)
          .mapError { ViewFailure(message: "\(file): the chart cannot start: \($0)") }
      }
    case .spec(let spec):
      simulation = .success(.of(spec: spec, limit: limit))
    case .scripted(let chart, _) where chart.declaresInvokes:
      // The document with the charts it invokes, as `fsm explore` explores it.
      simulation = MachineSystem.simulation(
        of: MachineSystem(chart: chart), context: SCXMLSession(for: chart, sessionID: "simulator"),
        alphabet: DocumentSystem.inputs(of: chart.eventNames).map { .root(SCXMLEvent($0)) }, limit: limit)
    case .scripted(let chart, let file):
      simulation = Simulation.of(
        chart: chart, context: SCXMLSession(for: chart, sessionID: "simulator"), alphabet: chart.eventNames.map { SCXMLEvent($0) }, limit: limit
      )
      .mapError { ViewFailure(message: "\(file): the chart cannot start: \($0)") }
    }
    let simulated: Simulation
    do { simulated = try simulation.get() } catch { return .failure(error.message) }
    let output = named ?? simulated.machine + ".simulator.html"
    // The explored graph is drawn while it can be read; a larger one is only listed.
    let space = simulated.nodes.count <= SimulatorPage.drawnConfigurations ? Graphviz.svg(simulated.dot()) : nil
    let page = SimulatorPage.html(simulated, svg: Graphviz.svg(source.render(.dot)), space: space)
    if let failure = write(page, to: output, named: named != nil) { return failure }
    let count = simulated.nodes.count
    return .success(
      "\(output): simulator of \(simulated.machine), \(count) configuration\(count == 1 ? "" : "s")\(simulated.truncated ? " (limit reached)" : "")\n")
  }

  /// Writes `page` to `output` whole or not at all; a failure when it cannot, or when the file
  /// there is not one `fsm view` wrote and `-o` did not name it.
  static func write(_ page: String, to output: String, named: Bool) -> CommandResult? {
    if !named, FileManager.default.fileExists(atPath: output), !isOurs(output) {
      return .failure("\(output) exists and was not written by fsm view; name it with -o to replace it")
    }
    do {
      // Written to a file beside it and renamed over it: a reader sees the old page or the new.
      try Data(page.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
      return .failure("\(output): cannot write the page: \(error.localizedDescription)")
    }
    return nil
  }

  /// Whether the file at `path` is a page `fsm view` wrote (its head carries the mark).
  static func isOurs(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 1024)) ?? nil
    return head.map { String(decoding: $0, as: UTF8.self).contains(SessionPage.generator) } ?? false
  }
}

/// Why `fsm view` cannot write a page: the message it prints.
struct ViewFailure: Error {
  let message: String
}

/// Graphviz's `dot`, when installed: a machine's DOT drawn as SVG.
enum Graphviz {
  /// `dot` rendered as SVG, or `nil` when Graphviz is not installed or fails. (`program`: the
  /// program run as `dot`, found on `PATH`; tests name others.)
  ///
  /// A `dot` that is missing, or that exits before it has read the drawing, is `nil`, never a
  /// crash: the drawing is written on a thread that blocks `SIGPIPE`, and a write that fails
  /// is an error there, not a trap.
  static func svg(_ dot: String, program: String = "dot") -> String? {
    guard let executable = executable(program) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["-Tsvg"]
    let (input, output) = (Pipe(), Pipe())
    (process.standardInput, process.standardOutput, process.standardError) = (input, output, FileHandle.nullDevice)
    do { try process.run() } catch { return nil }
    // Written on another thread: a drawing larger than the pipe's buffer would block both sides.
    let writer = Thread {
      // A program that exits without reading all of it makes the write fail with EPIPE, and
      // raise SIGPIPE on this thread, which would end the whole process: blocked here, the
      // signal stays pending on this thread and goes when it ends.
      var pipeSignal = sigset_t()
      sigemptyset(&pipeSignal)
      sigaddset(&pipeSignal, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
      try? input.fileHandleForWriting.write(contentsOf: Data(dot.utf8))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    let svg = String(decoding: data, as: UTF8.self)
    return svg.contains("<svg") ? svg : nil
  }

  /// The path of the executable `program` on `PATH`, if there is one.
  static func executable(_ program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").lazy.map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
