import StateMachine
import StateMachineExamples
import StateMachineTesting
import Testing

/// Machines with a deliberately broken row, and what the checks must find.
enum Planted {
  // A loader whose `load` while loading starts a second request (the bug: it should be ignored).
  enum LoaderState: Hashable, Sendable, CaseIterable, Discriminated { case idle, loading, loaded }
  enum LoaderEvent: Hashable, Sendable, CaseIterable, Discriminated { case load, done, reset }
  struct Requests: Hashable, Sendable { var inFlight = 0 }
  static let loader = try! TransitionTable<LoaderState, LoaderEvent, Requests, String>(
    name: "planted-loader", initial: .idle,
    rows: [
      .transition(from: .idle, on: .load, to: .loading).update { c, _ in c.inFlight += 1 },
      .stay(in: .loading, on: .load).update { c, _ in c.inFlight += 1 },  // the planted bug
      .transition(from: .loading, on: .done, to: .loaded).update { c, _ in c.inFlight = 0 },
      .fromAny(on: .reset, to: .idle).update { c, _ in c.inFlight = 0 },
    ])

  // A countdown whose guard lets it go below zero (the bug: `>= 0` instead of `> 0`).
  enum CountState: Hashable, Sendable, CaseIterable, Discriminated { case idle, counting }
  enum CountEvent: Hashable, Sendable, CaseIterable, Discriminated { case start, tick }
  static let countdown = try! TransitionTable<CountState, CountEvent, Int, String>(
    name: "planted-countdown", initial: .idle,
    rows: [
      .transition(from: .idle, on: .start, to: .counting).update { c, _ in c = 3 },
      .stay(in: .counting, on: .tick).when("remaining >= 0") { c, _ in c >= 0 }.update { c, _ in c -= 1 },
    ],
    policy: .ignore)

  // A sum whose payloads are generated and shrunk: it must stay under 100.
  enum SumState: Hashable, Sendable, Discriminated { case open }
  enum SumEvent: Hashable, Sendable, Discriminated, CustomStringConvertible {
    case add(Int)
    enum Kind: Hashable, Sendable, CaseIterable { case add }
    var discriminant: Kind { .add }
    var description: String { if case .add(let n) = self { "add(\(n))" } else { "" } }
  }
  static let sum = try! TransitionTable<SumState, SumEvent, Int, String>(
    name: "planted-sum", initial: .open,
    rows: [.stay(in: .open, on: .add).update { c, e in if case .add(let n) = e { c += n } }])
}

@Suite("Property checks find planted bugs")
struct PlantedBugTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let run: @Sendable () throws -> Void
    let property: String
    let minimalLength: Int
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "two requests in flight", run: {
      try PropertyCheck(table: Planted.loader, context: .init(), events: .cases)
        .invariant("at most one request in flight") { _, c in c.inFlight <= 1 }
        .run(walks: 200, length: 30, seed: 7)
    }, property: "at most one request in flight", minimalLength: 2),
    Case(label: "countdown below zero", run: {
      try PropertyCheck(table: Planted.countdown, context: 0, events: .cases)
        .invariant("remaining in 0...60") { _, c in (0...60).contains(c) }
        .run(walks: 200, length: 40, seed: 11)
    }, property: "remaining in 0...60", minimalLength: 5),
    Case(label: "sum over 100, payloads shrunk", run: {
      let amount = Gen.int(in: 0...60)
      let events = EventSource<Planted.SumEvent>(shrink: { e in
        if case .add(let n) = e { amount.shrink(n).map { .add($0) } } else { [] }
      }) { _, rng in .add(amount.next(&rng)) }
      try PropertyCheck(table: Planted.sum, context: 0, events: events)
        .invariant("sum < 100") { _, c in c < 100 }
        .run(walks: 100, length: 20, seed: 3)
    }, property: "sum < 100", minimalLength: 0),
  ]

  @Test("the failure names the property and the shrunk sequence has the known minimal length", arguments: cases)
  func finds(_ c: Case) {
    do {
      try c.run()
      Issue.record("the planted bug was not found")
    } catch let failure as PropertyFailure<Planted.LoaderEvent> {
      #expect(failure.property == c.property)
      #expect(failure.events.count == c.minimalLength, "\(failure)")
      #expect(failure.events == [.load, .load])
    } catch let failure as PropertyFailure<Planted.CountEvent> {
      #expect(failure.property == c.property)
      #expect(failure.events == [.start, .tick, .tick, .tick, .tick], "\(failure)")
      #expect(failure.originalLength >= failure.events.count)
      #expect(failure.description.contains("(seed 11)"))
    } catch let failure as PropertyFailure<Planted.SumEvent> {
      // Locally minimal: it still fails, dropping any one event passes, and no payload can be
      // lowered by the generator's shrinker without passing.
      let amounts = failure.events.map { if case .add(let n) = $0 { n } else { 0 } }
      #expect(amounts.reduce(0, +) >= 100, "\(failure)")
      for i in amounts.indices {
        #expect(amounts.reduce(0, +) - amounts[i] < 100, "event \(i + 1) is needed")
        for smaller in Gen.int(in: 0...60).shrink(amounts[i]) {
          #expect(amounts.reduce(0, +) - amounts[i] + smaller < 100, "payload \(i + 1) is as small as it gets")
        }
      }
      #expect(failure.events.count <= 3 && failure.events.count >= 2)
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test("the same seed gives the same run")
  func deterministic() {
    func failure() -> String {
      do {
        try PropertyCheck(table: Planted.loader, context: .init(), events: .cases)
          .invariant("at most one request in flight") { _, c in c.inFlight <= 1 }
          .run(walks: 50, length: 30, seed: 99)
        return "passed"
      } catch { return error.description }
    }
    #expect(failure() == failure())
  }

  @Test("exploration finds the shortest counterexample and reports coverage")
  func exploration() {
    let result = Explorer(table: Planted.loader, context: .init(), alphabet: Planted.LoaderEvent.allCases)
      .invariant("at most one request in flight") { _, c in c.inFlight <= 1 }
      .explore(depth: 6)
    #expect(result.violations.map(\.property) == ["at most one request in flight"])
    #expect(result.violations.first?.path == [.load, .load])
    #expect(result.coverage.transitionsTaken == [0, 1, 2, 3])
  }

  @Test("a correct machine passes: CD player walks and full exploration")
  func cdPlayer() throws {
    let report = try PropertyCheck(table: CDPlayer.table, context: NoContext(), events: .cases)
      .checking(.noDeadEnd)
      .run(walks: 100, length: 50, seed: 1)
    #expect(report.steps == 5_000)
    let result = Explorer(table: CDPlayer.table, context: NoContext(), alphabet: CDPlayer.Event.allCases).explore(depth: 12)
    #expect(result.coverage.transitionsTaken.count == 12)
    #expect(result.coverage.statesReached.count == 5)
    #expect(result.configurations == 5)
    #expect(result.shortestPath(to: .playing) == [.cdDetected, .play])
    #expect(result.shortestPath(to: .paused) == [.cdDetected, .play, .pause])
    #expect(result.violations.isEmpty)
  }

  @Test("simple paths to a state, shortest first, each replayable against a machine")
  func simplePaths() {
    let paths = Explorer(table: CDPlayer.table, context: NoContext(), alphabet: CDPlayer.Event.allCases)
      .simplePaths(to: .open, maxLength: 4)
    #expect(paths == [[.openClose], [.cdDetected, .openClose], [.cdDetected, .play, .openClose],
                      [.cdDetected, .play, .pause, .openClose]])
    for path in paths {
      var machine = Machine(CDPlayer.table)
      for event in path { machine.send(event) }
      #expect(machine.state == .open, "\(path)")
    }
  }

  @Test("no-rejection check reports an undeclared event with its path")
  func rejection() {
    let result = Explorer(table: Planted.loader, context: .init(), alphabet: Planted.LoaderEvent.allCases)
      .checking(.noRejection)
      .explore(depth: 3)
    #expect(result.violations.first?.property == "no rejection")
    #expect(result.violations.first?.path == [.done])
  }
}

@Suite("Counterexamples as regression logs")
struct CounterexampleLogTests {
  enum S: String, Hashable, Sendable, Codable, CaseIterable, Discriminated { case idle, busy }
  enum E: String, Hashable, Sendable, Codable, CaseIterable, Discriminated { case go, more, stop }
  static let table = try! TransitionTable<S, E, Int, String>(
    name: "busy", initial: .idle,
    rows: [
      .transition(from: .idle, on: .go, to: .busy, effects: "start").update { c, _ in c += 1 },
      .stay(in: .busy, on: .more).update { c, _ in c += 1 },
      .transition(from: .busy, on: .stop, to: .idle).update { c, _ in c = 0 },
    ],
    policy: .ignore)

  @Test("the minimal sequence saved as an event log replays identically")
  func saveAsLog() throws {
    do {
      try PropertyCheck(table: Self.table, context: 0, events: .cases)
        .invariant("at most 2 jobs") { _, c in c <= 2 }
        .run(walks: 50, length: 20, seed: 8)
      Issue.record("expected a failure")
    } catch {
      #expect(error.events == [.go, .more, .more])
      let log = error.eventLog(table: Self.table, context: 0)
      #expect(log.entries.map(\.context) == [1, 2, 3])
      let read = EventLog<S, E, Int, String>.read(try log.encoded(), for: Self.table)
      #expect(read.error == nil)
      #expect(Self.table.replay(try #require(read.log)).isIdentical)
    }
  }
}

@Suite("Reachability, paths between states, store effects")
struct ReachabilityTests {
  @Test("a state reachable within N steps, and one that is not")
  func reachable() throws {
    let explorer = Explorer(table: CDPlayer.table, context: NoContext(), alphabet: CDPlayer.Event.allCases)
    #expect(try explorer.requireReachable(.paused, within: 3) == [.cdDetected, .play, .pause])
    #expect(throws: PropertyFailure<CDPlayer.Event>.self) { try explorer.requireReachable(.paused, within: 2) }
  }

  @Test("simple paths between two states")
  func between() {
    let paths = Explorer(table: CDPlayer.table, context: NoContext(), alphabet: CDPlayer.Event.allCases)
      .simplePaths(from: (.paused, NoContext()), to: .stopped, maxLength: 3)
    #expect(paths.first == [.stop])
    #expect(paths.contains([.endPause, .stop]))
  }

  @Test("split generators are independent and reproducible")
  func split() {
    var a = SplitMix64(seed: 9)
    var b = SplitMix64(seed: 9)
    var childA = a.split()
    var childB = b.split()
    #expect(childA.next() == childB.next())
    #expect(a.next() == b.next())
    var fresh = SplitMix64(seed: 9)
    #expect(childA.next() != fresh.next())
  }

  enum S: Hashable, Sendable, Discriminated { case on }
  enum E: Hashable, Sendable, Discriminated { case start, stop }

  @Test("a store run ends with every effect finished or cancelled, or the check says how many are left")
  func storeEffects() async throws {
    let table = try TransitionTable<S, E, Int, Command<E, String>>(
      initial: .on,
      rows: [.stay(in: .on, on: .start, effects: .every(.seconds(1), send: .start, id: "tick")),
             .stay(in: .on, on: .stop, effects: .cancel("tick"))])
    let clock = ManualClock()
    let store = Store(table, context: 0, clock: clock) { _, _ in }
    store.send(.start)
    await #expect(throws: PropertyFailure<E>.self) { try await store.requireEffectsSettled() }
    store.send(.stop)
    try await store.requireEffectsSettled()
    await store.finish()
  }
}
