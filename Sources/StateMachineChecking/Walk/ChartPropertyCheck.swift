public import StateMachine

/// Seeded random walks through a statechart, checking invariants after every macrostep; a
/// failing walk is shrunk to a 1-minimal sequence (removing any one event makes it pass).
///
/// ```swift
/// try ChartPropertyCheck(chart: chart, context: NoContext(), alphabet: chart.eventNames)
///     .invariant("never loud while paused") { states, _ in !(states.contains("loud") && states.contains("paused")) }
///     .run(walks: 200, length: 40, seed: 7)
/// ```
public struct ChartPropertyCheck<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Effect: Sendable>: ChartChecking {
  @usableFromInline let chart: Chart<ID, Event, Context, Effect>
  @usableFromInline let context: Context
  @usableFromInline let alphabet: [Event]
  /// The invariants checked after every macrostep.
  public var invariants: [(name: String, holds: @Sendable (_ configuration: [ID], _ context: Context) -> Bool)] = []

  /// Walks `chart` from its start with `context`, choosing events from `alphabet`.
  public init(chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event]) {
    (self.chart, self.context, self.alphabet) = (chart, context, alphabet)
  }

  /// What a passing run did.
  public struct Summary: Sendable {
    /// Walks run.
    public let walks: Int
    /// Events sent, over all walks.
    public let steps: Int
    /// The seed: the same seed runs the same walks.
    public let seed: UInt64

    @usableFromInline
    init(walks: Int, steps: Int, seed: UInt64) { (self.walks, self.steps, self.seed) = (walks, steps, seed) }
  }

  /// Runs `walks` walks of `length` events (uniform over the alphabet) from the chart's start.
  ///
  /// - Throws: ``PropertyFailure`` with the shrunk sequence and the seed to reproduce it.
  /// (Inlinable: the walk's steps are specialised for your chart's types where you call it.)
  @discardableResult @inlinable
  public func run(walks: Int = 100, length: Int = 50, seed: UInt64? = nil) throws(PropertyFailure<Event>) -> Summary {
    let seed = seed ?? UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    var steps = 0
    var events: [Event] = []
    events.reserveCapacity(length)
    // Every walk starts where the chart's start leaves it: started once, copied per walk.
    var origin = ChartMachine(chart, context: context)
    origin._discardsOutputs = true
    let started = Result { () throws(ChartRunError) in try origin.start() }
    for _ in 0..<walks where !alphabet.isEmpty {
      events.removeAll(keepingCapacity: true)
      for _ in 0..<length { events.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
      let found = if case .success = started { failure(of: events, from: origin) } else { failure(of: events) }
      guard let (property, message, failing) = found else {
        steps += length
        continue
      }
      throw shrunkFailure(failing, property: property, message: message, seed: seed)
    }
    return Summary(walks: walks, steps: steps, seed: seed)
  }

  /// The failure of `failing`, shrunk.
  @usableFromInline
  func shrunkFailure(_ failing: [Event], property: String, message: String, seed: UInt64) -> PropertyFailure<Event> {
    let shrunk = shrink(failing, property: property)
    let last = failure(of: shrunk)
    return PropertyFailure(seed: seed, property: property, message: last?.message ?? message, events: shrunk, originalLength: failing.count)
  }

  /// The first broken property of `events` run from the start, with the prefix that breaks it.
  @inlinable
  func failure(of events: [Event]) -> (property: String, message: String, events: [Event])? {
    var machine = ChartMachine(chart, context: context)
    do {
      _ = try machine.start()
    } catch {
      return ("settles", error.description, events)
    }
    return failure(of: events, from: machine)
  }

  /// The first broken property of `events` run from `started` (the chart just started).
  @inlinable
  func failure(
    of events: [Event], from started: ChartMachine<ID, Event, Context, Effect>
  ) -> (property: String, message: String, events: [Event])? {
    var machine = started
    do {
      if let broken = broken(machine) { return (broken.property, broken.message, []) }
      for (n, event) in events.enumerated() {
        _ = try machine.send(event)
        if !invariants.isEmpty, let broken = broken(machine) { return (broken.property, broken.message, Array(events[...n])) }
      }
    } catch {
      return ("settles", error.description, events)
    }
    return nil
  }

  /// Shrinks a failing sequence as a table's property check does (see ``Shrinking``).
  @usableFromInline
  func shrink(_ events: [Event], property: String) -> [Event] {
    Shrinking(failing: { candidate in
      guard let failing = failure(of: candidate), failing.property == property else { return nil }
      return failing.events
    }).shrink(events)
  }
}

/// A chart walk that broke a property: the same failure a table's property check throws.
@available(*, deprecated, renamed: "PropertyFailure")
public typealias ChartPropertyFailure<Event: Sendable> = PropertyFailure<Event>
