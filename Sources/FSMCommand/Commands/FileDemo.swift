import StateMachine

/// `fsm demo` on a spec file or a chart file: the given events (or a seeded random walk over the
/// events the file names), each step printed as the shipped demos print theirs.
enum FileDemo {
  /// Where the events come from.
  enum Script {
    case events([String])
    case walk(steps: Int, seed: UInt64)
  }

  static func header(_ title: String) -> [String] {
    [title, "", MachineDemo.pad("time", 8) + MachineDemo.pad("event", 34) + MachineDemo.pad("from → to", 48) + "effects"]
  }

  static func line(time: Duration?, event: String, move: String, effects: [String]) -> String {
    MachineDemo.line(time: time, event: event, move: move, effects: effects, width: 48)
  }

  /// A spec table: each event takes the first row that may handle it; with guards (names without
  /// code) the walk picks among the rows that may, by its seed, and says which guard it assumed.
  static func run(_ spec: SpecDocument, _ script: Script) -> [String] {
    let graph = SpecGraph(spec: spec)
    var random = SplitMix64(seed: { if case .walk(_, let seed) = script { seed } else { 1 } }())
    var lines = header("\(spec.name) (spec \(spec.file)): " + describe(script))
    var state = graph.initial
    func step(_ event: String) {
      let moves = graph.moves(state, event)
      guard !moves.isEmpty else {
        lines.append(line(time: nil, event: event, move: "\(state) → \(state) (\(spec.policy == .ignore ? "ignored" : "rejected"))", effects: []))
        return
      }
      let move = moves.count == 1 ? moves[0] : moves[Int(random.next() % UInt64(moves.count))]
      let row = spec.transitions[move.row]
      let shown = event + (move.assuming.map { " [\($0)]" } ?? "")
      let exit = move.to != state && row.to != "(stay)" && row.to != "(ignore)"
      let effects = (exit ? entryExit(spec, state, \.exit) : []) + row.effects + (exit ? entryExit(spec, move.to, \.entry) : [])
      lines.append(line(time: nil, event: shown, move: "\(state) → \(move.to)", effects: effects))
      state = move.to
    }
    switch script {
    case .events(let events): for event in events { step(event) }
    case .walk(let steps, _):
      for _ in 0..<steps {
        let enabled = graph.alphabet.filter { !graph.moves(state, $0).isEmpty }
        guard !enabled.isEmpty else { break }
        step(enabled[Int(random.next() % UInt64(enabled.count))])
      }
    }
    lines += ["", "ends in: \(state)"]
    return lines
  }

  static func entryExit(_ spec: SpecDocument, _ state: String, _ list: KeyPath<SpecDocument.State, [String]>) -> [String] {
    spec.states.first { $0.name == state }?[keyPath: list] ?? []
  }

  /// A chart: on a virtual clock (`after 2s` lets time pass, so delayed sends fire); a walk
  /// picks among the events its transitions name.
  static func run(_ chart: SCXMLDocument.DocumentChart, file: String, _ script: Script) throws(ChartDriverError) -> [String] {
    var driver = DocumentDriver(chart)
    var lines = header("\(chart.name) (chart \(file)): " + describe(script))
    var configuration = { (driver: DocumentDriver) in driver.machine.configuration.joined(separator: ", ") }
    try driver.start()
    try driver.drain()
    lines.append(line(time: driver.now, event: "(start)", move: "→ " + configuration(driver), effects: driver.effects))
    func step(_ event: String) throws(ChartDriverError) {
      let (before, effectCount) = (configuration(driver), driver.effects.count)
      if event.hasPrefix("after "), let delay = SCXMLDocument.duration(String(event.dropFirst(6))) {
        try driver.advance(by: delay)
      } else {
        let outcome = try driver.send(event).outcome
        try driver.drain()
        if outcome != .transitioned {
          lines.append(line(time: driver.now, event: event, move: "\(before) (\(outcome == .halted ? "halted" : "ignored"))", effects: []))
          return
        }
      }
      lines.append(line(time: driver.now, event: event, move: "\(before) → \(configuration(driver))", effects: Array(driver.effects[effectCount...])))
    }
    switch script {
    case .events(let events): for event in events { try step(event) }
    case .walk(let steps, let seed):
      var random = SplitMix64(seed: seed)
      let alphabet = chart.eventNames
      for _ in 0..<steps where !alphabet.isEmpty && !driver.machine.isHalted {
        try step(alphabet[Int(random.next() % UInt64(alphabet.count))])
      }
    }
    configuration = { $0.machine.configuration.joined(separator: ", ") + ($0.machine.isHalted ? " (halted)" : "") }
    lines += ["", "ends in: \(configuration(driver))"]
    return lines
  }

  static func describe(_ script: Script) -> String {
    switch script {
    case .events(let events): "\(events.count) events given"
    case .walk(let steps, let seed): "a random walk of \(steps) events, seed \(seed)"
    }
  }
}
