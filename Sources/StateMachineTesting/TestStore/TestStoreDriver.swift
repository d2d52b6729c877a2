import StateMachine

#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest)
  import XCTest
#endif

/// The assertions of ``TestStore``, over any store's steps: send and receive with the exact step
/// checked, finish with nothing left.
struct TestStoreDriver<Definition: StoreDefinition>: Sendable
where
  Definition.Configuration: Equatable & Sendable, Definition.Event: Equatable, Definition.Context: Equatable & Sendable,
  Definition.Effect.Work: Equatable
{
  typealias Step = StoreStep<Definition>
  typealias Effect = Step.Effect
  typealias Event = Definition.Event
  typealias Context = Definition.Context

  let clock: ManualClock
  let exhaustivity: Exhaustivity
  let journal: Journal<Definition>
  /// Failures are also recorded at the call site (a Swift Testing issue, or an XCTest failure).
  let reportsFailures: Bool
  /// How failure messages name what `Configuration` is: "state" or "configuration".
  let noun: String
  /// How failure messages print a state or configuration.
  let show: @Sendable (Definition.Configuration) -> String
  let sendEvent: @Sendable (Event) -> SendResult
  let finishStore: @Sendable () async -> Void

  /// Where an assertion was made.
  struct Site {
    let file: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt
  }

  /// The failure, recorded at `site` for the test framework that runs the test, to throw.
  func failure(_ message: String, at site: Site) -> TestStoreFailure {
    let failure = TestStoreFailure(message, file: site.file, line: site.line)
    guard reportsFailures else { return failure }
    #if canImport(Testing)
      if Test.current != nil {
        Issue.record(
          Comment(rawValue: message),
          sourceLocation: SourceLocation(
            fileID: "\(site.file)", filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column)))
        return failure
      }
    #endif
    #if canImport(XCTest)
      XCTFail(message, file: site.filePath, line: site.line)
    #endif
    return failure
  }

  func send(
    _ event: Event, to state: Definition.Configuration?, effects: [Effect]?, at site: Site,
    _ change: ((inout Context) throws -> Void)?
  ) async throws {
    let unasserted = takeUnasserted()
    if exhaustivity == .on, let first = unasserted.kinds.first {
      throw failure("sent \(event) while \(first.count) \(first.noun) were not asserted: \(first.list)", at: site)
    }
    if let last = unasserted.received.last { journal.know(last.to, last.context) }
    if case .rejected(let reason) = sendEvent(event) {
      throw failure("the store did not accept \(event): \(reason)", at: site)
    }
    await clock.settle()
    guard let step = journal.takeNext() else {
      throw failure("no step was recorded for \(event)", at: site)
    }
    try check(step, "sent", event: event, state: state, effects: effects, change: change, at: site)
  }

  func receive(
    _ event: Event, to state: Definition.Configuration?, effects: [Effect]?, at site: Site,
    _ change: ((inout Context) throws -> Void)?
  ) async throws {
    await clock.settle()
    while let step = journal.takeNext() {
      if step.event == event {
        try check(step, "received", event: event, state: state, effects: effects, change: change, at: site)
        return
      }
      if exhaustivity == .on {
        throw failure("expected to receive \(event), but received \(step.event)", at: site)
      }
      journal.know(step.to, step.context)
    }
    throw failure(
      "expected to receive \(event), but no event arrived (advance the clock for effects and timers to run?)",
      at: site)
  }

  /// Asserts the next step of the child at `path`: its event reads `event` and, when given, it
  /// left the child where `configuration` reads.
  func receiveChild(at path: String, _ event: String, to configuration: String?, at site: Site) async throws {
    await clock.settle()
    guard let step = journal.takeChildStep(at: path) else {
      throw failure("expected a step of the child \(path) on \(event), but it took none", at: site)
    }
    if step.event != event {
      throw failure("expected a step of the child \(path) on \(event), but it stepped on \(step.event)", at: site)
    }
    if let configuration, step.to != configuration {
      throw failure("child \(path) on \(event): expected it in \(configuration), got \(step.to) (from \(step.from))", at: site)
    }
  }

  /// Asserts that the next effect that failed with no event for the machine reads as `effect`
  /// and, when given, its error as `error`; when not exhaustive, others before it are skipped.
  func receiveFailure(of effect: Effect, error: String?, at site: Site) async throws {
    await clock.settle()
    let expected = "\(effect)"
    while let failed = journal.takeFailure() {
      if failed.description == expected {
        if let error, failed.error != error {
          throw failure("\(expected) failed with the error \"\(failed.error)\", expected \"\(error)\"", at: site)
        }
        return
      }
      if exhaustivity == .on {
        throw failure("expected \(expected) to fail, but \(Self.listed([failed])) failed first", at: site)
      }
    }
    throw failure("expected \(expected) to fail, but no effect failed without an event for the machine", at: site)
  }

  /// What the test left unasserted, taken from the journal: the received steps (the test then
  /// stands after the last), and each kind of thing that has any, in the order a failure names
  /// them (received events, child steps, failed effects): how many, what, and each as it reads.
  func takeUnasserted() -> (received: [Step], kinds: [(count: Int, noun: String, list: String)]) {
    let received = journal.takeAllReceived()
    let children = journal.takeAllChildSteps()
    let failures = journal.takeAllFailures()
    let kinds: [(count: Int, noun: String, list: String)] = [
      (received.count, "received event(s)", received.map { "\($0.event)" }.joined(separator: ", ")),
      (children.count, "child step(s)", children.map { "\($0.path): \($0.event)" }.joined(separator: ", ")),
      (failures.count, "failed effect(s)", Self.listed(failures)),
    ]
    return (received, kinds.filter { $0.count > 0 })
  }

  /// Failed effects as a failure message lists them: each with its error.
  static func listed(_ failures: [(description: String, error: String)]) -> String {
    failures.map { "\($0.description) (\($0.error))" }.joined(separator: ", ")
  }

  func finish(at site: Site) async throws {
    await clock.settle()
    let unasserted = takeUnasserted()
    let running = journal.running
    await finishStore()
    guard exhaustivity == .on else { return }
    if let first = unasserted.kinds.first {
      throw failure("the test ended with \(first.count) \(first.noun) not asserted: \(first.list)", at: site)
    }
    if !running.isEmpty {
      throw failure(
        "the test ended with effects still running: " + running.joined(separator: ", ")
          + " (cancel them, let them finish, or use exhaustivity: .off)", at: site)
    }
  }

  private func check(
    _ step: Step, _ verb: String, event: Event, state: Definition.Configuration?, effects: [Effect]?,
    change: ((inout Context) throws -> Void)?, at site: Site
  ) throws {
    let before = journal.known
    defer { journal.know(step.to, step.context) }
    // Exhaustive: the state is as stated, or unchanged. Not exhaustive: only a stated state is checked.
    if let expectedState = state ?? (exhaustivity == .on ? before.state : nil), step.to != expectedState {
      throw failure(
        "\(verb) \(event): expected the \(noun) \(show(expectedState)), got \(show(step.to)) (from \(show(step.from)))",
        at: site)
    }
    var expected = exhaustivity == .on ? before.context : step.context
    if let change { try change(&expected) }
    if expected != step.context {
      throw failure(
        "\(verb) \(event): the context differs:\n" + difference(expected: expected, actual: step.context),
        at: site)
    }
    guard exhaustivity == .on || effects != nil else { return }
    let (expectedEffects, actual) = (effects ?? [], Array(step.effects))
    if expectedEffects != actual {
      // As they read; in full where two that differ read alike (an event's fields beyond its
      // name, say), so the message shows the difference.
      let alike = Set(zip(expectedEffects, actual).enumerated().filter { $1.0 != $1.1 && "\($1.0)" == "\($1.1)" }.map(\.offset))
      let show = { (list: [Effect]) in
        list.isEmpty ? "none" : list.enumerated().map { alike.contains($0) ? Self.dumped($1) : "\($1)" }.joined(separator: ", ")
      }
      throw failure(
        "\(verb) \(event): expected the effects [\(show(expectedEffects))], got [\(show(actual))]", at: site)
    }
  }

  /// `value` in full, on one line: its fields and theirs, as `dump` shows them.
  static func dumped(_ value: some Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
  }
}
