import StateMachine

/// The simulation of a system of machines: its inputs are events for the root and messages for
/// its children, and each input's way to go carries the log lines of every step it caused.
extension Simulation {
  /// A system from its start, over `alphabet`: positions are the system as a value, the same
  /// when the root's configuration and context and each child's path, configuration and context
  /// are (as an explorer counts them). `active` names the root's active states.
  static func of<Root: StoreDefinition>(
    system: MachineSystem<Root>, context: Root.Context, alphabet: [SystemEvent<Root.Event>], limit: Int, states: [SessionState],
    header: String, active: @escaping (Root.Configuration) -> [String]
  ) -> Result<Simulation, ViewFailure> where Root.Context: Encodable, Root.Configuration: Hashable {
    var start = SystemMachine(system, context: context)
    let started = SystemLog()
    do throws(SystemRunError) { try start.begin(logging: started) } catch {
      return .failure(ViewFailure(message: "\(system.name) cannot start: \(error)"))
    }
    var unrecordable = started.lines.lazy.compactMap(\.unrecordable).first
    var simulation = explore(
      machine: system.name, states: states, header: header, start: start, alphabet: alphabet, limit: limit,
      node: { machine in
        Node(
          configuration: "\(machine.configuration)", active: active(machine.configuration.root), state: machine.placeDescription,
          context: json(machine.context))
      },
      steps: { here, input in
        var machine = here
        let log = SystemLog()
        // An input nothing takes (or one that does not settle) is not a way to go.
        guard let response = try? machine.step(input, logging: log), response.isHandled else { return [] }
        if let problem = log.lines.lazy.compactMap(\.unrecordable).first {
          unrecordable = unrecordable ?? problem
          return []
        }
        let edge = Edge(
          event: Shown(text: "\(input)", json: "null"), effects: Shown(text: log.lines.map(\.shown).joined(separator: "; "), json: "[]"),
          outcome: json("handled"), to: -1, lines: log.lines.compactMap(\.json))
        return [(edge, machine)]
      })
    if let unrecordable { return .failure(ViewFailure(message: "\(system.name) cannot be simulated: \(unrecordable)")) }
    simulation.startLines = started.lines.compactMap(\.json)
    return .success(simulation)
  }
}
