import Dispatch
@testable import StateMachine
import Testing

/// The store's set-once references (its subscriptions and recorder): one object wins however
/// many threads store at once, every caller gets that one, and it is released with the holder.
@Suite("Set-once references")
struct OnceReferenceTests {
  final class Box: Sendable {
    let n: Int
    init(_ n: Int) { self.n = n }
  }

  final class Holder: Sendable {
    let reference = OnceReference<Box>()
  }

  @Test("sixteen threads store at once: one object wins, and every one of them gets it")
  func race() {
    let holder = Holder()
    let got = Locked<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: 16) { i in
      let winner = holder.reference.storeIfNil(Box(i))
      got.withLock { $0.append(winner.n) }
    }
    let values = got.withLock { $0 }
    #expect(values.count == 16)
    #expect(Set(values).count == 1, "\(values)")
    #expect(holder.reference.load()?.n == values.first)
  }

  @Test("the stored object lives as long as the holder, and the losers are released at once")
  func lifetime() {
    weak var stored: Box?
    weak var loser: Box?
    do {
      let holder = Holder()
      #expect(holder.reference.load() == nil)
      let first = Box(1)
      stored = first
      _ = holder.reference.storeIfNil(first)
      do {
        let second = Box(2)
        loser = second
        #expect(holder.reference.storeIfNil(second) === first)
      }
      #expect(loser == nil, "the object that lost was not kept")
      #expect(stored != nil)
    }
    #expect(stored == nil, "released with its holder")
  }

  @Test("a borrowed load sees nothing before the store, then the stored object, and keeps no reference of its own")
  func borrowed() {
    weak var stored: Box?
    do {
      let holder = Holder()
      #expect(holder.reference.withLoaded { $0.n } == nil)
      do {
        let box = Box(7)
        stored = box
        _ = holder.reference.storeIfNil(box)
      }
      #expect(holder.reference.withLoaded { $0.n } == 7)
      #expect(holder.reference.withLoaded { $0 === holder.reference.load() } == true)
      #expect(stored != nil, "held by the holder alone")
    }
    #expect(stored == nil, "a borrowed load left nothing retained")
  }
}
