import StateMachine
import StateMachineTesting
import Testing

@Suite("ChartTestStore: asserting configurations, context changes and effects")
struct ChartTestStoreTests {
  enum S: String, Hashable, Sendable { case session, idle, uploading, done }
  enum E: Sendable, Equatable, Discriminated {
    case pick, progress(Int), uploaded, cancel
    enum Kind: UInt8, Hashable, Sendable { case pick, progress, uploaded, cancel }
    var discriminant: Kind {
      switch self {
      case .pick: .pick
      case .progress: .progress
      case .uploaded: .uploaded
      case .cancel: .cancel
      }
    }
  }
  enum W: Sendable, Equatable { case upload }
  struct C: Sendable, Equatable { var percent = 0 }

  static func chart() throws -> Chart<S, E, C, Command<E, W>> {
    try Chart(name: "upload", states: [
      .compound(.session, children: [
        .atomic(.idle, transitions: [.on(.pick, to: .uploading)]),
        .atomic(.uploading, transitions: [
          .on(.progress, do: [.update { c, e in if case .progress(let p)? = e { c.percent = p } }]),
          .on(.uploaded, to: .done),
          .on(.cancel, to: .idle),
        ], onEntry: [.effect(.perform(.upload, id: "upload", scope: .state))]),
        .atomic(.done),
      ]),
    ])
  }

  /// The upload reports progress at 1 s and finishes at 2 s.
  static func store(exhaustivity: Exhaustivity = .on, reportsFailures: Bool = true) throws -> TestStore<Chart<S, E, C, Command<E, W>>> {
    let clock = ManualClock()
    return try TestStore(try chart(), context: C(), clock: clock, exhaustivity: exhaustivity, reportsFailures: reportsFailures) { _, send in
      try await clock.sleep(for: .seconds(1))
      send(.progress(50))
      try await clock.sleep(for: .seconds(1))
      send(.uploaded)
    }
  }

  @Test("a whole upload: sent and received steps, configurations and context")
  func upload() async throws {
    let store = try Self.store()
    try await store.send(.pick, to: [.uploading], effects: [.perform(.upload, id: "upload", scope: .state)])
    await store.advance(by: .seconds(1))
    try await store.receive(.progress(50)) { $0.percent = 50 }
    await store.advance(by: .seconds(1))
    try await store.receive(.uploaded, to: [.done])
    #expect(store.configuration == [.done])
    try await store.finish()
  }

  struct Failing: Sendable, CustomTestStringConvertible {
    let label: String
    let expected: String
    let run: @Sendable (TestStore<Chart<S, E, C, Command<E, W>>>) async throws -> Void
    var testDescription: String { label }
  }

  static let failing: [Failing] = [
    .init(label: "wrong configuration", expected: "sent pick: expected the configuration [idle], got [uploading]") {
      try await $0.send(.pick, to: [.idle], effects: [.perform(.upload, id: "upload", scope: .state)])
    },
    .init(label: "unstated effects", expected: "sent pick: expected the effects [none], got [upload (in state)]") {
      try await $0.send(.pick, to: [.uploading])
    },
    .init(
      label: "an effect that reads alike but differs: shown in full",
      expected: #"sent pick: expected the effects [▿ upload (in state) ▿ perform: (3 elements) - .0: StateMachineTestingTests.ChartTestStoreTests.W.upload ▿ id: Optional(other)"#
    ) {
      try await $0.send(.pick, to: [.uploading], effects: [.perform(.upload, id: "other", scope: .state)])
    },
    .init(label: "a received event not asserted", expected: "sent cancel while 1 received event(s) were not asserted: progress(50)") {
      try await $0.send(.pick, to: [.uploading], effects: [.perform(.upload, id: "upload", scope: .state)])
      await $0.advance(by: .seconds(1))
      try await $0.send(.cancel, to: [.idle])
    },
    .init(label: "an effect still running at the end", expected: "the test ended with effects still running: upload: upload") {
      try await $0.send(.pick, to: [.uploading], effects: [.perform(.upload, id: "upload", scope: .state)])
      try await $0.finish()
    },
  ]

  @Test("each failure names what was expected, at the call", arguments: failing)
  func failures(_ c: Failing) async throws {
    let store = try Self.store(reportsFailures: false)
    do {
      try await c.run(store)
      Issue.record("expected a failure")
    } catch let failure as TestStoreFailure {
      #expect(failure.message.hasPrefix(c.expected), "\(failure.message)")
      #expect(failure.file.hasSuffix("ChartTestStoreTests.swift"))
    }
    try? await store.finish()
  }

  /// A chart that asks for each of its other outputs on one event: a send to itself, a
  /// cancel, a message, a delayed message.
  static func asking() throws -> Chart<S, E, C, Command<E, W>> {
    try Chart(name: "asking", states: [
      .atomic(.idle, transitions: [
        .on(.pick, do: [.send(.uploaded, after: .seconds(1), id: "later")]),
        .on(.cancel, do: [.cancel("later")]),
        .on(.progress, when: ChartGuard("at 0") { _, event in event == .progress(0) }, do: [.message(.cancel, to: "nobody")]),
        .on(.progress, do: [.message(.cancel, to: "nobody", after: .seconds(2), id: "nudge"), .effect(.perform(.upload))]),
        .on(.uploaded, to: .done),
      ]),
      .atomic(.done),
    ])
  }

  struct Asked: Sendable, CustomTestStringConvertible {
    let label: String
    let event: E
    let effects: [Command<E, W>]
    /// What ends the effects the step started (the test store is exhaustive).
    var then: @Sendable (TestStore<Chart<S, E, C, Command<E, W>>>) async throws -> Void = { _ in }
    var testDescription: String { label }
  }

  static let asked: [Asked] = [
    .init(label: "a send to itself is the timer a table emits", event: .pick, effects: [.send(.uploaded, after: .seconds(1), id: "later")]) {
      await $0.advance(by: .seconds(1))
      try await $0.receive(.uploaded, to: [.done])
    },
    .init(label: "a cancel is a table's cancel", event: .cancel, effects: [.cancel("later")]),
    .init(label: "a message is a table's message", event: .progress(0), effects: [.message(MachineMessage(E.cancel, to: "nobody"))]) {
      try await $0.receiveFailure(of: .message(MachineMessage(E.cancel, to: "nobody")), error: "no running child machine has that id")
    },
    .init(
      label: "a delayed message, then an effect, in order", event: .progress(1),
      effects: [.message(MachineMessage(E.cancel, to: "nobody", after: .seconds(2), id: "nudge")), .perform(.upload)]
    ) {
      await $0.advance(by: .seconds(2))
      try await $0.receiveFailure(of: .message(MachineMessage(E.cancel, to: "nobody", after: .seconds(2), id: "nudge")))
    },
  ]

  @Test("a chart's sends, cancels and messages are among its step's effects, as the commands a table emits", arguments: asked)
  func otherOutputsAreEffects(_ c: Asked) async throws {
    let store = try TestStore(try Self.asking(), context: C(), clock: ManualClock(), exhaustivity: .on) { _, _ in }
    try await store.send(c.event, effects: c.effects)
    try await c.then(store)
    try await store.finish()
  }

  @Test("exhaustivity off checks only what the test states")
  func nonExhaustive() async throws {
    let store = try Self.store(exhaustivity: .off)
    try await store.send(.pick)
    await store.advance(by: .seconds(2))
    try await store.receive(.uploaded, to: [.done])
    try await store.finish()
  }

  @available(*, deprecated, message: "exercises the deprecated name")
  @Test("ChartTestStore still compiles and names the one test store")
  func oldName() async throws {
    #expect(ChartTestStore<S, E, C, W>.self == TestStore<Chart<S, E, C, Command<E, W>>>.self)
    let store = try ChartTestStore(try Self.chart(), context: C())
    try await store.send(.pick, to: [.uploading], effects: [.perform(.upload, id: "upload", scope: .state)])
    try await store.send(.cancel, to: [.idle])
    try await store.finish()
  }
}
