import Foundation
@testable import StateMachine
import Testing

/// check() warns about an external transition that starts and ends inside a parallel state
/// but exits it, restarting every region.
@Suite("check(): transitions that restart a parallel state")
struct ParallelResetTests {
  typealias S = ChartState<String, String, NoContext, String>
  typealias T = ChartTransition<String, String, NoContext, String>

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let transition: T
    let source: String
    let says: String?
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "external, region root to its child", transition: .on("next", to: "a2"), source: "left",
         says: "in 'left', the external transition 'next' starts and ends inside the parallel state 'p' but exits and re-enters it: make it internal"),
    Case(label: "internal, region root to its child", transition: .within("next", to: "a2"), source: "left", says: nil),
    Case(label: "atomic to its sibling in the region", transition: .on("next", to: "a2"), source: "a1", says: nil),
    Case(label: "region root to the other region", transition: .on("next", to: "b2"), source: "left",
         says: "every region of 'p' restarts"),
    Case(label: "leaving the parallel state", transition: .on("next", to: "out"), source: "left", says: nil),
  ]

  static func chart(_ c: Case) throws -> Chart<String, String, NoContext, String> {
    let extra = { (id: String) in id == c.source ? [c.transition] : [] }
    return try Chart(name: "regions", states: [
      .parallel("p", regions: [
        .compound("left", children: [.atomic("a1", transitions: extra("a1")), .atomic("a2")], transitions: extra("left")),
        .compound("right", children: [.atomic("b1", transitions: [.on("go", to: "b2")]), .atomic("b2")]),
      ], transitions: [.on("leave", to: "out")]),
      .atomic("out", transitions: [.on("back", to: "p")]),
    ])
  }

  @Test("the finding names the transition and the parallel state, and suggests an internal transition when one would do", arguments: cases)
  func finding(_ c: Case) throws {
    let chart = try Self.chart(c)
    let messages = chart.check().map(\.message).filter { $0.contains("inside the parallel state") }
    if let says = c.says {
      #expect(messages.count == 1)
      #expect(messages.first?.contains(says) == true, "\(messages)")
    } else {
      #expect(messages.isEmpty, "\(messages)")
    }
  }

  @Test("what the finding warns about: the external transition resets the sibling region, the internal one does not")
  func behaviour() throws {
    for (c, keeps) in [(Self.cases[0], false), (Self.cases[1], true)] {
      var machine = ChartMachine(try Self.chart(c), context: NoContext())
      _ = try machine.start()
      _ = try machine.send("go")
      _ = try machine.send("next")
      #expect(machine.configuration == ["a2", keeps ? "b2" : "b1"], "\(c.label)")
    }
  }
}
