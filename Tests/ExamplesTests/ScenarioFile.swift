import Foundation
import StateMachine
import Testing

/// A scenario file: `## <name>` headings, each followed by a table
/// `| step | state | effects | screen |`, where a step is `send <event> [argument]`,
/// `wait <n> s|ms`, or a machine-specific set-up line (`server …`, `cache …`).
/// For a `send` row, `effects` lists the step's effects, then `⇒` and the events effects sent
/// back before the clock moved; for a `wait` row, the events that arrived meanwhile
/// (`tick ×59` for repeats). `screen` is what the machine's screen shows.
struct ScenarioFile {
  struct Row: Sendable {
    let line: Int
    let step: String
    let state: String
    let effects: String
    let screen: String
  }

  struct Scenario: Sendable, CustomTestStringConvertible {
    let file: String
    let name: String
    let rows: [Row]
    var testDescription: String { "\(file): \(name)" }
  }

  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Specs")

  /// The scenarios of `Specs/<machine>.scenarios.md`.
  static func scenarios(of machine: String) -> [Scenario] {
    let name = "\(machine).scenarios.md"
    guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else {
      return [Scenario(file: name, name: "(file missing)", rows: [])]
    }
    var scenarios: [Scenario] = []
    var current: (name: String, rows: [Row])?
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("## ") {
        if let current { scenarios.append(Scenario(file: name, name: current.name, rows: current.rows)) }
        current = (String(line.dropFirst(3)), [])
      } else if line.hasPrefix("|"), current != nil {
        let cells = line.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
          .map { $0.trimmingCharacters(in: .whitespaces) }
        guard cells.count == 4, cells[0] != "step", !cells[0].hasPrefix("---") else { continue }
        current?.rows.append(Row(line: index + 1, step: cells[0], state: cells[1], effects: cells[2], screen: cells[3]))
      }
    }
    if let current { scenarios.append(Scenario(file: name, name: current.name, rows: current.rows)) }
    return scenarios
  }
}

/// A `send` argument: the rest of the line, without surrounding quotes.
func argument(_ text: Substring) -> String {
  let trimmed = text.trimmingCharacters(in: .whitespaces)
  if trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") { return String(trimmed.dropFirst().dropLast()) }
  return trimmed
}

/// Events in a scenario's text form, with consecutive repeats folded: `tick ×59`.
func summary(_ events: [String]) -> String {
  var parts: [(String, Int)] = []
  for event in events {
    if let last = parts.last, last.0 == event { parts[parts.count - 1].1 += 1 } else { parts.append((event, 1)) }
  }
  return parts.map { $0.1 == 1 ? $0.0 : "\($0.0) ×\($0.1)" }.joined(separator: ", ")
}

/// What a scenario drives: a table's store or a chart's, seen as text.
struct ScenarioSubject<Event> {
  let send: (Event) -> Void
  /// The state column: a table's state, or what a chart's example names as its step.
  let state: () -> String
  let screen: () -> String
  let finish: () async -> Void
}

/// Runs one scenario in a table's store on a manual clock and checks every row.
func run<State, Event, Context, Work>(
  _ scenario: ScenarioFile.Scenario,
  makeStore: (ManualClock, @escaping Store<TransitionTable<State, Event, Context, Command<Event, Work>>>.Inspector) -> Store<TransitionTable<State, Event, Context, Command<Event, Work>>>,
  parse: (String, Substring) -> Event?,
  setUp: (String, Substring) -> Bool = { _, _ in false },
  screen: @escaping (State, Context) -> String
) async {
  await play(scenario, parse: parse, setUp: setUp) { clock, steps in
    let store = makeStore(clock) { report in
      if case .step(let step) = report { steps.record(event: "\(step.event)", effects: step.effects.map { "\($0)" }) }
    }
    store.start()
    return ScenarioSubject(
      send: { store.send($0) }, state: { "\(store.state)" }, screen: { screen(store.state, store.context) },
      finish: { await store.finish() })
  }
}

/// Runs one scenario in a chart's store; `state` names the column's state for a configuration.
func run<ID, Event, Context, Work>(
  _ scenario: ScenarioFile.Scenario,
  makeChartStore: (ManualClock, @escaping Store<Chart<ID, Event, Context, Command<Event, Work>>>.Inspector) -> Store<Chart<ID, Event, Context, Command<Event, Work>>>,
  parse: (String, Substring) -> Event?,
  setUp: (String, Substring) -> Bool = { _, _ in false },
  state: @escaping ([ID]) -> String,
  screen: @escaping ([ID], Context) -> String
) async {
  await play(scenario, parse: parse, setUp: setUp) { clock, steps in
    let store = makeChartStore(clock) { report in
      if case .step(let step) = report { steps.record(event: "\(step.event)", effects: step.effects.map { "\($0)" }) }
    }
    store.start()
    return ScenarioSubject(
      send: { store.send($0) }, state: { state(store.configuration) }, screen: { screen(store.configuration, store.context) },
      finish: { await store.finish() })
  }
}

/// Plays the scenario's rows against the subject `make` starts.
func play<Event>(
  _ scenario: ScenarioFile.Scenario, parse: (String, Substring) -> Event?, setUp: (String, Substring) -> Bool,
  make: (ManualClock, StepLog) -> ScenarioSubject<Event>
) async {
  #expect(!scenario.rows.isEmpty, "\(scenario.file) has no scenario")
  let clock = ManualClock()
  let steps = StepLog()
  let store = make(clock, steps)
  await clock.settle()
  for row in scenario.rows {
    let place = "\(scenario.file):\(row.line) `\(row.step)`"
    let words = row.step.split(separator: " ", maxSplits: 1)
    let verb = String(words.first ?? "")
    let rest = words.count > 1 ? words[1] : ""
    let before = steps.count
    switch verb {
    case "send":
      let parts = rest.split(separator: " ", maxSplits: 1)
      guard let name = parts.first, let event = parse(String(name), parts.count > 1 ? parts[1] : "") else {
        Issue.record("\(place): not an event of this machine")
        return
      }
      store.send(event)
      await clock.settle()
      let taken = steps.since(before)
      #expect(taken.first?.event == "\(event)", "\(place): no step for the event")
      let effects = (taken.first?.effects ?? []).joined(separator: ", ")
      let later = taken.dropFirst().map(\.event)
      #expect(effects + (later.isEmpty ? "" : " ⇒ " + summary(later)) == row.effects, "\(place): effects ⇒ events received")
    case "wait":
      let parts = rest.split(separator: " ")
      guard parts.count == 2, let amount = Int(parts[0]), parts[1] == "s" || parts[1] == "ms" else {
        Issue.record("\(place): expected `wait <n> s` or `wait <n> ms`")
        return
      }
      await clock.advance(by: parts[1] == "s" ? .seconds(amount) : .milliseconds(amount))
      #expect(summary(steps.since(before).map(\.event)) == row.effects, "\(place): events received")
    default:
      guard setUp(verb, rest) else {
        Issue.record("\(place): unknown step")
        return
      }
    }
    #expect(store.state() == row.state, "\(place): state")
    #expect(store.screen() == row.screen, "\(place): screen")
  }
  await store.finish()
}

/// The steps a store reported, as text.
final class StepLog: @unchecked Sendable {
  // Safe: `steps` is read and written only while `lock` is held.
  private let lock = NSLock()
  private var steps: [(event: String, effects: [String])] = []

  func record(event: String, effects: [String]) {
    lock.withLock { steps.append((event, effects)) }
  }

  var count: Int { lock.withLock { steps.count } }
  func since(_ index: Int) -> [(event: String, effects: [String])] { lock.withLock { Array(steps[index...]) } }
}
