import Foundation
public import StateMachine

/// Property-based testing of a table: seeded random walks, invariants checked after every step,
/// and shrinking of a failing walk to a minimal event sequence.
///
/// ```swift
/// @Test func countdownStaysInRange() throws {
///     try PropertyCheck(table: Captcha.table, context: .init(), events: .cases)
///         .invariant("0...60") { _, context in (0...60).contains(context.remaining) }
///         .run(seed: 42)
/// }
/// ```
///
/// A failure throws a ``PropertyFailure`` whose description has the seed, the property's message
/// and the minimal sequence, so it fails the test in Swift Testing and in XCTest alike.
public struct PropertyCheck<State: Discriminated, Event: Discriminated, Context, Effect: Sendable>: PropertyChecking, Sendable
where Context: Sendable {
  /// The table checked.
  public typealias Table = TransitionTable<State, Event, Context, Effect>

  @usableFromInline let table: Table
  @usableFromInline let context: Context
  @usableFromInline let events: EventSource<Event>
  /// The invariants and checks applied after every step.
  public var properties = Properties<State, Context>()
  @usableFromInline let deadEnds: Set<State.Discriminant>
  /// For each state case: the event cases it handles, and those it does not.
  @usableFromInline let cases: [State.Discriminant: (handled: [Event.Discriminant], unhandled: [Event.Discriminant])]

  /// Checks `table` from its initial state with `context`, sending events from `events`.
  public init(table: Table, context: Context, events: EventSource<Event>) {
    self.table = table
    self.context = context
    self.events = events
    deadEnds = Set(table.analyze().deadEnds)
    var cases: [State.Discriminant: (handled: [Event.Discriminant], unhandled: [Event.Discriminant])] = [:]
    for state in table.stateCases {
      let handled = table.handledEvents(in: state)
      cases[state] = (handled, table.eventCases.filter { !handled.contains($0) })
    }
    self.cases = cases
  }

  /// What a run did.
  public struct Report: Sendable {
    /// The seed: the same seed runs the same walks.
    public let seed: UInt64
    /// Walks run.
    public let walks: Int
    /// Events sent, over all walks.
    public let steps: Int

    @inlinable
    init(seed: UInt64, walks: Int, steps: Int) { (self.seed, self.walks, self.steps) = (seed, walks, steps) }
  }

  /// Runs `walks` random walks of up to `length` steps each from the initial state.
  ///
  /// - Parameters:
  ///   - walks: How many walks to run.
  ///   - length: The most steps in a walk.
  ///   - seed: The run's seed; a random one when `nil`. It is printed, and it is in the
  ///     failure, so a failing run can be repeated exactly.
  /// - Throws: ``PropertyFailure`` with the minimal failing sequence.
  @inlinable
  @discardableResult
  public func run(walks: Int = 100, length: Int = 50, seed: UInt64? = nil) throws(PropertyFailure<Event>) -> Report {
    let seed = seed ?? UInt64.random(in: 0...UInt64.max)
    announce(seed: seed, walks: walks, length: length)
    var rng = SplitMix64(seed: seed)
    var steps = 0
    for _ in 0..<walks {
      var walk: [Event] = []
      var machine = Machine(table, context: context)
      if let failure = violation(in: machine) {
        throw PropertyFailure(seed: seed, property: failure.property, message: failure.message, events: [], originalLength: 0)
      }
      for _ in 0..<length {
        guard let kinds = cases[machine.state.discriminant],
          let event = events.next(handled: kinds.handled, unhandled: kinds.unhandled, using: &rng)
        else { break }
        walk.append(event)
        steps += 1
        let outcome = machine.send(event)
        if let failure = violation(after: outcome, in: machine) {
          let minimal = shrink(walk, failing: failure.property)
          let final = replay(minimal).failure ?? failure
          throw PropertyFailure(
            seed: seed, property: final.property, message: final.message, events: minimal, originalLength: walk.count)
        }
      }
    }
    return Report(seed: seed, walks: walks, steps: steps)
  }

  @usableFromInline
  struct Violation {
    @usableFromInline let property: String
    @usableFromInline let message: String

    @inlinable init(property: String, message: String) {
      self.property = property
      self.message = message
    }
  }

  /// Prints the run's seed (to standard error, so it never mixes with a program's output).
  @usableFromInline
  func announce(seed: UInt64, walks: Int, length: Int) {
    FileHandle.standardError.write(Data("PropertyCheck \(table.name): seed \(seed), \(walks) walks of \(length) steps\n".utf8))
  }

  @inlinable
  func violation(in machine: Machine<State, Event, Context, Effect>) -> Violation? {
    guard let (property, message) = properties.broken(machine.state, machine.context) else { return nil }
    return Violation(property: property, message: message)
  }

  @inlinable
  func violation(after outcome: StepOutcome<State, Effect>, in machine: Machine<State, Event, Context, Effect>) -> Violation? {
    if properties.has(.noRejection), case .rejected(let reason) = outcome {
      return Violation(property: "no rejection", message: "rejected in \(machine.state): \(reason)")
    }
    if properties.has(.noDeadEnd), deadEnds.contains(machine.state.discriminant) {
      return Violation(property: "no dead end", message: "\(machine.state) is a dead end")
    }
    return violation(in: machine)
  }

  /// Replays `events` from the initial state: the first violation, whether every event was
  /// accepted (no rejection) before it, and how many events were sent when it was found.
  @usableFromInline
  func replay(_ events: [Event]) -> (failure: Violation?, accepted: Bool, sent: Int) {
    var machine = Machine(table, context: context)
    if let failure = violation(in: machine) { return (failure, true, 0) }
    for (n, event) in events.enumerated() {
      let outcome = machine.send(event)
      if let failure = violation(after: outcome, in: machine) { return (failure, true, n + 1) }
      if case .rejected = outcome { return (nil, false, n + 1) }
    }
    return (nil, true, events.count)
  }

  /// Shrinks a failing sequence (see ``Shrinking``): payloads are simplified through the
  /// event source; a candidate counts only when every event before the failure is accepted.
  @usableFromInline
  func shrink(_ events: [Event], failing property: String) -> [Event] {
    Shrinking(
      failing: { candidate in
        let (failure, _, sent) = replay(candidate)
        return failure?.property == property ? Array(candidate.prefix(sent)) : nil
      },
      simpler: self.events.shrink
    ).shrink(events)
  }
}
