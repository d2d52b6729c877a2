import Foundation
import StateMachine

/// The simulations of each kind of machine: a table, a chart, and a spec file (by names).
extension Simulation {
  /// `table` from `context` over `alphabet`: each step is the machine's, logged as a
  /// ``LogRecorder`` logs it.
  static func of<State, Event, Context, Effect>(
    table: TransitionTable<State, Event, Context, Effect>, context: Context, alphabet: [Event], limit: Int
  ) -> Simulation where State: Codable, Event: Codable, Context: Codable, Effect: Codable {
    explore(
      machine: table.name, states: table.sessionStates, header: header(of: table, context: context), start: Machine(table, context: context),
      alphabet: alphabet, limit: limit,
      node: { machine in
        Node(
          configuration: "\(machine.state)", active: active(machine.state), state: json(machine.state), context: json(machine.context))
      },
      steps: { here, event in
        var machine = here
        let outcome = machine.send(event)
        guard outcome.isHandled else { return [] }
        let effects = Array(outcome.effects)
        let edge = Edge(
          event: Shown(text: "\(event)", json: json(event)),
          effects: Shown(text: effects.map { "\($0)" }.joined(separator: ", "), json: json(effects)), outcome: json(LoggedOutcome(outcome)),
          to: -1)
        return [(edge, machine)]
      })
  }

  /// `chart` from `context` over `alphabet`: each macrostep is the machine's, logged as a
  /// chart's ``LogRecorder`` logs it. An error when the chart cannot start.
  static func of<ID, Event, Context, Effect>(
    chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event], limit: Int
  ) -> Result<Simulation, ChartRunError> where ID: Codable, Event: Codable, Context: Codable, Effect: Codable {
    started(chart, context: context).map { start, header in
      explore(
        machine: chart.name, states: chart.sessionStates, header: header, start: start, alphabet: alphabet, limit: limit,
        node: { machine in
          Node(
            configuration: ChildStep.shown(machine.configuration), active: active(machine.configuration),
            state: json(ChartLogState(machine)), context: json(machine.context))
        },
        steps: { here, event in
          var machine = here
          // (A context held by a reference, an SCXML session, is copied: `here` stays as it is.)
          machine.detachContext()
          // A macrostep that does not settle is not a way to go.
          guard let step = try? machine.send(event), step.loggedOutcome == .transitioned else { return [] }
          let edge = Edge(
            event: Shown(text: "\(event)", json: json(event)),
            effects: Shown(text: step.effects.map { "\($0)" }.joined(separator: ", "), json: json(step.effects)),
            outcome: json(step.loggedOutcome), to: -1)
          return [(edge, machine)]
        })
    }
  }

  /// The header of a simulated log of `table` from `context` (a machine's and a system's).
  static func header<State, Event, Context, Effect>(of table: TransitionTable<State, Event, Context, Effect>, context: Context) -> String
  where State: Codable, Context: Codable {
    json(LogHeader(machine: table.name, fingerprint: table.fingerprint, state: table.initial, context: context))
  }

  /// `chart` started from `context` (its first macrostep), and the header of its simulated log
  /// there (a machine's and a system's); the error when it cannot start.
  static func started<ID, Event, Context, Effect>(
    _ chart: Chart<ID, Event, Context, Effect>, context: Context
  ) -> Result<(ChartMachine<ID, Event, Context, Effect>, header: String), ChartRunError> where ID: Codable, Context: Codable {
    var start = ChartMachine(chart, context: context)
    do throws(ChartRunError) { _ = try start.start() } catch { return .failure(error) }
    return .success((start, json(LogHeader(machine: chart.name, fingerprint: chart.fingerprint, state: ChartLogState(start), context: start.context))))
  }

  /// The active state a table's state names, as the page lights it.
  static func active<State: Discriminated>(_ state: State) -> [String] { ["\(state.discriminant)"] }

  /// The active states a chart's configuration names, as the page lights them.
  static func active<ID>(_ configuration: [ID]) -> [String] { configuration.map { "\($0)" } }

  /// A spec file's states over the events it names, by names as `fsm replay` checks a log
  /// against it: each row an event may take is a way to go (a guarded one labelled with its
  /// guard, taken as holding); a row that ignores the event is not.
  static func of(spec: SpecDocument, limit: Int) -> Simulation {
    let graph = SpecGraph(spec: spec)
    let finals = Set(spec.states.filter(\.isFinal).map(\.name))
    let states = spec.states.map { SessionState(name: $0.name, kind: finals.contains($0.name) ? "final" : "atomic") }
    let header = LogHeader(machine: spec.name, fingerprint: spec.table.fingerprint, state: graph.initial, context: NoContext())
    return explore(
      machine: spec.name, states: states, header: json(header), start: graph.initial, alphabet: graph.alphabet, limit: limit,
      node: { state in Node(configuration: state, active: [state], state: json(state), context: json(NoContext())) },
      steps: { state, event in
        graph.moves(state, event).compactMap { move in
          let row = spec.transitions[move.row]
          guard row.to != "(ignore)" else { return nil }
          let edge = Edge(
            event: Shown(text: event + (move.assuming.map { " [\($0)]" } ?? ""), json: json(event)),
            effects: Shown(text: row.effects.joined(separator: ", "), json: json(row.effects)),
            outcome: json(row.to == "(stay)" ? LoggedOutcome.stayed : .transitioned), to: -1)
          return (edge, move.to)
        }
      })
  }
}
