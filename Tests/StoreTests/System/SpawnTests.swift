@testable import StateMachine
import Testing

@Suite("Systems of machines: spawned children, paths, and children that end on their own")
struct SpawnTests {
  typealias Host = TransitionTable<String, String, [String], Command<String, Never>>

  /// A table that spawns jobs by name (`spawn-<id>`), stops one (`stop-<id>`), and keeps what
  /// its children say.
  /// What the host tells its children, and what else a message may be (`bogus`: no event of theirs).
  static let told = ["pause", "resume", "complete", "note", "bogus"]

  static func host(ids: [String]) throws -> Host {
    let child = SystemMachines.jobChild()
    return try Host(
      name: "host", initial: "a",
      rows: ids.flatMap { id -> [Host.Row] in
        [
          .stayInAny(on: "spawn-\(id)", effects: .invoke(child, id: EffectID(id), scope: .global)),
          .stayInAny(on: "stop-\(id)", effects: .cancel(EffectID(id))),
        ]
          // `tell <message> to <path>`: the host's own step messages a child (or a path below it).
          + Self.told.flatMap { message in
            [id, "\(id)/below"].map { path in .stayInAny(on: "tell \(message) to \(path)", effects: .message(MachineMessage(message, to: path))) }
          }
      } + [
        .transition(from: "a", on: "move", to: "b"), .transition(from: "b", on: "move", to: "a"),
        .stayInAny(on: "jobPaused").update { heard, event in heard.append(event) },
        .stayInAny(on: "jobDone").update { heard, event in heard.append(event) },
      ],
      policy: .ignore)
  }

  @Test("a spawned child outlives the state that started it, until cancelled by id")
  func spawnedLivesOn() async throws {
    let ledger = SystemLedger()
    let store = Store(try Self.host(ids: ["w1", "w2"]), context: [], clock: ManualClock(), handler: { _, _ in }, inspector: { ledger.record($0) })
    store.send("spawn-w1")
    store.send("spawn-w2")
    store.send("move")
    store.send("move")
    #expect(store.children == ["w1", "w2"])
    Self.checkIndexes(store)
    store.send("stop-w1")
    #expect(store.children == ["w2"])
    Self.checkIndexes(store)
    #expect(store.send("pause", to: "w2") == .accepted)
    await store.settle()
    #expect(store.context == ["jobPaused"])
    #expect(ledger.all == ["start invoke job as w1", "start invoke job as w2", "cancelled invoke job as w1"])
    await store.finish()
    #expect(ledger.all.last == "cancelled invoke job as w2")
    Self.checkIndexes(store)
  }

  /// The store's indexes over its running effects, its children among them, agree.
  static func checkIndexes(_ store: Store<Host>) {
    store.runtime.with(TableEngine<Host>.self) { $0.core }.withLock { $0._checkInvariants() }
  }

  @Test("a child spawned with the id of a running one replaces it")
  func replaced() async throws {
    let ledger = SystemLedger()
    let store = Store(try Self.host(ids: ["w1"]), context: [], clock: ManualClock(), handler: { _, _ in }, inspector: { ledger.record($0) })
    store.send("spawn-w1")
    store.send("spawn-w1")
    #expect(store.children == ["w1"])
    await store.finish()
    #expect(ledger.all == ["start invoke job as w1", "cancelled invoke job as w1", "start invoke job as w1", "cancelled invoke job as w1"])
  }

  @Test("a child whose id holds a '/' (no path could reach it) fails to start, in a store and in a synchronous system")
  func slashInID() async throws {
    let ledger = SystemLedger()
    let host = try Self.host(ids: ["uploads/a"])
    let store = Store(host, context: [], clock: ManualClock(), handler: { _, _ in }, inspector: { ledger.record($0) })
    store.send("spawn-uploads/a")
    #expect(store.children == [])
    #expect(ledger.all.count == 2)
    #expect(ledger.all.last?.hasPrefix("failed invoke job as uploads/a: its id, 'uploads/a', holds a '/'") == true)
    await store.finish()

    var system = SystemMachine(MachineSystem(table: host), context: [])
    try system.begin()
    #expect(try system.step(.root("spawn-uploads/a")) == .handled)
    #expect(system.configuration.children == [:])
  }

  @Test("a table's restored state-scoped child must belong to the state the table is in: else nothing would end it")
  func restoredScopeOfTable() async throws {
    let host = try Self.host(ids: ["w1"])
    let store = Store(host, context: [], clock: ManualClock(), handler: { _, _ in })
    store.send("spawn-w1")  // in a
    store.send("move")  // to b
    var snapshot = try store.systemSnapshot()
    await store.finish()
    let child = try #require(snapshot.children.first)
    #expect(child.scope == .global)
    // As a global child it is restored; said to belong to `a` while the table is in `b`, it is refused.
    let resolve: ChildResolver = { $0.machine == "job" ? SystemMachines.jobChild() : nil }
    let restored = try Store(host, restoring: snapshot, children: resolve, clock: ManualClock(), handler: { _, _ in })
    #expect(restored.children == ["w1"])
    await restored.finish()
    snapshot.children = [ChildSnapshot(id: child.id, machine: child.machine, scope: .state, owner: child.owner, snapshot: child.snapshot, children: [])]
    let error = #expect(throws: SystemSnapshotError.self) {
      try Store(host, restoring: snapshot, children: resolve, clock: ManualClock(), handler: { _, _ in })
    }
    #expect(error?.path == "w1")
    #expect(error?.reason.hasPrefix("it belongs to state \(child.owner), and the table is in b") == true, "\(String(describing: error))")
  }

  /// A chart that invokes the job as `job` and is done when the job is.
  static func group() throws -> SystemMachines.Parent {
    try SystemMachines.Parent(name: "group", states: [
      .atomic("waiting", transitions: [.on("jobDone", to: "over")], onEntry: [.effect(.invoke(SystemMachines.jobChild(), id: "job"))]),
      .final("over"),
    ])
  }

  @Test("paths reach children's children; a chart child that halts is done, with its onDone event")
  func nested() async throws {
    let ledger = SystemLedger()
    let group = ChildMachine<String>(try Self.group(), context: .init(), onDone: { _ in "jobDone" })
    let store = try Store(
      try SystemMachines.parent(child: group), context: .init(), clock: ManualClock(), handler: { _, _ in },
      inspector: { ledger.record($0) })
    store.start()
    store.send("start")
    #expect(store.children == ["job", "job/job"])
    #expect(store.send("complete", to: "job/job") == .accepted)
    await store.settle()
    #expect(store.configuration == ["finished"])
    #expect(store.children.isEmpty)
    #expect(ledger.all == ["start invoke group as job (in state)", "finished invoke group as job (in state)"])
    // One inspector sees every machine's steps, by path.
    #expect(ledger.childSteps == ["step job/job: complete: working → done", "step job: jobDone: waiting → over"])
    await store.finish()
  }

  @Test("a child done at its start ends finished at once")
  func doneAtStart() async throws {
    let ledger = SystemLedger()
    let child = ChildMachine<String>(SystemMachines.job, context: [], doneWhen: { $0 == "working" }, onDone: { _ in "jobDone" })
    let store = try Store(
      try SystemMachines.parent(child: child), context: .init(), clock: ManualClock(), handler: { _, _ in },
      inspector: { ledger.record($0) })
    store.start()
    store.send("start")
    await store.settle()
    #expect(store.configuration == ["finished"])
    #expect(ledger.all == ["start invoke job as job (in state)", "finished invoke job as job (in state)"])
    await store.finish()
  }

  @Test("a chart child whose start does not settle fails, and onError's event reaches the parent")
  func failedStart() async throws {
    let ledger = SystemLedger()
    let loop = try SystemMachines.Parent(name: "loop", states: [
      .atomic("a", transitions: [.always(to: "b")]), .atomic("b", transitions: [.always(to: "a")]),
    ])
    let child = ChildMachine<String>(loop, context: .init(), onError: { _ in "jobDone" })
    let store = try Store(
      try SystemMachines.parent(child: child), context: .init(), clock: ManualClock(), handler: { _, _ in },
      inspector: { ledger.record($0) })
    store.start()
    store.send("start")
    await store.settle()
    #expect(store.configuration == ["finished"])
    #expect(ledger.all.count == 2)
    #expect(ledger.all.last?.hasPrefix("failed invoke loop as job (in state): ") == true)
    await store.finish()
  }
}
