import StateMachine
import StateMachineChecking

/// The machines the `fsm` commands take by name: your own (the package's `fsm` gives them the
/// package's examples). Pass yours to ``FSM/main(_:catalog:)`` to make an `fsm` of your own machines:
///
/// ```swift
/// // Sources/upload-fsm/main.swift, in a target that depends on "FSMCommand"
/// import FSMCommand
/// import Foundation
///
/// let catalog = Catalog(
///     machines: [MachineDescription(Upload.table, summary: "the upload flow")],
///     demos: [Upload.demo],
///     models: [.table(Upload.model)])
/// exit(await FSM.main(Array(CommandLine.arguments.dropFirst()), catalog: catalog))
/// ```
///
/// Then `swift run upload-fsm show upload`, `check`, `explore`, `demo` and `replay` work on it
/// as `fsm` does on the examples; spec files and charts work by path as always.
public struct Catalog: Sendable {
  /// The machines `list`, `show`, `check` and `replay` know.
  public var machines: [MachineDescription]
  /// The scripted runs `demo` plays.
  public var demos: [MachineDemo]
  /// How `explore` checks each machine, by name.
  var explorers: [String: ExploreCommand.Run]
  /// How `view` simulates each machine, by name: its configurations over its model's
  /// alphabet, at most so many (a machine whose types are `Codable`).
  var simulators: [String: @Sendable (Int) -> Result<Simulation, ViewFailure>]

  /// How `fsm explore` checks one machine: its model's alphabet and invariants.
  public struct Model: Sendable {
    let name: String
    let run: ExploreCommand.Run
    var simulate: (@Sendable (Int) -> Result<Simulation, ViewFailure>)?

    /// A table's model (``explored(_:)``).
    public static func table<S, E, C, Effect>(_ model: MachineModel<TransitionTable<S, E, C, Effect>>) -> Model { explored(model) }

    /// A chart's model (``explored(_:)``).
    public static func chart<ID, E, C, Effect>(_ model: MachineModel<Chart<ID, E, C, Effect>>) -> Model { explored(model) }

    /// A model of any kind: a table's, a chart's, or a system of machines' (a ``MachineModel``
    /// over a `MachineSystem`, named by its root): `fsm explore` explores it and walks it.
    /// When its types are `Codable` (a system's: its root's), `fsm view` also simulates it over
    /// the model's alphabet, and writes the path clicked as a log (a system's with each child's
    /// steps in it).
    ///
    /// ```swift
    /// models: [.explored(UploadQueue.model)]   // fsm explore upload-queue, fsm view upload-queue
    /// ```
    public static func explored<Definition: ExplorableDefinition>(_ model: MachineModel<Definition>) -> Model
    where Definition.Context: Sendable {
      Model(name: model.definition.name, run: ExploreCommand.run(model), simulate: (model as? any SimulatedModel)?.simulator)
    }
  }

  /// A catalog of `machines`, with their `demos` and the `models` `explore` uses.
  public init(machines: [MachineDescription], demos: [MachineDemo] = [], models: [Model] = []) {
    self.machines = machines
    self.demos = demos
    explorers = Dictionary(models.map { ($0.name, $0.run) }, uniquingKeysWith: { first, _ in first })
    simulators = Dictionary(models.compactMap { model in model.simulate.map { (model.name, $0) } }, uniquingKeysWith: { first, _ in first })
  }


  func machine(named name: String) -> MachineDescription? { machines.first { $0.name == name } }
  func demo(named name: String) -> MachineDemo? { demos.first { $0.name == name } }
}
