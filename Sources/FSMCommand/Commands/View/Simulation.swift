import Foundation
import StateMachine

/// What a simulator page (`fsm view <machine>` without a log) walks: the configurations
/// reached from the start over the machine's alphabet, breadth-first up to a limit, and from
/// each one the events it handles, each with the log entry taking it records. The page keeps
/// the path clicked and writes it as a log (`fsm replay` reads it) from these pieces.
struct Simulation: Sendable {
  /// A configuration reached: what the page shows, and the JSON a log entry ending there has.
  struct Node: Sendable, Hashable {
    /// The configuration as it reads (a table's state; a chart's active states).
    var configuration: String
    /// The active states' names, to light in the drawing.
    var active: [String]
    /// The logged state and context, as JSON (a log entry's `state` and `context`).
    var state: String
    var context: String
  }

  /// An event the configuration handles, and where it goes: the event and the effects as
  /// they read and as a log entry has them (JSON), the entry's `outcome` (JSON), and the
  /// configuration it reaches (an index into ``Simulation/nodes``; -1 past the limit).
  struct Edge: Sendable, Hashable {
    var event: Shown, effects: Shown, outcome: String, to: Int
    /// A system's input: each machine's step it caused, as its log line (the root's entry
    /// fields, or a child's line), whose sequence the page numbers along the path clicked.
    /// (`nil`: the edge is one entry, made of the pieces above.)
    var lines: [String]? = nil
  }

  /// A value as it reads, and as JSON.
  struct Shown: Sendable, Hashable {
    var text: String, json: String
  }

  /// The machine's name, its states (to draw) and its log's first line (JSON).
  var machine: String
  var states: [SessionState]
  var header: String
  /// The configurations reached, the start first, and each one's handled events in the
  /// alphabet's order.
  var nodes: [Node] = []
  var edges: [[Edge]] = []
  /// How each configuration was first reached (the start: none): a configuration before it
  /// and the index of the edge from there. Followed back, a shortest path to it.
  var reachedBy: [(node: Int, edge: Int)?] = []
  /// The limit stopped the search: some configurations were not reached.
  var truncated = false
  /// A system's steps at its start (its log's lines after the header, before any input's).
  var startLines: [String] = []

  /// The configurations a machine reaches from `start` over `alphabet`, at most `limit` of
  /// them: `node` describes a position, `steps` takes an event from one and says what a log
  /// entry of each way it may go has (none: not handled, or the machine cannot take it; a
  /// spec's guarded rows: several). Positions are the same when their logged state and
  /// context are.
  static func explore<Position, Event>(
    machine: String, states: [SessionState], header: String, start: Position, alphabet: [Event], limit: Int,
    node: (Position) -> Node, steps: (Position, Event) -> [(edge: Edge, next: Position)]
  ) -> Simulation {
    var simulation = Simulation(machine: machine, states: states, header: header)
    var positions = [start]
    var numbers: [String: Int] = [:]
    func file(_ described: Node, key: String, by: (node: Int, edge: Int)?) -> Int {
      numbers[key] = simulation.nodes.count
      simulation.nodes.append(described)
      simulation.edges.append([])
      simulation.reachedBy.append(by)
      return simulation.nodes.count - 1
    }
    let first = node(start)
    _ = file(first, key: first.state + "\n" + first.context, by: nil)
    var head = 0
    while head < positions.count {
      let here = positions[head]
      for event in alphabet {
        for (taken, next) in steps(here, event) {
          var edge = taken
          let described = node(next)
          let key = described.state + "\n" + described.context
          if let known = numbers[key] {
            edge.to = known
          } else if simulation.nodes.count < limit {
            edge.to = file(described, key: key, by: (head, simulation.edges[head].count))
            positions.append(next)
          } else {
            simulation.truncated = true
            edge.to = -1
          }
          simulation.edges[head].append(edge)
        }
      }
      head += 1
    }
    return simulation
  }

  /// The explored configurations as a DOT graph: a node per configuration (its active
  /// states and its number; its context as the tooltip), an edge per pair of configurations an event leads between (the
  /// events' names on it).
  func dot() -> String {
    func quoted(_ text: String) -> String {
      "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    var lines = ["digraph space {", "  node [shape=box, style=rounded, fontsize=10];", "  edge [fontsize=9];"]
    for (k, node) in nodes.enumerated() {
      lines.append("  c\(k) [label=\(quoted(node.configuration + "\n#\(k)")), tooltip=\(quoted(node.context))];")
    }
    for (k, edges) in edges.enumerated() {
      var events: [Int: [String]] = [:]
      for edge in edges where edge.to >= 0 { events[edge.to, default: []].append(edge.event.text) }
      for (to, names) in events.sorted(by: { $0.key < $1.key }) {
        let label = names.joined(separator: ", ")
        lines.append("  c\(k) -> c\(to) [label=\(quoted(label.count > 40 ? label.prefix(37) + "..." : label))];")
      }
    }
    return (lines + ["}"]).joined(separator: "\n") + "\n"
  }

  /// A value as JSON, as a log writes it (sorted keys, slashes not escaped).
  static func json(_ value: some Encodable) -> String {
    (try? AnyJSON.encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
  }
}
