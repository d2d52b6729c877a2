import Testing

@testable import StateMachine

/// A table calls each row's guard through a box; rows made with one `Guard` value (and every
/// state a wildcard row expands to) share that guard's box, so a guard on many rows is one
/// object in the cache, and each still holds or fails for its own row.
@Suite("Guard boxes")
struct GuardBoxTests {
  enum S: Hashable, Sendable, CaseIterable, Discriminated { case a, b, c }
  enum E: Hashable, Sendable, CaseIterable, Discriminated { case go, stop }

  @Test("rows with one guard share its box; other guards have their own")
  func shared() throws {
    let small = Guard<Int, E>("small") { n, _ in n < 3 }
    let large = Guard<Int, E>("large") { n, _ in n >= 3 }
    let table = try TransitionTable<S, E, Int, Never>(
      initial: .a,
      rows: [
        Row.transition(from: .a, on: .go, to: .b).when(small),
        Row.transition(from: .a, on: .go, to: .c).when(large),
        Row.transition(from: .b, on: .go, to: .c).when(small),
        Row.fromAny(on: .stop, to: .a).when(small),
      ])
    let storage = table.storage
    let boxes = (0..<storage.count).compactMap { storage.condition[$0]?.takeUnretainedValue() }
    #expect(boxes.count == storage.count)
    let distinct = Set(boxes.map(ObjectIdentifier.init))
    #expect(distinct == [ObjectIdentifier(small.box), ObjectIdentifier(large.box)])

    #expect(table.step(.a, 0, .go).state == .b)
    #expect(table.step(.a, 5, .go).state == .c)
    #expect(table.step(.c, 1, .stop).state == .a)
    #expect(table.step(.c, 4, .stop).outcome == .rejected(.guardsFailed))
  }
}
