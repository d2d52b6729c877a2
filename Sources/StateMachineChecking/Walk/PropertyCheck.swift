import Foundation
public import StateMachine

/// Property-based testing of a machine of any kind (a table or a chart): seeded random walks,
/// properties checked after every step, and shrinking of a failing walk to a minimal event
/// sequence.
///
/// ```swift
/// @Test func countdownStaysInRange() throws {
///     try PropertyCheck(table: Captcha.table, context: .init(), events: .cases)
///         .invariant("0...60") { _, context in (0...60).contains(context.remaining) }
///         .run(seed: 42)
/// }
///
/// @Test func neverLoudWhilePaused() throws {
///     try PropertyCheck(chart: player, context: NoContext(), alphabet: player.eventNames)
///         .invariant("not loud while paused") { states, _ in !(states.contains("loud") && states.contains("paused")) }
///         .run(walks: 200, length: 40, seed: 7)
/// }
/// ```
///
/// An invariant reads the machine's configuration (a table's state, a chart's active atomic
/// states) and its context. A walk's events come from an ``EventSource`` (a case the current
/// configuration handles, its payload made and shrunk by the source) or uniformly from an
/// alphabet. A failure throws a ``PropertyFailure`` whose description has the seed, the
/// property's message and the minimal sequence, so it fails the test in Swift Testing and in
/// XCTest alike; a chart's macrostep that does not settle fails the property `settles`.
public struct PropertyCheck<Definition: MachineDefinition>: PropertyChecking, Sendable where Definition.Context: Sendable {
  /// A running machine of the definition checked.
  public typealias Instance = Definition.Instance
  /// The events walks send.
  public typealias Event = Definition.Event

  @usableFromInline let definition: Definition
  @usableFromInline let context: Definition.Context
  /// The events a walk picks from uniformly, when it has no event source.
  @usableFromInline let alphabet: [Event]
  /// Draws a walk's next event for the configuration it is in (`nil`: none can be made); `nil`
  /// when the walk is uniform over ``alphabet`` (picked in the loop: a closure there cost a
  /// chart's walk a third of its speed).
  @usableFromInline let draw: (@Sendable (Definition.Configuration, inout SplitMix64) -> Event?)?
  /// Simpler events to try in place of one when shrinking.
  @usableFromInline let simpler: @Sendable (Event) -> [Event]
  /// Whether a configuration is a dead end (for ``StepCheck/noDeadEnd``).
  @usableFromInline let deadEnd: @Sendable (Definition.Configuration) -> Bool
  /// The invariants and checks applied after every step.
  public var properties = Properties<Definition.Configuration, Definition.Context>()

  /// Walks `definition` from its start with `context`, each event drawn by `draw` for the
  /// configuration the walk is in (or uniformly from `alphabet` when `draw` is `nil`).
  @usableFromInline
  init(
    _ definition: Definition, context: Definition.Context, alphabet: [Event],
    draw: (@Sendable (Definition.Configuration, inout SplitMix64) -> Event?)?, simpler: @escaping @Sendable (Event) -> [Event]
  ) {
    (self.definition, self.context, self.alphabet, self.draw, self.simpler) = (definition, context, alphabet, draw, simpler)
    deadEnd = definition._deadEndTest()
  }

  /// Walks `definition` (a table, a chart) from its start with `context`, each event picked
  /// uniformly from `alphabet`.
  public init(_ definition: Definition, context: Definition.Context, alphabet: [Event]) {
    self.init(definition, context: context, alphabet: alphabet, draw: nil, simpler: { _ in [] })
  }

  /// What a passing run did.
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

  /// Runs `walks` random walks of up to `length` steps each from the machine's start.
  ///
  /// - Parameters:
  ///   - walks: How many walks to run.
  ///   - length: The most steps in a walk.
  ///   - seed: The run's seed; a random one when `nil`. It is printed, and it is in the
  ///     failure, so a failing run can be repeated exactly.
  /// - Throws: ``PropertyFailure`` with the minimal failing sequence.
  ///
  /// (Inlinable: the walk's steps are specialised for your machine's types where you call it.)
  @inlinable
  @discardableResult
  public func run(walks: Int = 100, length: Int = 50, seed: UInt64? = nil) throws(PropertyFailure<Event>) -> Report {
    let seed = seed ?? UInt64.random(in: 0...UInt64.max)
    announce(seed: seed, walks: walks, length: length)
    var random = SplitMix64(seed: seed)
    var steps = 0
    // Every walk starts where the machine's start leaves it: begun once, copied per walk.
    let origin: Instance
    do {
      origin = try started()
    } catch {
      throw PropertyFailure(seed: seed, property: "settles", message: "\(error)", events: [], originalLength: 0)
    }
    if let broken = violation(in: origin) ?? undeliveredAtStart(origin) {
      throw PropertyFailure(seed: seed, property: broken.property, message: broken.message, events: [], originalLength: 0)
    }
    var events: [Event] = []
    events.reserveCapacity(length)
    // Read once: a closure read from `self` in the loop was retained and released every step.
    let (draw, alphabet) = (self.draw, self.alphabet)
    // An alphabet's events are numbered once, for the machine to step them by number.
    let ordinals = draw == nil ? alphabet.map { origin._ordinal(of: $0) } : []
    for _ in 0..<walks {
      var machine = origin
      machine._detachContext()
      events.removeAll(keepingCapacity: true)
      var broke: Violation?
      do {
        for _ in 0..<length {
          let response: MachineResponse
          if let draw {
            guard let event = draw(machine.configuration, &random) else { break }
            events.append(event)
            response = try machine.step(event)
          } else {
            guard !alphabet.isEmpty else { break }
            let e = Int(random.next() % UInt64(alphabet.count))
            events.append(alphabet[e])
            response = try machine._step(alphabet[e], ordinal: ordinals[e])
          }
          if let broken = violation(after: response, in: machine) {
            broke = broken
            break
          }
        }
      } catch {
        broke = Violation(property: "settles", message: "\(error)")
      }
      steps += events.count
      if let broke { throw shrunkFailure(events, broke, seed: seed) }
    }
    return Report(seed: seed, walks: walks, steps: steps)
  }

  @usableFromInline
  struct Violation {
    @usableFromInline let property: String
    @usableFromInline let message: String

    @inlinable init(property: String, message: String) { (self.property, self.message) = (property, message) }
  }

  /// Prints the run's seed (to standard error, so it never mixes with a program's output). A
  /// standard error that cannot be written (closed) loses the line, and ends nothing: Foundation's
  /// non-throwing `write` trapped there, in the test process running the check.
  @usableFromInline
  func announce(seed: UInt64, walks: Int, length: Int) {
    try? FileHandle.standardError.write(contentsOf: Data("PropertyCheck \(definition.name): seed \(seed), \(walks) walks of \(length) steps\n".utf8))
  }

  /// The first invariant `machine` breaks.
  @inlinable
  func violation(in machine: Instance) -> Violation? {
    guard let (property, message) = properties.broken(machine.configuration, machine.context) else { return nil }
    return Violation(property: property, message: message)
  }

  /// The first property broken by the step that responded `response` and left `machine` where
  /// it is (the configuration is read only when a property needs it).
  @inlinable
  func violation(after response: MachineResponse, in machine: Instance) -> Violation? {
    if properties.has(.noRejection), let reason = response.rejection {
      return Violation(property: "no rejection", message: "rejected in \(machine.configuration): \(reason)")
    }
    // (A table's or a chart's machine has no message to tell of: the test is compiled away.)
    if properties.has(.messagesDelivered), let undelivered = machine._undeliveredMessage {
      return Violation(property: "messages delivered", message: "\(undelivered), now in \(machine.configuration)")
    }
    let deadEnds = properties.has(.noDeadEnd)
    guard deadEnds || !properties.invariants.isEmpty else { return nil }
    // Read once: a chart's configuration is an array made when asked.
    let configuration = machine.configuration
    if deadEnds, deadEnd(configuration) {
      return Violation(property: "no dead end", message: "\(configuration) is a dead end")
    }
    guard let (property, message) = properties.broken(configuration, machine.context) else { return nil }
    return Violation(property: property, message: message)
  }

  /// ``StepCheck/messagesDelivered``, broken by the start, when it is on.
  @inlinable
  func undeliveredAtStart(_ machine: Instance) -> Violation? {
    guard properties.has(.messagesDelivered), let undelivered = machine._undeliveredMessage else { return nil }
    return Violation(property: "messages delivered", message: "\(undelivered), at the start")
  }

  /// The machine as its start leaves it, to be stepped by a walk or a replay: its context
  /// detached from the definition's (a scripted chart's datamodel is its own), its outputs not
  /// kept.
  @inlinable
  func started() throws(Instance.Failure) -> Instance {
    var machine = Instance(definition, context: context)
    machine._detachContext()
    machine._discardOutputs()
    try machine.begin()
    return machine
  }

  /// Replays `events` from the start: the first property broken, and how many events were sent
  /// when it was found. An event the machine rejects or ignores changes nothing, and the replay
  /// goes on, as the walk did (shrinking then drops it).
  @usableFromInline
  func replay(_ events: [Event]) -> (failure: Violation?, sent: Int) {
    var machine: Instance
    do {
      machine = try started()
    } catch {
      return (Violation(property: "settles", message: "\(error)"), 0)
    }
    if let failure = violation(in: machine) ?? undeliveredAtStart(machine) { return (failure, 0) }
    for (n, event) in events.enumerated() {
      let response: MachineResponse
      do {
        response = try machine.step(event)
      } catch {
        return (Violation(property: "settles", message: "\(error)"), n + 1)
      }
      if let failure = violation(after: response, in: machine) { return (failure, n + 1) }
    }
    return (nil, events.count)
  }

  /// The failure of the walk `failing`, which broke `broke`, shrunk (see ``Shrinking``):
  /// payloads are simplified through the event source; a candidate counts when it breaks the
  /// same property.
  @usableFromInline
  func shrunkFailure(_ failing: [Event], _ broke: Violation, seed: UInt64) -> PropertyFailure<Event> {
    let minimal = Shrinking(
      failing: { candidate in
        let (failure, sent) = replay(candidate)
        return failure?.property == broke.property ? Array(candidate.prefix(sent)) : nil
      },
      simpler: simpler
    ).shrink(failing)
    let last = replay(minimal).failure ?? broke
    return PropertyFailure(seed: seed, property: last.property, message: last.message, events: minimal, originalLength: failing.count)
  }
}

extension PropertyCheck {
  /// What a passing chart walk did (the same report as a table's).
  @available(*, deprecated, renamed: "Report")
  public typealias Summary = Report
}
