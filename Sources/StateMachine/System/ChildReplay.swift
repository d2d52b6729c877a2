import Foundation

/// A child machine stepped alongside its lines of a system's log (see ``SystemReplay``): made
/// from the ``ChildMachine`` that the replayed parent started, in its initial state.
@usableFromInline
protocol ChildReplaying: AnyObject {
  /// The children the child's start started (a state entered at its start that invokes one).
  var started: [ChildInvocation] { get }
  /// Steps the machine with the line's event and compares the step with the line, a line of
  /// a log of `formatVersion` (see ``LogHeader/version``).
  func check(_ line: ChildLogLine, fields: [String: Any], formatVersion: Int) -> ChildReplayStep
}

/// A child that an effect starts: its id, and what replays it (`nil`: a child read from a log,
/// which cannot run).
@usableFromInline
struct ChildInvocation {
  @usableFromInline let id: String
  @usableFromInline let name: String
  @usableFromInline let replay: (@Sendable () -> any ChildReplaying)?

  @usableFromInline
  init(id: String, name: String, replay: (@Sendable () -> any ChildReplaying)?) { (self.id, self.name, self.replay) = (id, name, replay) }
}

/// What one replayed step of a child found.
@usableFromInline
struct ChildReplayStep {
  /// The event, as it reads.
  @usableFromInline var event: String
  @usableFromInline var differences: [Divergence.Difference]
  /// The children the step started.
  @usableFromInline var started: [ChildInvocation]

  @usableFromInline
  init(event: String, differences: [Divergence.Difference], started: [ChildInvocation] = []) {
    (self.event, self.differences, self.started) = (event, differences, started)
  }
}

/// An effect that may start a child machine (``Command``): what a system's replay reads of a
/// replayed step's effects.
@usableFromInline
protocol ChildInvoking {
  /// The child this effect starts, if it starts one.
  var invocation: ChildInvocation? { get }
}

extension Command: ChildInvoking {
  @inlinable
  var invocation: ChildInvocation? {
    guard case .invoke(let child, let id, _) = self else { return nil }
    return ChildInvocation(id: id.name, name: child.name, replay: child.parts.replay)
  }
}

/// A table child, stepped as its store steps it.
final class TableChildReplay<State: Discriminated & Sendable, Event: Discriminated & Sendable, Context: Sendable, Work: Sendable>:
  ChildReplaying
{
  var machine: Machine<State, Event, Context, Command<Event, Work>>
  let started: [ChildInvocation]

  init(_ table: TransitionTable<State, Event, Context, Command<Event, Work>>, context: Context) {
    machine = Machine(table, context: context)
    started = machine.start().compactMap(\.invocation)
  }

  func check(_ line: ChildLogLine, fields: [String: Any], formatVersion: Int) -> ChildReplayStep {
    guard let event = ChildReplayCoding.decode(Event.self, fields["event"]) else {
      return ChildReplayCoding.unreadableEvent(fields, as: Event.self)
    }
    let outcome = machine.send(event)
    let body = ChildLogBody.encode(
      sequence: line.sequence, time: nil, event: event, outcome: LoggedOutcome(outcome), state: machine.state,
      context: machine.context, effects: Array(outcome.effects))
    var differences = ChildReplayCoding.differences(logged: fields, replayed: body)
    if !differences.isEmpty {
      // Continue from what the log recorded, so one divergence does not cascade.
      if let state = ChildReplayCoding.decode(State.self, fields["state"]), let context = ChildReplayCoding.decode(Context.self, fields["context"]),
        let restored = try? Machine(machine.table, state: state, context: context)
      {
        machine = restored
      } else {
        differences.append(.init(field: "state", expected: "a state to continue from", actual: "one this child cannot read back"))
      }
    }
    return ChildReplayStep(event: "\(event)", differences: differences, started: outcome.effects.compactMap(\.invocation))
  }
}

/// A chart child, stepped as its store steps it.
final class ChartChildReplay<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Work: Sendable>: ChildReplaying {
  var machine: ChartMachine<ID, Event, Context, Command<Event, Work>>
  let chart: Chart<ID, Event, Context, Command<Event, Work>>
  /// Why the child could not start, if it could not.
  let failedStart: String?
  let started: [ChildInvocation]

  init(_ chart: Chart<ID, Event, Context, Command<Event, Work>>, context: Context) {
    self.chart = chart
    machine = ChartMachine(chart, context: context)
    do {
      started = try machine.start().effects.compactMap(\.invocation)
      failedStart = nil
    } catch {
      (started, failedStart) = ([], "\(error)")
    }
  }

  func check(_ line: ChildLogLine, fields: [String: Any], formatVersion: Int) -> ChildReplayStep {
    if let failedStart {
      return ChildReplayStep(event: "?", differences: [.init(field: "state", expected: "a started chart", actual: "its start failed: \(failedStart)")])
    }
    guard let event = ChildReplayCoding.decode(Event.self, fields["event"]) else {
      return ChildReplayCoding.unreadableEvent(fields, as: Event.self)
    }
    let step: ChartStep<Event, Command<Event, Work>>
    do {
      step = try machine.send(event)
    } catch {
      return ChildReplayStep(event: "\(event)", differences: [.init(field: "outcome", expected: "\(fields["outcome"] ?? "?")", actual: "\(error)")])
    }
    let effects = step.effects
    let started = effects.compactMap(\.invocation)
    func body(_ effects: [Command<Event, Work>]) -> ChildLogBody {
      ChildLogBody.encode(
        sequence: line.sequence, time: nil, event: event, outcome: step.loggedOutcome, state: ChartLogState(machine),
        context: machine.context, effects: effects)
    }
    var differences = ChildReplayCoding.differences(logged: fields, replayed: body(effects))
    // A line of a log of version 1 may list the `.effect` outputs alone (see
    // ``ChartReplayer/formatVersion``): encoded and compared again only when the effects differ.
    if formatVersion < LogFormat.chartsListCommands, differences.contains(where: { $0.field == "effects" }) {
      let asFirst = ChildReplayCoding.differences(logged: fields, replayed: body(step.outputs.effects(allOutputs: false)))
      if !asFirst.contains(where: { $0.field == "effects" }) { differences = asFirst }
    }
    if !differences.isEmpty {
      if let state = ChildReplayCoding.decode(ChartLogState<ID>.self, fields["state"]),
        let context = ChildReplayCoding.decode(Context.self, fields["context"]),
        let restored = try? ChartMachine(
          chart, restoring: ChartSnapshot(configuration: state.configuration, history: state.history, context: context, isHalted: state.isHalted))
      {
        machine = restored
      } else {
        differences.append(.init(field: "state", expected: "a state to continue from", actual: "one this child cannot read back"))
      }
    }
    return ChildReplayStep(event: "\(event)", differences: differences, started: started)
  }
}

/// A child that cannot be replayed: one read back from a log (its machine is only a name).
final class UnrunnableChildReplay: ChildReplaying {
  let name: String
  init(name: String) { self.name = name }
  var started: [ChildInvocation] { [] }
  func check(_ line: ChildLogLine, fields: [String: Any], formatVersion: Int) -> ChildReplayStep {
    ChildReplayStep(
      event: ChildReplayCoding.text(fields["event"]),
      differences: [.init(field: "machine", expected: "child machine \(name)", actual: "a child read from a log, which cannot run")])
  }
}

/// Reading and comparing a child's line: values of the child's types, read from JSON when the
/// types are `Decodable`, and fields compared as JSON.
enum ChildReplayCoding {
  /// The fields a step is compared on.
  static let compared = ["outcome", "state", "context", "effects"]

  /// `json` (a value of a parsed line) read as a `T`, when `T` is `Decodable` and it reads.
  static func decode<T>(_ type: T.Type, _ json: Any?) -> T? {
    guard let json, let data = try? JSONSerialization.data(withJSONObject: json, options: [.fragmentsAllowed]) else { return nil }
    return (try? AnyJSON.decode(type, from: data)) ?? nil
  }

  /// A value of a parsed line as JSON text, keys sorted (how both sides are compared).
  static func text(_ value: Any?) -> String {
    guard let value else { return "nothing" }
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    else { return "\(value)" }
    return String(decoding: data, as: UTF8.self)
  }

  /// The fields of a line, parsed; `nil` when it is not a JSON object.
  static func fields(_ line: ChildLogLine) -> [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any]
  }

  /// Where the replayed step (`replayed`, its encoded fields) differs from the line.
  static func differences(logged: [String: Any], replayed: ChildLogBody) -> [Divergence.Difference] {
    guard case .fields(let bytes) = replayed, let mine = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
      if case .unrecordable(let why) = replayed { return [.init(field: "step", expected: "a step to compare", actual: why)] }
      return [.init(field: "step", expected: "a step to compare", actual: "one that cannot be encoded")]
    }
    return compared.compactMap { field in
      let (expected, actual) = (text(logged[field]), text(mine[field]))
      return expected == actual ? nil : .init(field: field, expected: expected, actual: actual)
    }
  }

  /// The step of a line whose event this child cannot read.
  static func unreadableEvent<Event>(_ fields: [String: Any], as type: Event.Type) -> ChildReplayStep {
    let why = type is any Decodable.Type ? "not a \(type)" : "\(type) is not Decodable"
    return ChildReplayStep(event: text(fields["event"]), differences: [.init(field: "event", expected: text(fields["event"]), actual: why)])
  }
}
