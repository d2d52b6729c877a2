extension ChartMachine {
  /// What one macrostep collects: its outputs, with their owners and the states exited when the
  /// machine tracks owners (all in the machine's reused buffers), and what a machine that
  /// reports transitions also needs.
  @usableFromInline
  struct Run {
    @usableFromInline var outputs: [Output]
    @usableFromInline var microsteps = 0
    /// Whether outputs' owners and exited states are kept.
    @usableFromInline let tracking: Bool
    /// Per output, the state it belongs to (when tracking).
    @usableFromInline var owners: [Int]
    /// States exited, in order, each with how many outputs came before (when tracking).
    @usableFromInline var exits: [ChartExit]
    /// The transitions taken and states entered, when the machine reports them.
    @usableFromInline var trace: Trace?

    @inlinable
    init(outputs: [Output], owners: [Int], exits: [ChartExit], tracking: Bool, reporting: Bool) {
      (self.outputs, self.owners, self.exits, self.tracking) = (outputs, owners, exits, tracking)
      if reporting { trace = Trace() }
    }

    @inlinable
    mutating func output(_ output: Output, owner: Int) {
      outputs.append(output)
      if tracking { owners.append(owner) }
    }

    /// A state was exited (kept when tracking).
    @inlinable
    mutating func exited(_ state: Int) {
      if tracking { exits.append(ChartExit(state: state, output: outputs.count)) }
    }
  }

  /// The transitions a macrostep took and the states it entered (a class: a run of a machine
  /// that does not report them is a few words).
  @usableFromInline
  final class Trace {
    /// Transitions taken, in order.
    @usableFromInline var taken: [Int] = []
    /// States entered, in order (positions in `chart.states`).
    @usableFromInline var entered: [Int] = []

    @inlinable
    init() {}
  }

  /// A run for the next macrostep: it writes into the machine's buffers, taken out of the
  /// machine so they are not shared while they grow (once the caller of the last step no longer
  /// holds them, they are reused without allocating).
  @inlinable
  mutating func makeRun() -> Run {
    var outputs: [Output] = []
    swap(&outputs, &outputBuffer)
    if !outputs.isEmpty { outputs.removeAll(keepingCapacity: true) }
    guard tracksOwners else { return Run(outputs: outputs, owners: [], exits: [], tracking: false, reporting: reporting) }
    var owners: [Int] = []
    var exits: [ChartExit] = []
    swap(&owners, &lastOwners)
    swap(&exits, &exitBuffer)
    quickExits = -1
    if !owners.isEmpty { owners.removeAll(keepingCapacity: true) }
    if !exits.isEmpty { exits.removeAll(keepingCapacity: true) }
    return Run(outputs: outputs, owners: owners, exits: exits, tracking: true, reporting: reporting)
  }

  /// The step a run made; the run's buffers go back to the machine (a tracking machine's owners
  /// and exits stay there, in ``lastOwners`` and ``exitBuffer``, for its store to read).
  @inlinable
  mutating func step(of run: Run) -> ChartStep<Event, Effect> {
    outputBuffer = run.outputs
    if run.tracking { (lastOwners, exitBuffer) = (run.owners, run.exits) }
    guard let trace = run.trace else { return ChartStep(outcome: .transitioned, outputs: run.outputs, microsteps: run.microsteps) }
    return ChartStep(
      outcome: .transitioned, outputs: run.outputs, microsteps: run.microsteps,
      trace: ChartTrace(transitions: trace.taken, entered: trace.entered))
  }
}
