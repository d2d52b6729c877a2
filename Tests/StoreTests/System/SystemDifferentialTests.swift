import StateMachine
import Testing

/// Random inputs to a system, sent to a `Store` and stepped by a synchronous `MachineSystem`
/// (what the checkers step): after each input both answer it alike and hold the same children,
/// configuration and context; and when the store finishes, every effect and child it reported
/// started was reported ended exactly once. Spawns, stops by id, moves between states, messages
/// by path (to children that are there, done, or not; with a path below them), state-scoped and
/// global children, and what children say to their parent.
@Suite("Systems of machines: a store and a synchronous system, on the same random inputs")
struct SystemDifferentialTests {
  /// One input: as the system takes it, and as the store does.
  struct Input {
    let system: SystemEvent<String>
    let store: (Store<SpawnTests.Host>) -> SendResult
  }

  @Test("a table that spawns, stops and messages children by id, from outside and from its steps", arguments: 1...60)
  func table(seed: UInt64) async throws {
    let ids = ["w1", "w2", "w3"]
    let host = try SpawnTests.host(ids: ids)
    let ledger = SystemLedger()
    let store = Store(host, context: [], clock: ManualClock(), handler: { _, _ in }, inspector: { ledger.record($0) })
    var system = SystemMachine(MachineSystem(table: host), context: [])
    try system.begin()
    var random = SplitMix64(seed: seed)
    var inputs: [String] = []
    for _ in 0..<40 {
      let id = ids[Int(random.next() % 3)]
      let event = ["spawn-\(id)", "spawn-\(id)", "stop-\(id)", "move"][Int(random.next() % 4)]
      let message = SpawnTests.told[Int(random.next() % 5)]
      let path = random.next() % 8 == 0 ? "\(id)/below" : id
      let stored: SendResult
      let stepped: MachineResponse
      switch random.next() % 3 {
      case 0:
        inputs.append(event)
        (stored, stepped) = (store.send(event), try system.step(.root(event)))
      case 1:
        inputs.append("\(message) to \(path)")
        (stored, stepped) = (store.send(message, to: path), try system.step(.message(message, to: path)))
      default:
        // The host's step messages the child (a `Command.message`, its one command).
        let tell = "tell \(message) to \(path)"
        inputs.append(tell)
        (stored, stepped) = (store.send(tell), try system.step(.root(tell)))
      }
      await Self.expectAlike(store, system, stored: stored, stepped: stepped, after: inputs)
    }
    await store.finish()
    #expect(ledger.all.contains { $0.hasPrefix("start invoke job") })
    #expect(Self.unended(ledger) == [:], "\(ledger.all)\n\(inputs)")
  }

  @Test("a chart that runs a child in a state (state-scoped, or global), pokes it and hears it", arguments: 1...60)
  func chart(seed: UInt64) async throws {
    let parent = try SystemMachines.parent(child: SystemMachines.jobChild(), scope: seed % 2 == 0 ? .state : .global)
    let ledger = SystemLedger()
    let store = try Store(parent, context: .init(), clock: ManualClock(), handler: { _, _ in }, inspector: { ledger.record($0) })
    store.start()
    var system = SystemMachine(MachineSystem(chart: parent), context: .init())
    try system.begin()
    var random = SplitMix64(seed: seed)
    var inputs: [String] = []
    for _ in 0..<30 {
      let pick = Int(random.next() % 8)
      let stored: SendResult
      let stepped: MachineResponse
      if pick < 4 {
        let event = ["start", "stop", "poke", "lost"][pick]
        inputs.append(event)
        (stored, stepped) = (store.send(event), try system.step(.root(event)))
      } else {
        let message = ["pause", "resume", "complete", "note"][pick - 4]
        inputs.append("\(message) to job")
        (stored, stepped) = (store.send(message, to: "job"), try system.step(.message(message, to: "job")))
      }
      await Self.expectAlike(store, system, stored: stored, stepped: stepped, after: inputs)
    }
    await store.finish()
    #expect(ledger.all.contains { $0.hasPrefix("start invoke job") })
    #expect(Self.unended(ledger) == [:], "\(ledger.all)\n\(inputs)")
  }

  /// Once the store has settled: it and the system answered the last of `inputs` alike, and
  /// hold the same children, configuration and context.
  static func expectAlike<Root: StoreDefinition>(
    _ store: Store<Root>, _ system: SystemMachine<Root>, stored: SendResult, stepped: MachineResponse, after inputs: [String]
  ) async where Root.Configuration: Equatable, Root.Context: Equatable {
    await store.settle()
    #expect((stored == .accepted) == !stepped.isRejected, "\(inputs): store \(stored), system \(stepped)")
    #expect(store.children == system.configuration.children.keys.sorted(), "\(inputs)")
    #expect(store.context == system.context, "\(inputs)")
    #expect(store.configuration == system.configuration.root, "\(inputs)")
  }

  /// The effects (by description) whose starts and ends do not pair up, with how many starts
  /// are left over (negative: ends without a start).
  static func unended(_ ledger: SystemLedger) -> [String: Int] {
    var open: [String: Int] = [:]
    let lines = ledger.all.map { line in (what: line.prefix { $0 != " " }, rest: String(line.drop { $0 != " " }.dropFirst())) }
    let started = Set(lines.filter { $0.what == "start" }.map(\.rest))
    for (what, rest) in lines {
      // A failure's line goes on with its error after the description, which may hold a colon
      // itself (`send add(producer: 0, …) to c0`): it is the longest started one it begins with.
      let description =
        what == "failed"
        ? started.filter { rest.hasPrefix($0 + ": ") }.max { $0.count < $1.count } ?? String(rest.prefix { $0 != ":" }) : rest
      open[description, default: 0] += what == "start" ? 1 : -1
    }
    return open.filter { $0.value != 0 }
  }
}
