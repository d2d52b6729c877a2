import Testing

@testable import StateMachine

/// `Store.state` reads a small plain state from an atomic word instead of taking the lock: the
/// word must give back exactly the state, and larger or counted states must take the lock.
@Suite("State words")
struct StateWordTests {
  enum Plain: Hashable, Sendable { case idle, loading, done }
  enum Paged: Hashable, Sendable, Discriminated { case idle, page(Int32), failed(code: UInt16) }
  struct Pair: Hashable, Sendable { var a: UInt32, b: UInt32 }
  struct Nine: Hashable, Sendable { var a: UInt64, b: UInt8 }
  enum Hit: Hashable, Sendable, Discriminated { case one, two }

  @Test("small plain states round-trip through a word")
  func roundTrip() {
    for state in [Plain.idle, .loading, .done] { #expect(StateWord<Plain>.fits && StateWord.state(StateWord.word(state)) == state) }
    for state in [Paged.idle, .page(0), .page(-7), .page(.max), .failed(code: 404)] {
      #expect(StateWord<Paged>.fits && StateWord.state(StateWord.word(state)) == state)
    }
    #expect(StateWord<Pair>.fits && StateWord.state(StateWord.word(Pair(a: 1, b: .max))) == Pair(a: 1, b: .max))
  }

  @Test("larger or reference-counted states do not fit")
  func notFitting() {
    #expect(!StateWord<Nine>.fits)
    #expect(!StateWord<String>.fits)
    #expect(!StateWord<[Int]>.fits)
  }

  @Test("store.state follows every step, with and without the word")
  func storeState() async {
    let words = try! TransitionTable<Paged, Hit, NoContext, Command<Hit, Never>>(
      initial: .idle, rows: [.fromAny(on: .one, to: .page(1)), .fromAny(on: .two, to: .failed(code: 2))])
    let locked = try! TransitionTable<String, Hit, NoContext, Command<Hit, Never>>(
      initial: "idle", rows: [.fromAny(on: .one, to: "page 1"), .fromAny(on: .two, to: "failed 2")])
    let a = Store(words, context: NoContext()) { _, _ in }
    let b = Store(locked, context: NoContext()) { _, _ in }
    #expect(a.state == .idle && b.state == "idle")
    for event in [Hit.one, .two, .two, .one] {
      a.send(event)
      b.send(event)
      #expect(a.state == (event == .one ? .page(1) : .failed(code: 2)))
      #expect(b.state == (event == .one ? "page 1" : "failed 2"))
    }
    await a.finish()
    await b.finish()
  }
}
