/// A machine read from a Markdown spec: the format ``TransitionTable/markdown()`` prints.
///
/// A spec holds, anywhere among prose and code blocks:
/// - optionally a `- machine:` line with the name as a code span, and a `- unhandled events:`
///   line with `reject` or `ignore` as a code span;
/// - a table with the columns `state | role | entry | exit` (role: `initial`, `final`, both, or empty);
/// - a table with the columns `from | event | guard | to | effects`, where `from` is a state,
///   a comma-separated list of states or `*`, and `to` is a state, `(stay)` or `(ignore)`.
///
/// ```swift
/// let spec = try SpecDocument.parse(text, file: "Specs/door.md")
/// let table = spec.table          // TransitionTable<String, String, NoContext, String>
/// for finding in spec.check() { print(finding) }
/// ```
///
/// Guards of a spec are names only: they never hold when the run-time table steps
/// (`Guard.opaque(_:holds:)`); analysis treats them as possibly true.
public struct SpecDocument: Sendable {
  /// A state line of the spec.
  package struct State: Hashable, Sendable {
    /// The state's name.
    package var name: String
    /// Marked `initial` in the role column.
    var isInitial: Bool
    /// Marked `final` in the role column.
    package var isFinal: Bool
    /// Its entry effects, by name.
    package var entry: [String]
    /// Its exit effects, by name.
    package var exit: [String]
    /// The line it was read from.
    package var line: Int
  }

  /// A transition line of the spec.
  package struct Transition: Hashable, Sendable {
    /// Source states; empty for `*`.
    package var from: [String]
    /// The event's name.
    package var event: String
    /// The guard's name, if any (a spec has no code behind it).
    package var guardName: String?
    /// A state name, `(stay)` or `(ignore)`.
    package var to: String
    /// The row's effects, by name.
    package var effects: [String]
    /// The line it was read from.
    package var line: Int
    /// `to` was written as a code span: a state, even one named `(stay)` or `(ignore)`.
    var targetIsState = false

    init(from: [String], event: String, guardName: String?, to: String, effects: [String], line: Int) {
      (self.from, self.event, self.guardName, self.to, self.effects, self.line) = (from, event, guardName, to, effects, line)
    }
  }

  /// The file the spec came from.
  package let file: String
  /// The machine's name (`- machine:`), or the file name without extension.
  package let name: String
  /// `- unhandled events:`, `reject` when absent.
  package let policy: InvalidTransitionPolicy
  /// The states, in the order of the states table.
  package let states: [State]
  /// The transitions, in the order of the transitions table.
  package let transitions: [Transition]

  /// The run-time table. Built leniently: its ``TransitionTable/problems`` list what is wrong.
  public private(set) var table: TransitionTable<String, String, NoContext, String>

  init(file: String, name: String, policy: InvalidTransitionPolicy, states: [State], transitions: [Transition]) {
    self.file = file
    self.name = name
    self.policy = policy
    self.states = states
    self.transitions = transitions
    self.table = Self.makeTable(name: name, policy: policy, states: states, transitions: transitions)
  }

  static func makeTable(
    name: String, policy: InvalidTransitionPolicy, states: [State], transitions: [Transition]
  ) -> TransitionTable<String, String, NoContext, String> {
    let initial = states.first(where: \.isInitial)?.name
    let stand = initial ?? states.first?.name ?? transitions.first?.from.first ?? "initial"
    let declarations = states.map { state in
      state.isFinal
        ? StateDeclaration<String, String>.final(state.name, entry: state.entry, exit: state.exit)
        : .state(state.name, entry: state.entry, exit: state.exit)
    }
    let rows = transitions.map { t -> Row<String, String, NoContext, String> in
      let target: Row<String, String, NoContext, String>.Target =
        switch t.to {
        case Rendering.stay where !t.targetIsState: .stay
        case Rendering.ignore where !t.targetIsState: .ignore
        default: .state(t.to)
        }
      var row = Row<String, String, NoContext, String>(
        source: t.from.isEmpty ? .any : .states(t.from), event: t.event, target: target, effects: t.effects)
      if let guardName = t.guardName { row = row.when(.opaque(guardName)) }
      return row
    }
    return TransitionTable(
      lenient: name, initial: stand, states: declarations, rows: rows, policy: policy, missingInitial: initial == nil)
  }

  /// Every finding about the spec, each with the spec lines it is about.
  public func check() -> [(finding: Finding, lines: [Int])] {
    table.check().map { finding in
      (finding, finding.rows.compactMap { transitions.indices.contains($0 - 1) ? transitions[$0 - 1].line : nil })
    }
  }
}
