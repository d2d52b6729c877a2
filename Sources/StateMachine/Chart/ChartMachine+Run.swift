extension ChartMachine {
  /// What one macrostep collects: its outputs (in the machine's reused buffer), and what a
  /// machine that reports, tracks owners or records a plan also needs (only then).
  @usableFromInline
  struct Run {
    @usableFromInline var outputs: [Output]
    @usableFromInline var microsteps = 0
    /// The content running now belongs to the external event's microstep.
    @usableFromInline var external = false
    /// What the macrostep reports beyond its outputs; `nil` when nobody asked.
    @usableFromInline var trace: Trace?
    /// The plan of this macrostep being recorded, when it is (a run that records nothing
    /// carries none). Boxed, as the trace is, so a run is a few words to pass around.
    @usableFromInline var plan: Box<ChartPlan<Event, Context, Effect>>?

    /// Whether a plan is being recorded.
    @inlinable var recording: Bool { plan != nil }
    /// Whether outputs' owners and exited states are reported.
    @inlinable var tracking: Bool { trace?.tracking ?? false }

    @inlinable
    init(outputs: [Output], trace: Bool, tracking: Bool, recording: Bool) {
      self.outputs = outputs
      if trace || tracking || recording { self.trace = Trace(tracking: tracking) }
      if recording { plan = Box(ChartPlan()) }
    }

    @inlinable
    mutating func output(_ output: Output, owner: Int) {
      outputs.append(output)
      if let trace, trace.tracking { trace.owners.append(owner) }
    }

    /// A state was exited (kept when tracking or recording).
    @inlinable
    mutating func exited(_ state: Int) {
      trace?.exits.append(ChartExit(state: state, output: outputs.count))
    }
  }

  /// What a macrostep reports beyond its outputs.
  @usableFromInline
  final class Trace {
    /// Per output, the state it belongs to (when tracking).
    @usableFromInline var owners: [Int] = []
    /// States exited, in order, each with how many outputs came before.
    @usableFromInline var exits: [ChartExit] = []
    /// Transitions taken, in order.
    @usableFromInline var taken: [Int] = []
    /// States entered, in order (positions in `chart.states`).
    @usableFromInline var entered: [Int] = []
    /// Owners and exits are reported.
    @usableFromInline let tracking: Bool

    @inlinable
    init(tracking: Bool) { self.tracking = tracking }
  }

  /// A run for the next macrostep: it writes into the machine's output buffer (taken out of
  /// the machine, so it is not shared while it grows; the caller of the last step no longer
  /// holding it, it is reused without allocating).
  @inlinable
  mutating func makeRun(recording: Bool) -> Run {
    var outputs: [Output] = []
    swap(&outputs, &outputBuffer)
    if !outputs.isEmpty { outputs.removeAll(keepingCapacity: true) }
    return Run(outputs: outputs, trace: reporting, tracking: tracksOwners, recording: recording)
  }

  /// The step a run made; the run's output buffer goes back to the machine.
  @inlinable
  mutating func step(of run: Run) -> ChartStep<Event, Effect> {
    outputBuffer = run.outputs
    guard let trace = run.trace, reporting || tracksOwners else {
      return ChartStep(outcome: .transitioned, outputs: run.outputs, microsteps: run.microsteps)
    }
    return ChartStep(
      outcome: .transitioned, outputs: run.outputs, microsteps: run.microsteps,
      trace: ChartTrace(
        transitions: reporting ? trace.taken : [], entered: reporting ? trace.entered : [], owners: trace.owners, exits: trace.exits))
  }
}

/// A value behind a reference: a large value that is rarely there costs one word where it is not.
@usableFromInline
final class Box<Value> {
  @usableFromInline var value: Value

  @inlinable
  init(_ value: Value) { self.value = value }
}
