import StateMachine
import Testing

/// States with payloads: the table keys on the case, rows go to fixed payloads or make them.
@Suite("States with payloads")
struct PayloadStateTests {
  enum Phase: Hashable, Sendable, Discriminated, CustomStringConvertible {
    case idle
    case counting(Int)
    case failed(reason: String)

    enum Kind: Hashable, Sendable, CaseIterable { case idle, counting, failed }
    var discriminant: Kind {
      switch self {
      case .idle: .idle
      case .counting: .counting
      case .failed: .failed
      }
    }
    var description: String {
      switch self {
      case .idle: "idle"
      case .counting(let n): "counting(\(n))"
      case .failed(let reason): "failed(\(reason))"
      }
    }
  }

  enum Input: Hashable, Sendable, Discriminated {
    case start, tick, fail(String)
    enum Kind: Hashable, Sendable, CaseIterable { case start, tick, fail }
    var discriminant: Kind {
      switch self {
      case .start: .start
      case .tick: .tick
      case .fail: .fail
      }
    }
  }

  static let table = try! TransitionTable<Phase, Input, NoContext, String>(
    name: "countdown",
    initial: .idle,
    rows: [
      .transition(from: .idle, on: .start, to: .counting(3), effects: "startTicker"),
      .transition(from: .counting, on: .tick, toCase: .counting, named: "count down", make: { _, _ in .counting(0) })
        .when("never") { _, _ in false },
      .transition(from: .counting, on: .fail, toCase: .failed, named: "failed(reason)") { _, event in
        if case .fail(let reason) = event { .failed(reason: reason) } else { .failed(reason: "?") }
      },
      .transition(from: .counting, on: .start, toCase: .counting, named: "wrong case on purpose") { _, _ in .idle },
      .fromAny(on: .tick, to: .idle),
    ])

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let state: Phase
    let event: Input
    let expected: StepOutcome<Phase, String>
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    .init(label: "fixed payload target", state: .idle, event: .start, expected: .transitioned(from: .idle, to: .counting(3), effects: ["startTicker"])),
    .init(label: "rows key on the case, whatever the payload", state: .counting(42), event: .tick, expected: .transitioned(from: .counting(42), to: .idle, effects: [])),
    .init(label: "payload made from the event", state: .counting(2), event: .fail("timeout"),
          expected: .transitioned(from: .counting(2), to: .failed(reason: "timeout"), effects: [])),
    .init(label: "a made state of the wrong case is rejected, nothing changes", state: .counting(1), event: .start,
          expected: .rejected(.unknownTarget)),
  ]

  @Test("step", arguments: cases)
  func step(_ c: Case) {
    let step = Self.table.step(c.state, NoContext(), c.event)
    #expect(step.outcome == c.expected)
    if case .rejected = c.expected { #expect(step.state == c.state) }
  }

  @Test("Renderings name cases and made targets")
  func rendering() {
    #expect(Self.table.markdown().contains("| counting | fail |  | failed |  |"))
    #expect(Self.table.analyze().reachable == [.idle, .counting, .failed])
    #expect(Self.table.analyze().deadEnds == [], "the wildcard tick leads out of failed")
  }
}
