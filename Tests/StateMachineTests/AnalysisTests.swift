import StateMachine
import StateMachineExamples
import Testing

@Suite("Analysis")
struct AnalysisTests {
  @Test("Door: reachability, final states, unhandled pairs")
  func door() {
    let a = Door.table.analyze()
    #expect(a.initial == .closed)
    #expect(a.reachable == [.closed, .open, .locked, .broken])
    #expect(a.unreachable == [])
    #expect(a.finalStates == [.broken])
    #expect(a.deadEnds == [])
    #expect(a.isComplete)
    let unhandled = a.unhandled.map { "\($0.state).\($0.event)" }
    #expect(unhandled == ["closed.close", "closed.unlock", "open.lock", "open.unlock", "open.knock", "locked.open", "locked.close", "locked.lock"])
  }

  @Test("CD player is clean: everything reachable, no dead end, unhandled pairs ignored by policy")
  func cdPlayer() {
    let a = CDPlayer.table.analyze()
    #expect(a.unreachable.isEmpty)
    #expect(a.deadEnds.isEmpty)
    #expect(a.unhandled.count == 18)
    #expect(CDPlayer.table.check().isEmpty)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let rows: [Row<String, String, NoContext, String>]
    let states: [StateDeclaration<String, String>]
    let unreachable: [String]
    let deadEnds: [String]
    let kinds: [Finding.Kind]
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    .init(label: "unreachable state", rows: [.transition(from: "a", on: "e", to: "b"), .transition(from: "b", on: "e", to: "a"),
                                            .transition(from: "c", on: "e", to: "a")],
          states: [], unreachable: ["c"], deadEnds: [], kinds: [.unreachable]),
    .init(label: "dead end that is not final", rows: [.transition(from: "a", on: "e", to: "b")],
          states: [], unreachable: [], deadEnds: ["b"], kinds: [.deadEnd, .unhandled]),
    .init(label: "a final state is no dead end", rows: [.transition(from: "a", on: "e", to: "b")],
          states: [.state("a"), .final("b")], unreachable: [], deadEnds: [], kinds: []),
    .init(label: "a state with only a self-loop is a dead end", rows: [.transition(from: "a", on: "e", to: "b"), .stay(in: "b", on: "e")],
          states: [], unreachable: [], deadEnds: ["b"], kinds: [.deadEnd]),
    .init(label: "unhandled pair under the reject policy", rows: [.transition(from: "a", on: "e", to: "b"), .transition(from: "b", on: "f", to: "a")],
          states: [], unreachable: [], deadEnds: [], kinds: [.unhandled, .unhandled]),
  ]

  @Test("findings", arguments: cases)
  func findings(_ c: Case) throws {
    let table = try TransitionTable<String, String, NoContext, String>(initial: "a", states: c.states, rows: c.rows)
    let a = table.analyze()
    #expect(a.unreachable == c.unreachable)
    #expect(a.deadEnds == c.deadEnds)
    #expect(!a.isComplete, "String cases are not enumerable")
    #expect(table.check().map(\.kind) == c.kinds)
  }
}
