public import StateMachine

/// Seeded random walks through a statechart, checking invariants after every macrostep; a
/// failing walk is shrunk as a table's is (see ``PropertyCheck``): to a 1-minimal sequence
/// (removing any one event, or simplifying its payload, makes it pass).
///
/// ```swift
/// try ChartPropertyCheck(chart: chart, context: NoContext(), alphabet: chart.eventNames)
///     .invariant("never loud while paused") { states, _ in !(states.contains("loud") && states.contains("paused")) }
///     .run(walks: 200, length: 40, seed: 7)
/// ```
///
/// Events come from a fixed alphabet (uniformly), or, for `Discriminated` events whose cases
/// are `CaseIterable`, from an ``EventSource`` as a table's walks do: a case some transition of
/// the current configuration names, its payload made (and shrunk) by the source.
public struct ChartPropertyCheck<ID: Hashable & Sendable, Event: Sendable, Context: Sendable, Effect: Sendable>: ChartChecking {
  @usableFromInline let chart: Chart<ID, Event, Context, Effect>
  @usableFromInline let context: Context
  @usableFromInline let alphabet: [Event]
  /// The invariants checked after every macrostep.
  public var invariants: [(name: String, holds: @Sendable (_ configuration: [ID], _ context: Context) -> Bool)] = []

  /// Draws a walk's next event from an event source for the configuration it is in (`nil`:
  /// none can be made); `nil` when the walk is uniform over ``alphabet`` (picked in the loop:
  /// a closure there, or the machine captured in one, cost the walk a third of its speed).
  @usableFromInline let draw: (@Sendable (_ configuration: [ID], _ generator: inout SplitMix64) -> Event?)?
  /// Simpler events to try in place of one when shrinking.
  @usableFromInline let simpler: @Sendable (Event) -> [Event]

  /// Walks `chart` from its start with `context`, choosing events from `alphabet`.
  public init(chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event]) {
    (self.chart, self.context, self.alphabet) = (chart, context, alphabet)
    draw = nil
    simpler = { _ in [] }
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

  /// Runs `walks` walks of up to `length` events (uniform over the alphabet, or from the event
  /// source) from the chart's start.
  ///
  /// - Throws: ``PropertyFailure`` with the shrunk sequence and the seed to reproduce it.
  /// (Inlinable: the walk's steps are specialised for your chart's types where you call it.)
  @discardableResult @inlinable
  public func run(walks: Int = 100, length: Int = 50, seed: UInt64? = nil) throws(PropertyFailure<Event>) -> Summary {
    let seed = seed ?? UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    var steps = 0
    // Every walk starts where the chart's start leaves it: started once, copied per walk.
    var origin = ChartMachine(chart, context: context)
    origin._discardsOutputs = true
    do {
      _ = try origin.start()
    } catch {
      throw PropertyFailure(seed: seed, property: "settles", message: error.description, events: [], originalLength: 0)
    }
    if let broken = broken(origin) {
      throw PropertyFailure(seed: seed, property: broken.property, message: broken.message, events: [], originalLength: 0)
    }
    var events: [Event] = []
    events.reserveCapacity(length)
    for _ in 0..<walks {
      var machine = origin
      events.removeAll(keepingCapacity: true)
      var broke: (property: String, message: String)?
      do {
        for _ in 0..<length {
          let drawn: Event? =
            if let draw { draw(machine.configuration, &random) }
            else if alphabet.isEmpty { nil }
            else { alphabet[Int(random.next() % UInt64(alphabet.count))] }
          guard let event = drawn else { break }
          events.append(event)
          _ = try machine.send(event)
          if !invariants.isEmpty, let broken = broken(machine) {
            broke = broken
            break
          }
        }
      } catch {
        broke = ("settles", error.description)
      }
      steps += events.count
      if let broke { throw shrunkFailure(events, property: broke.property, message: broke.message, seed: seed) }
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
    machine._discardsOutputs = true
    do {
      _ = try machine.start()
    } catch {
      return ("settles", error.description, [])
    }
    if let broken = broken(machine) { return (broken.property, broken.message, []) }
    for (n, event) in events.enumerated() {
      do {
        _ = try machine.send(event)
      } catch {
        return ("settles", error.description, Array(events[...n]))
      }
      if !invariants.isEmpty, let broken = broken(machine) { return (broken.property, broken.message, Array(events[...n])) }
    }
    return nil
  }

  /// Shrinks a failing sequence as a table's property check does (see ``Shrinking``):
  /// payloads are simplified through the event source, when the walk has one.
  @usableFromInline
  func shrink(_ events: [Event], property: String) -> [Event] {
    Shrinking(
      failing: { candidate in
        guard let failing = failure(of: candidate), failing.property == property else { return nil }
        return failing.events
      },
      simpler: simpler
    ).shrink(events)
  }
}

extension ChartPropertyCheck where Event: Discriminated, Event.Discriminant: CaseIterable {
  /// Walks `chart` from its start with `context`, each event made by `events` as a table's
  /// walks make them: a case that some transition of the configuration (or of an ancestor)
  /// names (`Chart.mayHandle(eventNamed:in:)`; with the source's `unhandledShare`, sometimes
  /// one none names), its payload from the source, simplified through the source's shrinker when
  /// a failing walk is shrunk. A case is named as the chart names it, `"\(discriminant)"`.
  ///
  /// ```swift
  /// let percent = Gen.int(in: 0...200)
  /// try ChartPropertyCheck(chart: upload, context: Progress(), events: EventSource(shrink: { event in
  ///     if case .progress(let p) = event { percent.shrink(p).map { .progress($0) } } else { [] }
  /// }) { kind, rng in
  ///     switch kind {
  ///     case .progress: .progress(percent.next(&rng))
  ///     case .pick: .pick
  ///     case .cancel: .cancel
  ///     }
  /// })
  /// .invariant("at most 100 %") { _, progress in progress.percent <= 100 }
  /// .run(seed: 1)
  /// ```
  public init(chart: Chart<ID, Event, Context, Effect>, context: Context, events: EventSource<Event>) {
    let cases = Array(Event.Discriminant.allCases)
    let names = cases.map { "\($0)" }
    (self.chart, self.context, alphabet) = (chart, context, [])
    draw = { configuration, generator in
      var handled: [Event.Discriminant] = []
      var unhandled: [Event.Discriminant] = []
      for (i, kind) in cases.enumerated() {
        if chart.mayHandle(eventNamed: names[i], in: configuration) { handled.append(kind) } else { unhandled.append(kind) }
      }
      return events.next(handled: handled, unhandled: unhandled, using: &generator)
    }
    simpler = events.shrink
  }
}

/// A chart walk that broke a property: the same failure a table's property check throws.
@available(*, deprecated, renamed: "PropertyFailure")
public typealias ChartPropertyFailure<Event: Sendable> = PropertyFailure<Event>
