import Foundation
import StateMachine
import StateMachineExamples
import StateMachineTesting
import Testing

// README snippets that no other test holds, each compiled and run here as written there
// (`ReadmeSnippetTests` checks that every README snippet is in some test).

/// "Declaring a machine": a payload event's `Discriminated` conformance.
enum ReadmeDeclaring {
  enum FormEvent: Discriminated {
      case phoneChanged(String), submit
      enum Kind: Hashable, CaseIterable { case phoneChanged, submit }
      var discriminant: Kind {
          switch self { case .phoneChanged: .phoneChanged; case .submit: .submit }
      }
  }
}

/// "Event logs": how a payload case encodes, with its field named.
enum ReadmePayloadCoding {
  enum Event: Codable {
      case editPhone(String)
      case reset
      enum EditPhoneCodingKeys: String, CodingKey { case _0 = "text" }   // {"editPhone":{"text":"138…"}}
  }
}

@Suite("README snippets, run")
struct ReadmeSnippetCodeTests {
  @Test("a system of machines is checked and explored whole, as the README says")
  func checkedSystem() throws {
    let system = MachineSystem(chart: UploadQueue.chart)
    let alphabet: [SystemEvent<UploadQueue.Event>] = [.root(.add(["a"])), .root(.add(["b"]))]
      + ["a", "b"].flatMap { file in Upload.Event.allCases.map { SystemEvent.message($0, to: file) } }
    try PropertyCheck(system, context: UploadQueue.Context(), alphabet: alphabet)
      .invariant("one upload per active file") { system, queue in Set(system.children.keys) == Set(queue.active) }
      .run(seed: 7)
    let result = Explorer(system, context: UploadQueue.Context(), alphabet: alphabet).explore(depth: 30)
    print(result.configurations)   // 91
    #expect(result.configurations == 91)
  }

  @Test("one check over the machine model covers a table and a chart as the README says")
  func oneModel() {
    func coverage<Machine: ExplorableDefinition>(_ machine: Machine, _ context: Machine.Context, _ alphabet: [Machine.Event]) -> String
    where Machine.Context: Sendable {
        "\(Explorer(machine, context: context, alphabet: alphabet).checking(.noDeadEnd).explore().coverage)"
    }
    let table = coverage(CDPlayer.table, NoContext(), CDPlayer.Event.allCases)   // rows 12/12, states 5/5
    let chart = coverage(Radio.chart, NoContext(), Radio.Event.allCases)         // transitions 15/15, states 13/13
    #expect([table, chart] == ["rows 12/12, states 5/5", "transitions 15/15, states 13/13"])
  }

  @Test("one function over any store reads a table's and a chart's steps as the README says")
  func oneStore() async {
    func responses<Definition>(_ store: Store<Definition>, _ events: [Definition.Event]) async -> [String] {
        let steps = store.steps
        let seen = Task { await steps.reduce(into: []) { $0.append("\($1.event): \($1.response)") } }
        for event in events { store.send(event) }
        await store.finish()
        return await seen.value
    }
    let clock = ManualClock()
    let login = await responses(Login.store(services: .fake(clock: clock), clock: clock), [.start, .submit, .start])
    let radio = await responses(Radio.store(services: .fake(clock: clock), clock: clock), [.play, .power, .play])
    #expect(login == ["start: handled", "submit: handled", "start: ignored"])
    #expect(radio == ["play: ignored", "power: handled", "play: handled"])
  }

  @Test("a payload case encodes under its field's name")
  func payloadCoding() throws {
    let data = try JSONEncoder().encode([ReadmePayloadCoding.Event.editPhone("138"), .reset])
    #expect(String(decoding: data, as: UTF8.self) == #"[{"editPhone":{"text":"138"}},{"reset":{}}]"#)
    #expect(ReadmeDeclaring.FormEvent.phoneChanged("1").discriminant == .phoneChanged)
  }

  @Test("the LogRecorder snippet records a store's session and replays it")
  func logRecorderSnippet() async throws {
    let table = Login.table                        // any table whose types are Codable
    let context = Login.Context()
    let clock = ContinuousClock()
    let handler: Store<Login.Table>.Handler = { work, send in
        // perform `work`; send its results
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("session.jsonl").path
    try? FileManager.default.removeItem(atPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = Store(table, context: context, clock: clock, handler: handler)
    let recorder = try store.record(to: path, durability: .every(100))   // before start() and the first send
    store.send(.start)
    await store.finish()
    try recorder.close()
    // ... later, at your desk: the file is read as a stream, in constant memory
    print(try table.replay(logAt: path))   // "replayed 1 entries: identical", or the first divergence
    #expect(try table.replay(logAt: path).description == "replayed 1 entries: identical")

    let resumed = try LogRecorder(resuming: path, table: table)
    let restarted = try Store(table, resuming: resumed, clock: clock, handler: handler)
    #expect(restarted.state == store.state)
    restarted.send(.start)
    await restarted.finish()
    try resumed.close()
    #expect(try table.replay(logAt: path).description == "replayed 2 entries: identical")
  }

  @Test("the PropertyCheck snippet finds the planted bug and shrinks it to two loads")
  func propertyCheckSnippet() throws {
    // A loader whose `load` while loading starts a second request (the bug: it should be ignored).
    enum LoaderState: Hashable, Sendable, CaseIterable, Discriminated { case idle, loading, loaded }
    enum LoaderEvent: Hashable, Sendable, CaseIterable, Discriminated { case load, done, reset }
    struct Requests: Hashable, Sendable { var inFlight = 0 }
    let loader = try TransitionTable<LoaderState, LoaderEvent, Requests, String>(
        name: "planted-loader", initial: .idle,
        rows: [
            .transition(from: .idle, on: .load, to: .loading).update { c, _ in c.inFlight += 1 },
            .stay(in: .loading, on: .load).update { c, _ in c.inFlight += 1 },  // the planted bug
            .transition(from: .loading, on: .done, to: .loaded).update { c, _ in c.inFlight = 0 },
            .fromAny(on: .reset, to: .idle).update { c, _ in c.inFlight = 0 },
        ])

    let failure = #expect(throws: PropertyFailure<LoaderEvent>.self) {
    try PropertyCheck(table: loader, context: Requests(), events: .cases)
        .invariant("at most one request in flight") { _, context in context.inFlight <= 1 }
        .run(walks: 200, length: 30, seed: 7)
    }
    #expect(failure?.events == [.load, .load])
    #expect(failure?.description.contains("property 'at most one request in flight' failed (seed 7)") == true)
  }
}
