import StateMachine
import Testing

/// Invocation ids: two invocations whose states can be active at once may not share an id
/// (they would be two children under one name), and states that never are active together may.
@Suite("Chart invocation ids")
struct ChartInvokeIDTests {
  typealias C = Chart<String, String, NoContext, String>
  typealias S = ChartState<String, String, NoContext, String>

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    /// The states of the chart; invocations are added by `invoking`.
    let states: [S]
    /// Per state id, the ids of its invocations (`nil`: one made as it runs, `<state>.<n>`).
    let invoking: [String: [String?]]
    /// The problem expected, as it reads (`nil`: the chart builds).
    let problem: String?
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(
      label: "two in one state", states: [.atomic("a")], invoking: ["a": ["w", "w"]],
      problem: "state 'a': invokes 'w', as this state does, and both can run at once: an invocation's id names one child"),
    Case(
      label: "a state and its descendant", states: [.compound("p", children: [.atomic("a")])], invoking: ["p": ["w"], "a": ["w"]],
      problem: "state 'a': invokes 'w', as state 'p' does, and both can run at once"),
    Case(
      label: "two regions of a parallel state",
      states: [.parallel("p", regions: [.atomic("a"), .compound("r", children: [.atomic("b")])])], invoking: ["a": ["w"], "b": ["w"]],
      problem: "state 'b': invokes 'w', as state 'a' does, and both can run at once"),
    Case(
      label: "two regions, with states of one region that never run together between them",
      states: [.parallel("p", regions: [.compound("r", children: [.atomic("a"), .atomic("b")]), .atomic("c")])],
      invoking: ["a": ["w"], "b": ["w"], "c": ["w"]], problem: "state 'c': invokes 'w', as state 'b' does, and both can run at once"),
    Case(
      label: "an id the same as one made as it runs", states: [.atomic("a")], invoking: ["a": [nil, "a.1"]],
      problem: "state 'a': invokes 'a.1', as this state does"),
    Case(
      label: "two states never active together (siblings) may share an id",
      states: [.atomic("a"), .atomic("b")], invoking: ["a": ["w"], "b": ["w"]], problem: nil),
    Case(
      label: "siblings inside one region of a parallel state may share an id",
      states: [.parallel("p", regions: [.compound("r", children: [.atomic("a"), .atomic("b")]), .atomic("c")])],
      invoking: ["a": ["w"], "b": ["w"]], problem: nil),
    Case(label: "ids made as they run differ", states: [.atomic("a")], invoking: ["a": [nil, nil]], problem: nil),
  ]

  /// `states` with each state's invocations (of a child that does nothing) added, anywhere in
  /// the tree.
  static func invoking(_ states: [S], _ ids: [String: [String?]], child: C) -> [S] {
    states.map { state in
      var state = state
      state.invokes = (ids[state.id] ?? []).map { ChartInvoke(id: $0, chart: child) }
      state.children = invoking(state.children, ids, child: child)
      return state
    }
  }

  @Test("a chart refuses two invocations with one id that can run at once, and only those", arguments: cases)
  func ids(_ c: Case) throws {
    let child = try C(name: "child", states: [.atomic("idle")])
    let states = Self.invoking(c.states, c.invoking, child: child)
    do {
      _ = try C(name: "parent", states: states)
      #expect(c.problem == nil, "built, but expected: \(c.problem ?? "")")
    } catch {
      let problem = try #require(c.problem, "expected to build: \(error)")
      #expect(error.problems.count == 1, "\(error)")
      #expect(error.description.contains(problem), "\(error)")
    }
  }
}
