@testable import StateMachine
import Synchronization
import Testing

/// A running effect is found by its id (to cancel it, or to replace it with a new one of that
/// id) by comparing ids one by one among a few, and by hashing among many: both ways find the
/// one named, and only it.
@Suite("Running effects found by id, among few and many")
struct EffectIDLookupTests {
  enum State: Hashable, Sendable, Discriminated { case on }
  enum Event: Hashable, Sendable, Discriminated {
    case start(Int), cancel(Int), restart(Int)
    enum Kind: UInt8, Hashable, Sendable { case start, cancel, restart }
    var discriminant: Kind {
      switch self {
      case .start: .start
      case .cancel: .cancel
      case .restart: .restart
      }
    }
  }
  enum Work: Hashable, Sendable { case hang }
  typealias Table = TransitionTable<State, Event, NoContext, Command<Event, Work>>

  /// `start(n)` and `restart(n)` run an effect named `e<n>` (one already running is replaced);
  /// `cancel(n)` cancels it.
  static let table = try! Table(
    initial: .on,
    rows: [
      .stayInAny(on: .start).emit("start") { _, event in
        guard case .start(let n) = event else { return nil }
        return .perform(.hang, id: EffectID("e\(n)"))
      },
      .stayInAny(on: .restart).emit("restart") { _, event in
        guard case .restart(let n) = event else { return nil }
        return .perform(.hang, id: EffectID("e\(n)"))
      },
      .stayInAny(on: .cancel).emit("cancel") { _, event in
        guard case .cancel(let n) = event else { return nil }
        return .cancel(EffectID("e\(n)"))
      },
    ])

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let running: Int
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "one", running: 1), Case(label: "eight (compared one by one)", running: 8),
    Case(label: "nine (hashed)", running: 9), Case(label: "twenty-four", running: 24),
  ]

  @Test("a cancel ends the effect it names, a new effect of an id replaces the old one, and an id that does not run changes nothing", arguments: cases)
  func byID(_ c: Case) async {
    let cancelled = Mutex<[String]>([])
    let store = Store(Self.table, context: NoContext(), handler: { _, _ in try await Task.sleep(for: .seconds(3600)) }, inspector: { report in
      if case .effectCancelled(let id, _) = report { cancelled.withLock { $0.append(id?.name ?? "-") } }
    })
    let check = { store.runtime.with(TableEngine<Table>.self) { $0.core }.withLock { $0._checkInvariants() } }
    for n in 0..<c.running { store.send(.start(n)) }
    #expect(store.runningEffectCount == c.running)
    store.send(.cancel(c.running - 1))
    #expect(store.runningEffectCount == c.running - 1)
    #expect(cancelled.withLock { $0 } == ["e\(c.running - 1)"])
    store.send(.cancel(999))
    store.send(.cancel(c.running - 1))
    #expect(store.runningEffectCount == c.running - 1)
    #expect(cancelled.withLock { $0 } == ["e\(c.running - 1)"])
    check()
    if c.running > 1 {
      store.send(.restart(0))
      #expect(store.runningEffectCount == c.running - 1)
      #expect(cancelled.withLock { $0 } == ["e\(c.running - 1)", "e0"])
      store.send(.cancel(0))
      #expect(store.runningEffectCount == c.running - 2)
      #expect(cancelled.withLock { $0 } == ["e\(c.running - 1)", "e0", "e0"])
      check()
    }
    await store.finish()
    #expect(store.runningEffectCount == 0)
  }

  @Test("a store that ran many effects and runs a few finds them by id, hashing: its map keeps the buckets it grew to")
  func afterMany() async {
    let cancelled = Mutex<[String]>([])
    let store = Store(Self.table, context: NoContext(), handler: { _, _ in try await Task.sleep(for: .seconds(3600)) }, inspector: { report in
      if case .effectCancelled(let id, _) = report { cancelled.withLock { $0.append(id?.name ?? "-") } }
    })
    for n in 0..<1_000 { store.send(.start(n)) }
    for n in 3..<1_000 { store.send(.cancel(n)) }
    store.runtime.with(TableEngine<Table>.self) { $0.core }.withLock { core in
      #expect(core.byID.count == 3)
      #expect(!core.byID.scans, "a map that held 1,000 ids is not walked")
      core._checkInvariants()
    }
    cancelled.withLock { $0.removeAll() }
    store.send(.cancel(1))
    store.send(.cancel(999))
    store.send(.restart(2))
    #expect(store.runningEffectCount == 2)
    #expect(cancelled.withLock { $0 } == ["e1", "e2"])
    #expect([EffectID("a"): UInt64(1), "b": 2, "c": 3].scans)
    await store.finish()
  }
}
