import Foundation
import StateMachine
import Testing

/// check() reports a name given to different code: SCXML binds a name to one closure, so the
/// chart read back from its export would run that one everywhere.
@Suite("check(): one name for different code")
struct SharedNameTests {
  struct Count: Sendable, Equatable { var n = 0 }
  typealias Action = ChartAction<String, Count, String>
  typealias Guard = ChartGuard<String, String, Count>

  static let addOne = Action.update("bump") { c, _ in c.n += 1 }
  static let addTen = Action.update("bump") { c, _ in c.n += 10 }
  static func freshAddOne() -> Action { .update("bump") { c, _ in c.n += 1 } }
  static func adding(_ k: Int) -> Action { .update("bump") { c, _ in c.n += k } }
  static let small = Guard("small") { c, _ in c.n < 5 }
  static let smaller = Guard("small") { c, _ in c.n < 2 }
  static let ping = Action.make("ping") { _, _ in "ping" }
  static let pong = Action.make("ping") { _, _ in "pong" }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let first: Action
    let second: Action
    var guards: (Guard?, Guard?) = (nil, nil)
    /// What the finding names; `nil`: no finding.
    let says: String?
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "one update value used twice", first: addOne, second: addOne, says: nil),
    Case(label: "one closure literal made twice", first: freshAddOne(), second: freshAddOne(), says: nil),
    Case(label: "two closures under one name", first: addOne, second: addTen, says: "the update name 'bump' is given to different code"),
    Case(label: "one literal capturing different values", first: adding(1), second: adding(2), says: "the update name 'bump'"),
    Case(label: "two makes under one name", first: ping, second: pong, says: "the make name 'ping'"),
    Case(label: "one guard value used twice", first: addOne, second: addOne, guards: (small, small), says: nil),
    Case(label: "two guards under one name", first: addOne, second: addOne, guards: (small, smaller), says: "the guard name 'small'"),
  ]

  static func chart(_ c: Case) throws -> Chart<String, String, Count, String> {
    try Chart(name: "shared", states: [
      .atomic("a", transitions: [.on("go", when: c.guards.0, to: "b", actions: [c.first])]),
      .atomic("b", transitions: [.on("go", when: c.guards.1, to: "a", actions: [c.second])]),
    ])
  }

  @Test("a name shared by different code is a finding; one closure in several places is not", arguments: cases)
  func sharedNames(_ c: Case) throws {
    let chart = try Self.chart(c)
    let found = chart.check().map(\.message).filter { $0.contains("is given to different code") }
    if let says = c.says {
      #expect(found.count == 1, "\(found)")
      #expect(found.first?.contains(says) == true, "\(found)")
      #expect(found.first?.contains("a: go") == true && found.first?.contains("b: go") == true, "names both places: \(found)")
    } else {
      #expect(found.isEmpty, "\(found)")
      // And then the read-back chart does what this one does.
      let back = try Chart(scxml: Data(try chart.scxml().utf8), file: "shared.scxml", bindings: chart.scxmlBindings)
      var (x, y) = (ChartMachine(chart, context: Count()), ChartMachine(back, context: Count()))
      _ = try (x.start(), y.start())
      for _ in 0..<6 { _ = try (x.send("go"), y.send("go")) }
      #expect(x.context == y.context && x.configuration == y.configuration)
    }
  }
}
