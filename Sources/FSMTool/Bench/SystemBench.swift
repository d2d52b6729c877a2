import FSMCommand
import StateMachine
import StateMachineChecking
import StateMachineExamples

/// The `system` workload: messages between machines in one store, a child's start and stop,
/// and the memory of idle children, beside a plain store's send.
enum SystemBench {
  typealias Child = TransitionTable<StoreBench.State, StoreBench.Event, NoContext, Command<StoreBench.Event, StoreBench.Work>>

  enum State: UInt8, Hashable, Sendable, Discriminated { case a, b }
  enum Event: Hashable, Sendable, Discriminated {
    case spawn(Int), go, forward(StoreBench.Event), misdirect(StoreBench.Event), cancelling(StoreBench.Event)
    case alternate(StoreBench.Event, child: Int), respawn
    enum Kind: UInt8, Hashable, Sendable { case spawn, go, forward, misdirect, cancelling, alternate, respawn }
    var discriminant: Kind {
      switch self {
      case .spawn: .spawn
      case .go: .go
      case .forward: .forward
      case .misdirect: .misdirect
      case .cancelling: .cancelling
      case .alternate: .alternate
      case .respawn: .respawn
      }
    }
  }
  typealias Host = TransitionTable<State, Event, NoContext, Command<Event, Never>>

  /// The loader bench's table as a child.
  static let child = ChildMachine<Event>(childTable, context: NoContext())
  static let childTable = StoreBench.table(effects: false)

  /// `spawn(n)` spawns child `c<n>`; `go` moves a ⇄ b, and `b` runs child `c` while active;
  /// `forward(e)` messages `e` to child `c0` (from the machine, a ``Command/message(_:)``);
  /// `misdirect(e)` messages it to an id no child has (refused: the parent's part alone);
  /// `cancelling(e)` cancels an effect that does not run (a step with one effect, not a message);
  /// `alternate(e, child: n)` messages `e` to child `c<n>` (`c0` or `c1`: a parent messaging its
  /// children in turn, no two messages in a row to the same one); `respawn` starts child `r`
  /// from a ``ChildMachine`` made for it, replacing the last (as the upload queue makes one for
  /// each upload).
  static let host: Host = try! Host(
    name: "system-host", initial: .a,
    states: [.state(.a), .state(.b, entry: [.invoke(child, id: "c")])],
    rows: [
      .transition(from: .a, on: .go, to: .b), .transition(from: .b, on: .go, to: .a),
      .stayInAny(on: .spawn).emit("spawn") { _, event in
        guard case .spawn(let n) = event else { return nil }
        return .invoke(child, id: EffectID("c\(n)"), scope: .global)
      },
      .stayInAny(on: .forward).emit("forward") { _, event in
        guard case .forward(let message) = event else { return nil }
        return .message(MachineMessage(message, to: "c0"))
      },
      .stayInAny(on: .cancelling).emit("cancel") { _, _ in .cancel("nothing") },
      .stayInAny(on: .alternate).emit("alternate") { _, event in
        guard case .alternate(let message, let child) = event else { return nil }
        return .message(MachineMessage(message, to: child == 0 ? "c0" : "c1"))
      },
      .stayInAny(on: .misdirect).emit("misdirect") { _, event in
        guard case .misdirect(let message) = event else { return nil }
        return .message(MachineMessage(message, to: "nobody"))
      },
      .stayInAny(on: .respawn).emit("respawn") { _, _ in
        .invoke(ChildMachine(childTable, context: NoContext()), id: "r", scope: .global)
      },
    ])

  typealias ChartHost = Chart<State, Event, NoContext, Command<Event, Never>>

  /// The host as a chart: child `c0` runs while its one state is active; `forward(e)` and
  /// `misdirect(e)` message as the table's rows do (``ChartAction/make(_:_:)``, one output);
  /// `go` is handled and does nothing (the chart's own step with no effects, the baseline of
  /// its message).
  static let chartHost: ChartHost = try! ChartHost(
    name: "system-chart-host",
    states: [
      .atomic(
        .a,
        transitions: [
          .on(.go, do: []),
          .on(.forward, do: [
            .make("forward") { _, event in
              guard case .forward(let message)? = event else { return nil }
              return .message(MachineMessage(message, to: "c0"))
            }
          ]),
          .on(.misdirect, do: [
            .make("misdirect") { _, event in
              guard case .misdirect(let message)? = event else { return nil }
              return .message(MachineMessage(message, to: "nobody"))
            }
          ]),
        ], onEntry: [.effect(.invoke(child, id: "c0", scope: .global))])
    ])

  static func workload(count: Int, idleChildren: Int) -> BenchWorkload {
    let events = LoaderBench.events(count: count, seed: 0x5EED)
    let plain = StoreBench.table(effects: false)
    var kept: [Any] = []
    // Beside a plain store of the child's table, measured the same way: what a child adds.
    // Each the median of 5 measurements, interleaved, each set kept while the next is made. The
    // first in a process reads higher (on Linux x86-64, 384–397 bytes per store and 490–504 per
    // child, where the four after it read 319–332 and 463–464): it grows the resident set by
    // some pages of the process's own as well.
    var (stores, children) = ([Double](), [Double]())
    for _ in 0..<5 {
      stores.append(StoreBench.bytesPerIdleStore(count: idleChildren, kept: &kept))
      children.append(bytesPerIdleChild(count: idleChildren, kept: &kept))
    }
    let (storeBytes, idleBytes) = (median(stores), median(children))
    // The parents finish here, their children with them, before any variant runs: dropped, their
    // children's stores would finish in the background while the variants are timed.
    for case let parent as Store<Host> in kept { StoreBench.finishSynchronously(parent) }
    kept = []
    return BenchWorkload(
      name: "system", events: count,
      variants: [
        BenchVariant(name: "store.send, no effects (baseline)") {
          let store = Store(plain, context: NoContext()) { _, _ in }
          return events.reduce(0) { $0 + (store.send($1) == .accepted ? 1 : 0) }
        },
        BenchVariant(name: "message to a child from outside (store.send(_:to:))") {
          withChild { store in events.reduce(0) { $0 + (store.send($1, to: "c0") == .accepted ? 1 : 0) } }
        },
        BenchVariant(name: "message from the parent machine to its child (Command.message)") {
          withChild { store in events.reduce(0) { $0 + (store.send(.forward($1)) == .accepted ? 1 : 0) } }
        },
        // Children messaged in turn, each finding its child by id anew: every event of the first
        // half to `c0`, then to `c1` (each child steps the sequence in order), as many messages
        // as the other variants send.
        BenchVariant(name: "message from the parent machine to two children in turn (Command.message)") {
          withChild(count: 2) { store in
            events.prefix(events.count / 2).reduce(0) { total, event in
              total + (store.send(.alternate(event, child: 0)) == .accepted ? 1 : 0) + (store.send(.alternate(event, child: 1)) == .accepted ? 1 : 0)
            }
          }
        },
        // What of a message is the parent's (its step, the effect's start and end), and what
        // its delivery: the same message to an id that no child has is refused at delivery.
        BenchVariant(name: "the parent's part of Command.message (to an id no child has: refused)") {
          withChild { store in events.reduce(0) { $0 + (store.send(.misdirect($1)) == .accepted ? 1 : 0) } }
        },
        // What any one effect costs a step: a message is such a step, and its child's.
        BenchVariant(name: "the parent's step with one other effect (a cancel of nothing)") {
          withChild { store in events.reduce(0) { $0 + (store.send(.cancelling($1)) == .accepted ? 1 : 0) } }
        },
        // The chart parent's own step without effects, in the store that runs its child: a
        // chart's message beside it as the table's beside the baseline (a chart's step costs more
        // than a table's with or without a message).
        BenchVariant(name: "the parent chart's store.send, no effects (its message's own baseline)") {
          withChartChild { store in events.reduce(0) { total, _ in total + (store.send(.go) == .accepted ? 1 : 0) } }
        },
        BenchVariant(name: "message from a parent chart to its child (Command.message)") {
          withChartChild { store in events.reduce(0) { $0 + (store.send(.forward($1)) == .accepted ? 1 : 0) } }
        },
        BenchVariant(name: "the parent chart's part of Command.message (to an id no child has: refused)") {
          withChartChild { store in events.reduce(0) { $0 + (store.send(.misdirect($1)) == .accepted ? 1 : 0) } }
        },
        // The synchronous system the checkers step (PropertyCheck, Explorer over a MachineSystem).
        BenchVariant(name: "MachineSystem.step, parent machine to child (what checks of a system step)") {
          systemSteps(events) { .root(.forward($0)) }
        },
        BenchVariant(name: "MachineSystem.step, outside to child") { systemSteps(events) { .message($0, to: "c0") } },
        BenchVariant(name: "child start and stop (enter and leave its state), per pair") {
          let store = Store(host, context: NoContext(), handler: { _, _ in })
          var pairs = 0
          for _ in 0..<count {
            store.send(.go)
            if store.send(.go) == .accepted { pairs += 1 }
          }
          // The stopped children's stores finish in the background: counted until they have.
          StoreBench.finishSynchronously(store)
          return pairs
        },
        BenchVariant(name: "child start and stop, its ChildMachine made for each start (as the upload queue's uploads)") {
          let store = Store(host, context: NoContext(), handler: { _, _ in })
          var started = 0
          for _ in 0..<count where store.send(.respawn) == .accepted { started += 1 }
          StoreBench.finishSynchronously(store)
          return started
        },
      ],
      notes: [
        "idle_bytes_per_child": idleBytes, "idle_children": Double(idleChildren), "idle_bytes_per_store_of_its_table": storeBytes,
      ])
  }

  /// What `send` returns, run on a store of `host` with children `c0` (and on, `count` of them)
  /// started, once the store and its children have finished.
  static func withChild(count: Int = 1, _ send: (Store<Host>) -> Int) -> Int {
    let store = Store(host, context: NoContext(), handler: { _, _ in })
    for n in 0..<count { store.send(.spawn(n)) }
    return finished(store, send)
  }

  /// What `send` returns, run on a store of `chartHost` (whose child `c0` starts with it), once
  /// the store and its child have finished.
  static func withChartChild(_ send: (Store<ChartHost>) -> Int) -> Int {
    let store = try! Store(chartHost, context: NoContext(), handler: { _, _ in })
    store.start()
    return finished(store, send)
  }

  /// What `send` returns on `store`, once the store and its children have finished.
  static func finished<Definition: StoreDefinition>(_ store: Store<Definition>, _ send: (Store<Definition>) -> Int) -> Int {
    let accepted = send(store)
    StoreBench.finishSynchronously(store)
    return accepted
  }

  /// Steps a synchronous system of `host` with child `c0` through `input` of each event; returns
  /// how many steps were handled.
  static func systemSteps(_ events: [StoreBench.Event], _ input: (StoreBench.Event) -> SystemEvent<Event>) -> Int {
    var system = SystemMachine(MachineSystem(table: host), context: NoContext())
    try! system.begin()
    _ = try! system.step(.root(.spawn(0)))
    var handled = 0
    for event in events where (try? system.step(input(event))) == .handled { handled += 1 }
    return handled
  }

  /// Bytes per idle child: growth of the resident set over `count` children spawned in one
  /// store, divided by `count` (the store is kept in `kept`).
  static func bytesPerIdleChild(count: Int, kept: inout [Any]) -> Double {
    let store = Store(host, context: NoContext(), handler: { _, _ in })
    guard let before = StoreBench.residentBaseline() else { return .nan }
    for n in 0..<count { store.send(.spawn(n)) }
    guard let after = StoreBench.residentBytes(), store.children.count == count else { return .nan }
    kept.append(store)
    return Double(after - before) / Double(count)
  }
}

extension SystemBench {
  /// The `system-explore` workload: the upload queue as a system (its chart, and a child table
  /// per file) explored whole with two files, again and again (`Explorer.explore`, ns per
  /// configuration), beside the table explorer on a paged loader of about as many
  /// configurations (as `chart-explore`).
  static func exploreWorkload(configurations: Int) -> BenchWorkload {
    // (The queue's model, without its invariants: two files added, each upload told every result.)
    let model = UploadQueue.model
    let systemExplorer = Explorer(model.definition, context: model.context, alphabet: model.alphabet)
    let space = systemExplorer.explore(depth: Int.max / 2).configurations
    let tableExplorer = Explorer(
      table: ModelCheckBench.pagedLoader(pages: max(1, space / 5)), context: 0, alphabet: ModelCheckBench.Event.allCases)
    let rounds = max(1, configurations / max(1, space))
    return BenchWorkload(
      name: "system-explore", events: rounds * space,
      variants: [
        ModelCheckBench.exploring("table explore (Explorer.explore)", rounds: rounds, space: space, exact: false) {
          tableExplorer.explore(depth: Int.max / 2).configurations
        },
        ModelCheckBench.exploring("upload-queue system explore, two files (Explorer.explore)", rounds: rounds, space: space, exact: true) {
          systemExplorer.explore(depth: Int.max / 2).configurations
        },
      ],
      notes: ["configurations": Double(space)])
  }
}
