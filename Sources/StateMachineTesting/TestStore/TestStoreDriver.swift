import StateMachine

/// The assertions of ``TestStore`` and ``ChartTestStore``, over any store whose steps are
/// ``TestedStep``s: send and receive with the exact step checked, finish with nothing left.
struct TestStoreDriver<Step: TestedStep>: Sendable {
  typealias Event = Step.Event
  typealias Context = Step.Context

  let clock: ManualClock
  let exhaustivity: Exhaustivity
  let journal: Journal<Step>
  /// How failure messages name what `Observed` is: "state" or "configuration".
  let noun: String
  /// How failure messages print a state or configuration.
  let show: @Sendable (Step.Observed) -> String
  let sendEvent: @Sendable (Event) -> SendResult
  let finishStore: @Sendable () async -> Void

  func send(
    _ event: Event, to state: Step.Observed?, effects: [Step.Effect]?, file: StaticString, line: UInt,
    _ change: ((inout Context) throws -> Void)?
  ) async throws {
    let unasserted = journal.takeAllReceived()
    if exhaustivity == .on, !unasserted.isEmpty {
      throw TestStoreFailure(
        "sent \(event) while \(unasserted.count) received event(s) were not asserted: "
          + unasserted.map { "\($0.event)" }.joined(separator: ", "), file: file, line: line)
    }
    if let last = unasserted.last { journal.know(last.to, last.context) }
    if case .rejected(let reason) = sendEvent(event) {
      throw TestStoreFailure("the store did not accept \(event): \(reason)", file: file, line: line)
    }
    await clock.settle()
    guard let step = journal.takeNext() else {
      throw TestStoreFailure("no step was recorded for \(event)", file: file, line: line)
    }
    try check(step, "sent", event: event, state: state, effects: effects, change: change, file: file, line: line)
  }

  func receive(
    _ event: Event, to state: Step.Observed?, effects: [Step.Effect]?, file: StaticString, line: UInt,
    _ change: ((inout Context) throws -> Void)?
  ) async throws {
    await clock.settle()
    while let step = journal.takeNext() {
      if step.event == event {
        try check(step, "received", event: event, state: state, effects: effects, change: change, file: file, line: line)
        return
      }
      if exhaustivity == .on {
        throw TestStoreFailure("expected to receive \(event), but received \(step.event)", file: file, line: line)
      }
      journal.know(step.to, step.context)
    }
    throw TestStoreFailure(
      "expected to receive \(event), but no event arrived (advance the clock for effects and timers to run?)",
      file: file, line: line)
  }

  func finish(file: StaticString, line: UInt) async throws {
    await clock.settle()
    let unasserted = journal.takeAllReceived()
    let running = journal.running
    await finishStore()
    guard exhaustivity == .on else { return }
    if !unasserted.isEmpty {
      throw TestStoreFailure(
        "the test ended with \(unasserted.count) received event(s) not asserted: "
          + unasserted.map { "\($0.event)" }.joined(separator: ", "), file: file, line: line)
    }
    if !running.isEmpty {
      throw TestStoreFailure(
        "the test ended with effects still running: " + running.joined(separator: ", ")
          + " (cancel them, let them finish, or use exhaustivity: .off)", file: file, line: line)
    }
  }

  private func check(
    _ step: Step, _ verb: String, event: Event, state: Step.Observed?, effects: [Step.Effect]?,
    change: ((inout Context) throws -> Void)?, file: StaticString, line: UInt
  ) throws {
    let before = journal.known
    defer { journal.know(step.to, step.context) }
    // Exhaustive: the state is as stated, or unchanged. Not exhaustive: only a stated state is checked.
    if let expectedState = state ?? (exhaustivity == .on ? before.state : nil), step.to != expectedState {
      throw TestStoreFailure(
        "\(verb) \(event): expected the \(noun) \(show(expectedState)), got \(show(step.to)) (from \(show(step.from)))",
        file: file, line: line)
    }
    var expected = exhaustivity == .on ? before.context : step.context
    if let change { try change(&expected) }
    if expected != step.context {
      throw TestStoreFailure(
        "\(verb) \(event): the context differs:\n" + difference(expected: expected, actual: step.context),
        file: file, line: line)
    }
    guard exhaustivity == .on || effects != nil else { return }
    let (expectedEffects, actual) = (effects ?? [], step.stepEffects)
    if expectedEffects != actual {
      let show = { (list: [Step.Effect]) in list.isEmpty ? "none" : list.map { "\($0)" }.joined(separator: ", ") }
      throw TestStoreFailure(
        "\(verb) \(event): expected the effects [\(show(expectedEffects))], got [\(show(actual))]", file: file, line: line)
    }
  }
}
