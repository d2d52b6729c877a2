import StateMachine

/// Runs a document chart the way an SCXML processor's event loop does, on a virtual clock: an
/// external queue (sends without delay wait there until the current macrostep ends) and
/// delayed sends due on the clock, cancellable by id. Used by `fsm conform` and `fsm run`.
struct ChartDriver {
  typealias DocumentChart = SCXMLDocument.DocumentChart

  private(set) var machine: ChartMachine<String, String, NoContext, String>
  /// Milliseconds of virtual time so far.
  private(set) var now: Duration = .zero
  private var external: [String] = []
  private var pending: [(due: Duration, sequence: Int, event: String, id: String?)] = []
  private var sequence = 0
  /// Effects (logs) in the order they ran.
  private(set) var effects: [String] = []

  init(_ chart: DocumentChart) { machine = ChartMachine(chart, context: NoContext()) }

  /// The active atomic states, sorted by id.
  var configuration: [String] { machine.configuration.sorted() }

  /// Starts the chart and runs its first macrostep; queued sends wait for ``drain()``.
  mutating func start() throws(ChartRunError) { take(try machine.start()) }

  /// One external event and its macrostep.
  @discardableResult
  mutating func send(_ event: String) throws(ChartRunError) -> ChartStep<String, String> {
    let step = try machine.send(event)
    take(step)
    return step
  }

  /// Handles the events waiting on the external queue, each with its macrostep.
  mutating func drain() throws(ChartRunError) {
    while !external.isEmpty, !machine.isHalted { try send(external.removeFirst()) }
    external.removeAll()
  }

  /// Lets `duration` pass: delayed sends fall due in order (due time, then the order they were
  /// sent), each handled with the queue it leaves behind.
  mutating func advance(by duration: Duration) throws(ChartRunError) {
    let end = now + duration
    try drain()
    while let next = pending.indices.min(by: { (pending[$0].due, pending[$0].sequence) < (pending[$1].due, pending[$1].sequence) }),
      pending[next].due <= end
    {
      let fired = pending.remove(at: next)
      now = fired.due
      external.append(fired.event)
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
