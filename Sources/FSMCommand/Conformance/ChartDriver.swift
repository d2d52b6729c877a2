import StateMachine

/// Runs a document chart the way an SCXML processor's event loop does, on a virtual clock: an
/// external queue (sends without delay wait there until the current macrostep ends) and
/// delayed sends due on the clock, cancellable by id. Used by `fsm conform` and `fsm run`.
///
/// A chart that keeps sending itself events never hangs the driver: one input (the start, an
/// event, or a stretch of time) handles at most ``maxEventsPerInput`` events, then stops with
/// ``ChartDriverError/tooManyEvents(limit:input:states:)``.
struct ChartDriver {
  /// The most events one input may cause, by default: sends without delay handled after it,
  /// and, while time passes, delayed sends falling due.
  static let defaultMaxEventsPerInput = 10_000

  typealias DocumentChart = SCXMLDocument.DocumentChart

  private(set) var machine: ChartMachine<String, String, NoContext, String>
  /// Milliseconds of virtual time so far.
  private(set) var now: Duration = .zero
  private var external: [String] = []
  private var pending: [(due: Duration, sequence: Int, event: String, id: String?)] = []
  private var sequence = 0
  /// Effects (logs) in the order they ran.
  private(set) var effects: [String] = []

  /// The bound on events per input (see the type's summary).
  let maxEventsPerInput: Int
  /// Events handled since the current input began.
  private var handled = 0
  /// The current input, for the error.
  private var input = "(start)"

  init(_ chart: DocumentChart, maxEventsPerInput: Int = Self.defaultMaxEventsPerInput) {
    machine = ChartMachine(chart, context: NoContext())
    self.maxEventsPerInput = maxEventsPerInput
  }

  /// The active atomic states, sorted by id.
  var configuration: [String] { machine.configuration.sorted() }

  /// Starts the chart and runs its first macrostep; queued sends wait for ``drain()``.
  mutating func start() throws(ChartDriverError) {
    begin("(start)")
    do { take(try machine.start()) } catch { throw .run(error) }
  }

  /// One external event (an input) and its macrostep.
  @discardableResult
  mutating func send(_ event: String) throws(ChartDriverError) -> ChartStep<String, String> {
    begin(event)
    return try handle(event)
  }

  private mutating func begin(_ input: String) {
    (handled, self.input) = (0, input)
  }

  /// One event of the current input.
  @discardableResult
  private mutating func handle(_ event: String) throws(ChartDriverError) -> ChartStep<String, String> {
    handled += 1
    // The input's own event, then at most `maxEventsPerInput` that it causes.
    guard handled <= maxEventsPerInput + 1 else {
      throw .tooManyEvents(limit: maxEventsPerInput, input: input, states: machine.configuration)
    }
    let step: ChartStep<String, String>
    do { step = try machine.send(event) } catch { throw .run(error) }
    take(step)
    return step
  }

  /// Handles the events waiting on the external queue, each with its macrostep.
  mutating func drain() throws(ChartDriverError) {
    while !external.isEmpty, !machine.isHalted { try handle(external.removeFirst()) }
    external.removeAll()
  }

  /// Lets `duration` pass (an input): delayed sends fall due in order (due time, then the
  /// order they were sent), each handled with the queue it leaves behind.
  mutating func advance(by duration: Duration) throws(ChartDriverError) {
    begin("after \(duration)")
    let end = now + duration
    try drain()
    while let next = pending.indices.min(by: { (pending[$0].due, pending[$0].sequence) < (pending[$1].due, pending[$1].sequence) }),
      pending[next].due <= end
    {
      let fired = pending.remove(at: next)
      now = fired.due
      try handle(fired.event)
      try drain()
    }
    now = end
  }

  private mutating func take(_ step: ChartStep<String, String>) {
    for output in step.outputs {
      switch output {
      case .effect(let effect): effects.append(effect)
      case .send(let event, let delay, let id):
        if delay <= .zero {
          external.append(event)
        } else {
          sequence += 1
          if let id { pending.removeAll { $0.id == id } }
          pending.append((now + delay, sequence, event, id))
        }
      case .cancel(let id): pending.removeAll { $0.id == id }
      }
    }
  }
}

/// Why the driver stopped.
enum ChartDriverError: Error, CustomStringConvertible {
  /// A macrostep did not settle.
  case run(ChartRunError)
  /// One input caused more than `limit` events: the chart keeps sending itself events.
  case tooManyEvents(limit: Int, input: String, states: [String])

  var description: String {
    switch self {
    case .run(let error): error.description
    case .tooManyEvents(let limit, let input, let states):
      "'\(input)' caused more than \(limit) events (the chart keeps sending itself events; the bound is \(limit) events per input); active: \(states.joined(separator: ", "))"
    }
  }
}
