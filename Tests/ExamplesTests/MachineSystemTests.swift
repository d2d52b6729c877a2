import StateMachine
import StateMachineChecking
import StateMachineExamples
import Synchronization
import Testing

/// A system of machines as a third kind under the checking tools (`MachineSystem`): the upload
/// queue and its per-file children, run on the caller's thread by the store's own rules.
@Suite("Systems of machines under the checking tools")
struct MachineSystemTests {
  typealias QueueSystem = MachineSystem<Chart<UploadQueue.State, UploadQueue.Event, UploadQueue.Context, UploadQueue.Effect>>

  static let system = MachineSystem(chart: UploadQueue.chart)
  static let files = ["a", "b", "c"]
  /// Files added, and each file's upload told how its attempt went, or its backoff ended.
  static let alphabet: [QueueSystem.Event] =
    files.map { .root(.add([$0])) }
    + files.flatMap { file in [Upload.Event.succeeded, .attemptFailed, .retryNow].map { QueueSystem.Event.message($0, to: file) } }

  @Test("adding three files starts two uploads; a file sent starts the third; the last one done finishes the queue")
  func scripted() throws {
    var machine = SystemMachine(Self.system, context: UploadQueue.Context())
    try machine.begin()
    #expect(try machine.step(.root(.add(["a", "b", "c"]))) == .handled)
    #expect(machine.configuration.root == [.uploading])
    #expect(machine.configuration.children == ["a": "sending", "b": "sending"])
    #expect(try machine.step(.message(Upload.Event.succeeded, to: "a")) == .handled)
    #expect(machine.configuration.children == ["b": "sending", "c": "sending"])
    #expect(machine.context.uploaded == ["a"])
    #expect(try machine.step(.message(Upload.Event.attemptFailed, to: "b")) == .handled)
    #expect(machine.configuration.children == ["b": "waiting", "c": "sending"])
    // A message to no running child, or of another machine's type, is refused.
    #expect(try machine.step(.message(Upload.Event.succeeded, to: "a")).isRejected)
    #expect(try machine.step(.message("sent", to: "b")).isRejected)
    for _ in 0...Upload.retries {
      _ = try machine.step(.message(Upload.Event.retryNow, to: "b"))
      _ = try machine.step(.message(Upload.Event.attemptFailed, to: "b"))
    }
    _ = try machine.step(.message(Upload.Event.succeeded, to: "c"))
    #expect(machine.configuration.root == [.finished])
    #expect(machine.configuration.children.isEmpty)
    #expect(machine.context.failed == ["b"])
    #expect(machine.context.uploaded == ["a", "c"])
    #expect("\(machine.configuration)" == "finished")
  }

  @Test("a copy of a running system steps on its own, and so does the original: each keeps its children where they were")
  func copies() throws {
    var original = SystemMachine(Self.system, context: UploadQueue.Context())
    try original.begin()
    _ = try original.step(.root(.add(["a", "b"])))
    var copy = original
    _ = try copy.step(.message(Upload.Event.attemptFailed, to: "a"))
    _ = try copy.step(.message(Upload.Event.succeeded, to: "b"))
    #expect(copy.configuration.children == ["a": "waiting"])
    #expect(original.configuration.children == ["a": "sending", "b": "sending"])
    #expect(original.context.uploaded.isEmpty)
    // And the other way round: the original steps on, the copy stays where it was.
    _ = try original.step(.message(Upload.Event.succeeded, to: "a"))
    #expect(original.configuration.children == ["b": "sending"])
    #expect(original.context.uploaded == ["a"])
    #expect(copy.configuration.children == ["a": "waiting"])
    #expect(copy.context.uploaded == ["b"])
  }

  @Test("property checks walk a system: the queue never runs more uploads than its limit, one per active file")
  func propertyCheck() throws {
    let report = try PropertyCheck(Self.system, context: UploadQueue.Context(), alphabet: Self.alphabet)
      .invariant("at most \(UploadQueue.limit) uploads") { system, _ in system.children.count <= UploadQueue.limit }
      .invariant("one upload per active file") { system, queue in Set(system.children.keys) == Set(queue.active) }
      .invariant("every file counted once") { _, queue in
        let all = queue.pending + queue.active + queue.uploaded + queue.failed
        return Set(all).count == all.count
      }
      .run(walks: 200, length: 40, seed: 7)
    #expect(report.steps > 0)
  }

  @Test("a broken invariant over the children is found and shrunk to the shortest walk that breaks it")
  func shrinks() {
    #expect(throws: PropertyFailure<QueueSystem.Event>.self) {
      try PropertyCheck(Self.system, context: UploadQueue.Context(), alphabet: Self.alphabet)
        .invariant("never two uploads") { system, _ in system.children.count < 2 }
        .run(walks: 100, length: 30, seed: 3)
    }
    do {
      try PropertyCheck(Self.system, context: UploadQueue.Context(), alphabet: Self.alphabet)
        .invariant("never two uploads") { system, _ in system.children.count < 2 }
        .run(walks: 100, length: 30, seed: 3)
    } catch {
      #expect(error.events.count == 2, "two files added start two uploads: \(error.events)")
    }
  }
}

/// The same inputs through a running ``Store`` and through the system's checking kind: after
/// every input the root's configuration and context, the running children and where each
/// child is are the same (the store's work never ends and its clock never moves, as in a check).
@Suite("A checked system steps as its store does")
struct MachineSystemIdentityTests {
  /// Where each child last stepped to, as the store's inspector saw it.
  final class Places: Sendable {
    let places = Mutex<[String: String]>([:])
    func record(_ report: StoreReport<UploadQueue.Event, StoreStep<Chart<UploadQueue.State, UploadQueue.Event, UploadQueue.Context, UploadQueue.Effect>>>) {
      if case .childStep(let step) = report { places.withLock { $0[step.path] = step.to } }
    }
  }

  /// Each input as the system takes it, and sent to the store.
  static let inputs: [(MachineSystemTests.QueueSystem.Event, @Sendable (UploadQueue.Runtime) -> SendResult)] =
    MachineSystemTests.files.map { file in (.root(.add([file])), { @Sendable store in store.send(.add([file])) }) }
    + MachineSystemTests.files.flatMap { file in
      Upload.Event.allCases.map { event in (.message(event, to: file), { @Sendable store in store.send(event, to: file) }) }
    }

  @Test("random inputs, store against system", arguments: 1...40)
  func identity(seed: UInt64) async throws {
    let clock = ManualClock()
    let places = Places()
    let services = UploadServices { _ in try await clock.sleep(for: .seconds(1_000_000)) }
    let store = UploadQueue.store(services: services, clock: clock, inspector: { places.record($0) })
    store.start()
    var machine = SystemMachine(MachineSystem(chart: UploadQueue.chart(services: services)), context: UploadQueue.Context())
    try machine.begin()
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    for _ in 0..<30 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let (input, sendToStore) = Self.inputs[Int(state >> 33) % Self.inputs.count]
      let response = try machine.step(input)
      let sent = sendToStore(store)
      #expect((sent == .accepted) == !response.isRejected, "\(input): store \(sent), system \(response)")
      #expect(store.configuration == machine.configuration.root, "after \(input)")
      #expect(store.context == machine.context, "after \(input)")
      #expect(store.children.sorted() == machine.configuration.children.keys.sorted(), "after \(input)")
      let stored = places.places.withLock { seen in Dictionary(uniqueKeysWithValues: store.children.map { ($0, seen[$0] ?? "sending") }) }
      #expect(stored == machine.configuration.children, "after \(input)")
      // A child that ended and starts again under the same name starts where a new one does.
      places.places.withLock { seen in seen = seen.filter { store.children.contains($0.key) } }
    }
    await store.finish()
  }
}

/// A table that runs a child while in `b` (state-scoped), messages it, and answers what it says.
@Suite("A checked system: scopes, messages and its bound")
struct MachineSystemRulesTests {
  enum State: UInt8, Hashable, Sendable, Discriminated { case a, b }
  enum Event: Hashable, Sendable, Discriminated {
    case go, poke, heard
    var discriminant: Self { self }
  }
  enum ChildEvent: UInt8, Hashable, Sendable, Discriminated { case tick }
  typealias Host = TransitionTable<State, Event, Int, Command<Event, Never>>
  typealias Child = TransitionTable<State, ChildEvent, Int, Command<ChildEvent, Never>>

  /// Counts its ticks; says `heard` to its parent after each when `echo` is set.
  static func child(echo: Bool) -> ChildMachine<Event> {
    typealias R = Row<State, ChildEvent, Int, Command<ChildEvent, Never>>
    let moved: R = .transition(from: .a, on: .tick, to: .a)
    let tick = moved.update { (count: inout Int, _: ChildEvent) in count += 1 }
    let table = try! Child(name: "ticker", initial: .a, rows: [tick])
    var says: (@Sendable (StoreStep<Child>) -> Event?)?
    if echo { says = { _ in Event.heard } }
    return ChildMachine(table, context: 0, toParent: says)
  }

  /// `go` moves a ⇄ b; `b` runs the child `c`; `poke` messages it a tick; `heard` counts and,
  /// when `answer` is set, pokes it again.
  static func host(echo: Bool, answer: Bool) -> Host {
    typealias R = Row<State, Event, Int, Command<Event, Never>>
    let tick = Command<Event, Never>.message(MachineMessage(ChildEvent.tick, to: "c"))
    let rows: [R] = [
      .transition(from: .a, on: .go, to: .b), .transition(from: .b, on: .go, to: .a),
      R.stayInAny(on: .poke, effects: tick),
      R.stayInAny(on: .heard).update { count, _ in count += 1 }.emit("answer") { _, _ in answer ? tick : nil },
    ]
    let invoke = Command<Event, Never>.invoke(child(echo: echo), id: "c")
    return try! Host(name: "host", initial: .a, states: [.state(.a), .state(.b, entry: [invoke])], rows: rows)
  }

  @Test("a state-scoped child starts when its state is entered and ends when it is left; what it says reaches its parent")
  func scope() throws {
    var machine = SystemMachine(MachineSystem(table: Self.host(echo: true, answer: false)), context: 0)
    try machine.begin()
    #expect(machine.configuration.children.isEmpty)
    _ = try machine.step(.root(.go))
    #expect(machine.configuration.children == ["c": "a"])
    _ = try machine.step(.root(.poke))
    _ = try machine.step(.message(ChildEvent.tick, to: "c"))
    #expect(machine.context == 2, "the child said `heard` after each of its two ticks")
    _ = try machine.step(.root(.go))
    #expect(machine.configuration.root == .a)
    #expect(machine.configuration.children.isEmpty)
    #expect(try machine.step(.root(.poke)) == .handled, "the host handles poke; its message finds no child")
    #expect(machine.context == 2)
  }

  @Test("machines that answer each other forever end with a typed error past the bound, never a hang")
  func bound() throws {
    var system = MachineSystem(table: Self.host(echo: true, answer: true))
    system.maxStepsPerInput = 500
    var machine = SystemMachine(system, context: 0)
    try machine.begin()
    _ = try machine.step(.root(.go))
    #expect(throws: SystemRunError.tooManyEvents(limit: 500, input: "poke")) { try machine.step(.root(.poke)) }
    // A walk that meets the loop fails `settles`, shrunk to the two inputs that start it.
    do {
      try PropertyCheck(MachineSystem(table: Self.host(echo: true, answer: true)), context: 0, alphabet: [.root(.go), .root(.poke)])
        .run(walks: 20, length: 10, seed: 1)
      Issue.record("the loop was not found")
    } catch {
      #expect(error.property == "settles")
      #expect(error.events.map(\.description) == ["go", "poke"])
    }
  }
}

@Suite("Exploring a system of machines")
struct MachineSystemExplorationTests {
  typealias QueueSystem = MachineSystemTests.QueueSystem

  static func alphabet(_ files: [String]) -> [QueueSystem.Event] { UploadQueue.systemAlphabet(files: files) }

  @Test("one file: the queue and its upload have 8 configurations, counted by hand")
  func oneFile() {
    // idle; uploading with the upload sending after 0, 1 and 2 failures, and waiting after 1
    // and 2; finished with the file uploaded, and with it failed. (Adding the file again from
    // either end is the first upload again.)
    let result = Explorer(MachineSystemTests.system, context: UploadQueue.Context(), alphabet: Self.alphabet(["a"])).explore(depth: 20)
    #expect(result.configurations == 8)
    #expect(!result.truncated)
    #expect("\(result.coverage)" == "transitions (not counted in a system) 0/0, states 3/3")
    #expect(result.shortestPath(to: .finished)?.map(\.description) == ["add(a)", "succeeded to a"])
  }

  enum Beep: UInt8, Hashable, Sendable, Discriminated { case beep, hush }
  typealias Rules = MachineSystemRulesTests

  /// A host that runs child `c` from its start: a table with a row for `beep` alone, whose
  /// every step, when `echo` is set, it says to its parent as `heard`; the host counts up to 3.
  static func beeping(echo: Bool) -> MachineSystem<Rules.Host> {
    typealias Beeper = TransitionTable<Rules.State, Beep, Int, Command<Beep, Never>>
    var says: (@Sendable (StoreStep<Beeper>) -> Rules.Event?)?
    if echo { says = { _ in .heard } }
    let table = try! Beeper(name: "beeper", initial: .a, rows: [.stay(in: .a, on: .beep)])
    let child = ChildMachine<Rules.Event>(table, context: 0, toParent: says)
    typealias R = Row<Rules.State, Rules.Event, Int, Command<Rules.Event, Never>>
    let count = R.stayInAny(on: .heard).when("below 3") { count, _ in count < 3 }.update { count, _ in count += 1 }
    let host = try! Rules.Host(name: "host", initial: .a, states: [.state(.a, entry: [.invoke(child, id: "c")])], rows: [count])
    return MachineSystem(table: host)
  }

  @Test(
    "a message its child takes no step on leaves the system where it was (the explorer stays there), unless the child's steps are told to its parent",
    arguments: [(echo: false, configurations: 1), (echo: true, configurations: 4)])
  func ignoredMessages(echo: Bool, configurations: Int) throws {
    let alphabet: [SystemEvent<Rules.Event>] = [.message(Beep.hush, to: "c")]
    let result = Explorer(Self.beeping(echo: echo), context: 0, alphabet: alphabet).explore(depth: 10)
    #expect(result.configurations == configurations)
    // Stepped one by one, the system agrees: a hush is delivered (handled), and counted only
    // when the child's steps are told.
    var machine = SystemMachine(Self.beeping(echo: echo), context: 0)
    try machine.begin()
    #expect(try machine.step(.message(Beep.hush, to: "c")) == .handled)
    #expect(machine.context == (echo ? 1 : 0))
  }

  @Test("two files: every configuration keeps the queue's invariants, and a broken one is found with a shortest path")
  func twoFiles() {
    let explorer = Explorer(MachineSystemTests.system, context: UploadQueue.Context(), alphabet: Self.alphabet(["a", "b"]))
    let result = explorer
      .invariant("at most \(UploadQueue.limit) uploads") { system, _ in system.children.count <= UploadQueue.limit }
      .invariant("one upload per active file") { system, queue in Set(system.children.keys) == Set(queue.active) }
      .explore(depth: 30)
    #expect(result.violations.isEmpty)
    #expect(result.configurations > 8)
    let broken = explorer.invariant("b never fails") { _, queue in !queue.failed.contains("b") }.explore(depth: 30)
    #expect(broken.violations.map(\.property) == ["b never fails"])
    // b's three failed attempts and two backoffs, after it was added.
    #expect(broken.violations.first?.path.count == 6)
  }
}
