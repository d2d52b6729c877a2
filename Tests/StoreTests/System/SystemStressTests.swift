import StateMachine
import Testing

@Suite("Systems of machines under concurrent producers")
struct SystemStressTests {
  typealias Host = TransitionTable<String, String, [String: Int], Command<String, Never>>

  /// A host that spawns `count` tally children (`c0` …) and counts what they say: `counted` for
  /// each message a child handled, `disorder` for one that arrived out of its producer's order.
  static func host(children count: Int) throws -> Host {
    let child = ChildMachine<String>(
      Tally.table(), context: .init(), toParent: { step in step.context.outOfOrder > 0 ? "disorder" : "counted" })
    return try Host(
      name: "host", initial: "up",
      rows: (0..<count).map { .stayInAny(on: "spawn-\($0)", effects: .invoke(child, id: EffectID("c\($0)"), scope: .global)) } + [
        .stayInAny(on: "counted").update { tally, event in tally[event, default: 0] += 1 },
        .stayInAny(on: "disorder").update { tally, event in tally[event, default: 0] += 1 },
      ],
      policy: .ignore)
  }

  @Test("8 producers messaging 1,000 children: every message handled or refused, each pair in order")
  func producers() async throws {
    let (children, perProducer) = (1_000, 2_000)
    let ledger = SystemLedger()
    let store = Store(try Self.host(children: children), context: [:], handler: { _, _ in }, inspector: { ledger.record($0) })
    for i in 0..<children { store.send("spawn-\(i)") }
    #expect(store.children.count == children)
    let accepted = Guarded(0)
    await withTaskGroup(of: Void.self) { group in
      for p in 0..<8 {
        group.addTask {
          var mine = 0
          for i in 0..<perProducer {
            // Producer p's messages to child i % children carry its sequence for that child.
            let result = store.send(Tally.Event.add(producer: p, sequence: i / children), to: "c\(i % children)")
            if result == .accepted { mine += 1 } else { Issue.record("refused: \(result)") }
          }
          accepted.withLock { $0 += mine }
        }
      }
    }
    await store.settle()
    #expect(store.context["counted"] == accepted.withLock { $0 })
    #expect(store.context["disorder"] == nil)
    #expect(accepted.withLock { $0 } == 8 * perProducer)
    await store.finish()
    #expect(store.children.isEmpty)
    // Each child started once and was cancelled once, by the finish.
    #expect(ledger.all.filter { $0.hasPrefix("start") }.count == children)
    #expect(ledger.all.filter { $0.hasPrefix("cancelled") }.count == children)
  }

  /// A parent that relays its producers' events to its children (each a ``Command/message(_:)``,
  /// its step's one command or output) and counts what the children say, as in `host`.
  enum Relay {
    enum Event: Hashable, Sendable, Discriminated {
      case spawn(Int), stop(Int), relay(producer: Int, sequence: Int, child: Int), counted, disorder
      enum Kind: Hashable, Sendable { case spawn, stop, relay, counted, disorder }
      var discriminant: Kind {
        switch self {
        case .spawn: .spawn
        case .stop: .stop
        case .relay: .relay
        case .counted: .counted
        case .disorder: .disorder
        }
      }
    }
    struct Context: Hashable, Sendable { var counted = 0, disorder = 0 }
    typealias Table = TransitionTable<String, Event, Context, Command<Event, Never>>
    typealias Parent = Chart<String, Event, Context, Command<Event, Never>>

    static let child = ChildMachine<Event>(Tally.table(), context: .init(), toParent: { step in step.context.outOfOrder > 0 ? .disorder : .counted })

    /// What a step does with `event`: start child `c<n>`, stop it, or message a child its
    /// producer's add.
    @Sendable static func command(_ event: Event?) -> Command<Event, Never>? {
      switch event {
      case .spawn(let n)?: .invoke(child, id: EffectID("c\(n)"), scope: .global)
      case .stop(let n)?: .cancel(EffectID("c\(n)"))
      case .relay(let p, let s, let c)?: .message(MachineMessage(Tally.Event.add(producer: p, sequence: s), to: "c\(c)"))
      default: nil
      }
    }
    @Sendable static func count(_ context: inout Context, _ event: Event?) {
      if event == .counted { context.counted += 1 } else if event == .disorder { context.disorder += 1 }
    }

    /// The parent's relay events as its inspector saw them: handled by a step, or dropped from
    /// its mailbox when it finished.
    struct Relays: Sendable { var stepped = 0, dropped = 0 }

    /// The parent, of `kind`, in a store.
    static func store(_ kind: HostKind, ledger: SystemLedger, relays: Guarded<Relays> = Guarded(Relays())) throws -> HeldStore<Event, Context> {
      @Sendable func isRelay(_ event: Event) -> Bool { if case .relay = event { true } else { false } }
      @Sendable func record<Definition: StoreDefinition>(_ report: StoreReport<Event, StoreStep<Definition>>) where Definition.Event == Event {
        ledger.record(report)
        switch report {
        case .step(let step) where isRelay(step.event): relays.withLock { $0.stepped += 1 }
        case .queuedEventDropped(let event) where isRelay(event): relays.withLock { $0.dropped += 1 }
        default: break
        }
      }
      switch kind {
      case .table:
        let table = try Table(
          name: "relay", initial: "up",
          rows: [
            .stayInAny(on: .spawn).emit("spawn") { _, event in command(event) },
            .stayInAny(on: .stop).emit("stop") { _, event in command(event) },
            .stayInAny(on: .relay).emit("relay") { _, event in command(event) },
            .stayInAny(on: .counted).update { context, event in count(&context, event) },
            .stayInAny(on: .disorder).update { context, event in count(&context, event) },
          ])
        let store = Store(table, context: Context(), handler: { _, _ in }, inspector: { record($0) })
        return HeldStore(store)
      case .chart:
        let chart = try Parent(name: "relay", states: [
          .atomic("up", transitions: [
            .on(.spawn, do: [.make("spawn") { _, event in command(event) }]),
            .on(.stop, do: [.make("stop") { _, event in command(event) }]),
            .on(.relay, do: [.make("relay") { _, event in command(event) }]),
            .on(.counted, do: [.update(nil) { context, event in count(&context, event) }]),
            .on(.disorder, do: [.update(nil) { context, event in count(&context, event) }]),
          ])
        ])
        let store = try Store(chart, context: Context(), handler: { _, _ in }, inspector: { record($0) })
        store.start()
        return HeldStore(store)
      }
    }
  }

  /// A store of `kind`'s parent with `children` children started.
  static func parent(
    _ kind: HostKind, children: Int, ledger: SystemLedger, relays: Guarded<Relay.Relays> = Guarded(Relay.Relays())
  ) throws -> HeldStore<Relay.Event, Relay.Context> {
    let store = try Relay.store(kind, ledger: ledger, relays: relays)
    for i in 0..<children { #expect(store.send(.spawn(i)) == .accepted) }
    return store
  }

  /// Adds 8 producers to `group`, each sending `perProducer` relays to the `children` children in
  /// turn (producer p's events for a child carry its sequence for that child), and counting those
  /// accepted in `accepted`. With `yielding`, each lets other tasks run every 50 sends (the pool has
  /// as many threads as cores: producers that never suspend hold them all until done).
  static func addProducers(
    to group: inout TaskGroup<Void>, send: @escaping @Sendable (Relay.Event) -> SendResult, children: Int, perProducer: Int,
    accepted: Guarded<Int>, yielding: Bool = false
  ) {
    for p in 0..<8 {
      group.addTask {
        var mine = 0
        for i in 0..<perProducer {
          if send(.relay(producer: p, sequence: i / children, child: i % children)) == .accepted { mine += 1 }
          if yielding, i % 50 == 0 { await Task.yield() }
        }
        accepted.withLock { $0 += mine }
      }
    }
  }

  @Test("8 producers through a parent's messages to 200 children: every message delivered, each pair in order", arguments: HostKind.allCases)
  func relayedByParent(_ kind: HostKind) async throws {
    let (children, perProducer) = (200, 2_000)
    let (ledger, accepted) = (SystemLedger(), Guarded(0))
    let store = try Self.parent(kind, children: children, ledger: ledger)
    // The parent's steps keep their order, and so must its messages.
    await withTaskGroup(of: Void.self) { group in
      Self.addProducers(to: &group, send: store.send, children: children, perProducer: perProducer, accepted: accepted)
    }
    await store.settle()
    #expect(accepted.withLock { $0 } == 8 * perProducer)
    #expect(store.context() == Relay.Context(counted: 8 * perProducer, disorder: 0))
    #expect(ledger.all.filter { $0.hasPrefix("finished send") }.count == 8 * perProducer)
    #expect(ledger.all.filter { $0.hasPrefix("failed") }.isEmpty)
    await store.finish()
    // Each child started once and was cancelled once, by the finish.
    #expect(ledger.all.filter { $0.hasPrefix("start invoke") }.count == children)
    #expect(ledger.all.filter { $0.hasPrefix("cancelled invoke") }.count == children)
  }

  @Test("8 producers messaging children that are stopped and started meanwhile: every message and child ends once", arguments: HostKind.allCases)
  func relayedWhileChurning(_ kind: HostKind) async throws {
    let (children, perProducer) = (20, 1_000)
    let (ledger, accepted) = (SystemLedger(), Guarded(0))
    let store = try Self.parent(kind, children: children, ledger: ledger)
    let send = store.send
    await withTaskGroup(of: Void.self) { group in
      Self.addProducers(to: &group, send: send, children: children, perProducer: perProducer, accepted: accepted)
      // Meanwhile children are stopped and, a moment later, started again (each time a new
      // store): messages to a child that is stopped then are refused.
      group.addTask {
        for i in 0..<400 {
          _ = send(.stop(i % children))
          try? await Task.sleep(for: .microseconds(20))
          _ = send(.spawn(i % children))
        }
      }
    }
    await store.settle()
    await store.finish()
    // Every message the parent's steps sent was reported started, then delivered or refused
    // (a child stopped in between), once; every child started was reported ended, once.
    let messages = ledger.all.filter { $0.hasPrefix("start send") }.count
    #expect(accepted.withLock { $0 } == 8 * perProducer)
    #expect(messages == 8 * perProducer)
    #expect(ledger.all.filter { $0.hasPrefix("finished send") || $0.hasPrefix("failed send") }.count == messages)
    #expect(ledger.all.filter { $0.hasPrefix("start invoke") }.count == children + 400)
    #expect(SystemDifferentialTests.unended(ledger) == [:])
    // Each child's step told its parent at most once (a restarted child counts its producers'
    // sequences from where the new store begins, so their order is not checked here).
    #expect(store.context().counted + store.context().disorder <= messages)
  }

  @Test("8 producers messaging through a parent that finishes meanwhile: every accepted event handled or dropped, every message and child ended", arguments: HostKind.allCases)
  func relayedWhileFinishing(_ kind: HostKind) async throws {
    let (children, perProducer) = (20, 2_000)
    let (ledger, accepted, relays) = (SystemLedger(), Guarded(0), Guarded(Relay.Relays()))
    let store = try Self.parent(kind, children: children, ledger: ledger, relays: relays)
    await withTaskGroup(of: Void.self) { group in
      Self.addProducers(to: &group, send: store.send, children: children, perProducer: perProducer, accepted: accepted, yielding: true)
      // The store finishes while the producers send: later sends are refused, what was queued
      // is dropped (and reported), and what runs is cancelled.
      try? await Task.sleep(for: .milliseconds(2))
      await store.finish()
    }
    let seen = relays.withLock { $0 }
    #expect(seen.stepped + seen.dropped == accepted.withLock { $0 })
    // A relay stepped before the finish began sent its message; each started one ended once.
    #expect(ledger.all.filter { $0.hasPrefix("start send") }.count <= seen.stepped)
    #expect(ledger.all.filter { $0.hasPrefix("start invoke") }.count == children)
    #expect(SystemDifferentialTests.unended(ledger) == [:])
  }
}
