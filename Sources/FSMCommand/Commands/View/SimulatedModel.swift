import StateMachine
import StateMachineChecking

/// A model `fsm view` can simulate: one whose machine's types are `Codable`. Found at run time
/// (``Catalog/Model/explored(_:)`` casts to it), so one entry point takes every kind of model
/// and simulates the ones it can.
protocol SimulatedModel {
  /// The simulator of this model's machine from its context over its alphabet: at most so many
  /// configurations.
  var simulator: @Sendable (Int) -> Result<Simulation, ViewFailure> { get }
}

extension MachineModel: SimulatedModel where Definition: Simulated {
  var simulator: @Sendable (Int) -> Result<Simulation, ViewFailure> {
    { limit in Definition.simulation(of: definition, context: context, alphabet: alphabet, limit: limit) }
  }
}

/// A kind of machine whose definition `fsm view` simulates (its types are `Codable`). (Its
/// context is `Sendable`, as a model's is, but a conformance found at run time cannot say so.)
protocol Simulated: ExplorableDefinition {
  /// The simulation of `definition` from `context` over `alphabet`: at most `limit` configurations.
  static func simulation(of definition: Self, context: Context, alphabet: [Event], limit: Int) -> Result<Simulation, ViewFailure>
}

extension TransitionTable: Simulated where State: Codable & Hashable, Event: Codable, Context: Codable & Hashable, Effect: Codable {
  static func simulation(of table: Self, context: Context, alphabet: [Event], limit: Int) -> Result<Simulation, ViewFailure> {
    .success(.of(table: table, context: context, alphabet: alphabet, limit: limit))
  }
}

extension Chart: Simulated where ID: Codable, Event: Codable, Context: Codable & Hashable, Effect: Codable {
  static func simulation(of chart: Self, context: Context, alphabet: [Event], limit: Int) -> Result<Simulation, ViewFailure> {
    Simulation.of(chart: chart, context: context, alphabet: alphabet, limit: limit)
      .mapError { ViewFailure(message: "\(chart.name) cannot start: \($0)") }
  }
}

extension MachineSystem: Simulated where Root: SimulatedRoot {
  static func simulation(of system: Self, context: Context, alphabet: [Event], limit: Int) -> Result<Simulation, ViewFailure> {
    Root.systemLog(of: system.root, context: context).flatMap { log in
      Simulation.of(
        system: system, context: context, alphabet: alphabet, limit: limit, states: log.states, header: log.header,
        active: log.active)
    }
  }
}

/// A kind of machine whose systems `fsm view` simulates, as their root (its types are
/// `Codable`).
protocol SimulatedRoot: StoreDefinition, ExplorableDefinition where Configuration: Hashable, Context: Encodable {
  /// The header of the log of a system whose root is `root`, started from `context`, the
  /// root's states as the page shows them, and how a configuration of the root names its
  /// active states.
  static func systemLog(of root: Self, context: Context) -> Result<(header: String, states: [SessionState], active: (Configuration) -> [String]), ViewFailure>
}

extension TransitionTable: SimulatedRoot
where State: Codable & Hashable, Event: Codable, Context: Codable & Hashable, Effect: _StoreCommand, Effect.Event == Event {
  static func systemLog(of table: Self, context: Context) -> Result<(header: String, states: [SessionState], active: (State) -> [String]), ViewFailure> {
    .success((Simulation.header(of: table, context: context), table.sessionStates, Simulation.active))
  }
}

extension Chart: SimulatedRoot
where ID: Codable, Event: Codable, Context: Codable & Hashable, Effect: _StoreCommand, Effect.Event == Event {
  static func systemLog(of chart: Self, context: Context) -> Result<(header: String, states: [SessionState], active: ([ID]) -> [String]), ViewFailure> {
    Simulation.started(chart, context: context)
      .map { _, header in (header, chart.sessionStates, Simulation.active) }
      .mapError { ViewFailure(message: "\(chart.name) cannot start: \($0)") }
  }
}
