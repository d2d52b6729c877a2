import StateMachine
import StateMachineChecking
import Testing

/// Exploring with an abstraction of the context: configurations are told apart by what the key
/// keeps, so a context that grows without bound still gives a finite space; invariants still
/// see the real context.
@Suite("Exploring up to an abstraction of the context")
struct AbstractionTests {
  enum Phase: Hashable, Sendable, Discriminated { case on }
  enum Input: Hashable, Sendable, Discriminated { case tick, reset }

  static func table() throws -> TransitionTable<Phase, Input, Int, Never> {
    try TransitionTable(
      name: "ticker", initial: .on,
      rows: [
        .stay(in: .on, on: .tick).update { count, _ in count += 1 },
        .stay(in: .on, on: .reset).update { count, _ in count = 0 },
      ])
  }

  static func chart() throws -> Chart<String, String, Int, String> {
    try Chart(name: "ticker", states: [
      .atomic("on", transitions: [
        .on("tick", do: [.update { count, _ in count += 1 }]),
        .on("reset", do: [.update { count, _ in count = 0 }]),
      ]),
    ])
  }

  /// What exploring a ticker whole and abstracted found, whatever its kind.
  struct Found: Equatable {
    let wholeTruncated: Bool
    let abstractTruncated: Bool
    let configurations: Int
    let violations: [String]
    let path: [String]
  }

  struct Kind: Sendable, CustomStringConvertible {
    let description: String
    let explore: @Sendable () throws -> Found
  }

  static let kinds = [
    Kind(description: "a table (by state and the context's key)") {
      let explorer = Explorer(table: try table(), context: 0, alphabet: [.tick, .reset]).invariant("at most 2") { _, count in count <= 2 }
      let (whole, abstract) = (explorer.explore(depth: 1_000, limit: 200), explorer.abstracting { min($0, 3) }.explore(depth: 1_000, limit: 200))
      return Found(
        wholeTruncated: whole.truncated, abstractTruncated: abstract.truncated, configurations: abstract.configurations,
        violations: abstract.violations.map(\.property), path: (abstract.violations.first?.path ?? []).map { "\($0)" })
    },
    Kind(description: "a chart (by active states and the context's key)") {
      let explorer = Explorer(chart: try chart(), context: 0, alphabet: ["tick", "reset"]).invariant("at most 2") { _, count in count <= 2 }
      let (whole, abstract) = (explorer.explore(depth: 1_000, limit: 200), explorer.abstracting { min($0, 3) }.explore(depth: 1_000, limit: 200))
      return Found(
        wholeTruncated: whole.truncated, abstractTruncated: abstract.truncated, configurations: abstract.configurations,
        violations: abstract.violations.map(\.property), path: abstract.violations.first?.path ?? [])
    },
  ]

  @Test("the whole context never ends; its abstraction gives four configurations, and the invariant sees the real count", arguments: kinds)
  func abstraction(_ kind: Kind) throws {
    #expect(
      try kind.explore()
        == Found(wholeTruncated: true, abstractTruncated: false, configurations: 4, violations: ["at most 2"], path: ["tick", "tick", "tick"]))
  }

  @Test("the identity abstraction explores what the whole context does")
  func identity() throws {
    let explorer = Explorer(chart: try Self.chart(), context: 0, alphabet: ["tick", "reset"])
    let whole = explorer.explore(depth: 12, limit: 1_000)
    let same = explorer.abstracting { $0 }.explore(depth: 12, limit: 1_000)
    #expect(whole.configurations == same.configurations)
    #expect(whole.maxDepth == same.maxDepth)
  }
}
