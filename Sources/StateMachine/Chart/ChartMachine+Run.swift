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
    init(outputs: [Output], owners: [Int], exits: [ChartExit], tracking: Bool, reporting: Bool, coverage: Trace?) {
      (self.outputs, self.owners, self.exits, self.tracking) = (outputs, owners, exits, tracking)
      // A reporting machine's step gets a trace of its own; coverage gathers across macrosteps.
      trace = reporting ? Trace() : coverage
    }

    @inlinable
    mutating func output(_ output: consuming Output, owner: Int) {
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
  ///
  /// An accumulating trace (coverage, for checking tools) gathers them as bits over every
  /// macrostep instead, and lists what it covered for the first time until that is kept or
  /// dropped (a macrostep that did not settle covers nothing).
  ///
  /// `@unchecked Sendable`: a step's own trace belongs to that step; an accumulating one is
  /// written by the machine's steps, and is set only through the underscored checker API
  /// (``ChartMachine/_gatherCoverage()``) by a checker that keeps the machine, and every copy of
  /// it, on its own thread.
  @usableFromInline
  final class Trace: @unchecked Sendable {
    /// Transitions taken, in order.
    @usableFromInline var taken: [Int] = []
    /// States entered, in order (positions in `chart.states`).
    @usableFromInline var entered: [Int] = []
    /// Whether this trace gathers coverage across macrosteps (as bits).
    @usableFromInline let accumulates: Bool
    /// When accumulating: what was covered, as bits. (Unchecked exclusivity: a trace is written
    /// by the one run holding it at a time.)
    @exclusivity(unchecked) @usableFromInline var coverage: CoverageBits

    @inlinable
    init() {
      accumulates = false
      coverage = CoverageBits(states: 0, transitions: 0)
    }

    /// An accumulating trace for a chart of `states` states and `transitions` transitions.
    init(states: Int, transitions: Int) {
      accumulates = true
      coverage = CoverageBits(states: states, transitions: transitions)
    }

    /// Transitions `enabled` were taken together.
    @inlinable
    func took(_ enabled: [Int]) {
      guard accumulates else {
        taken += enabled
        return
      }
      for t in enabled { coverage.took(t) }
    }

    /// Transition `t` was taken alone (a quick step's: no array made for it).
    @inlinable
    func took(_ t: Int) {
      if accumulates { coverage.took(t) } else { taken.append(t) }
    }

    /// State `s` (a position in `chart.states`) was entered.
    @inlinable
    func enter(_ s: Int) {
      guard accumulates else {
        entered.append(s)
        return
      }
      coverage.enter(s)
    }
  }

  /// A run for the next macrostep: it writes into the machine's buffers, taken out of the
  /// machine so they are not shared while they grow (once the caller of the last step no longer
  /// holds them, they are reused without allocating).
  @inlinable
  mutating func makeRun() -> Run {
    var outputs: [Output] = []
    swap(&outputs, &outputBuffer)
    outputs.clear()
    guard tracksOwners else { return Run(outputs: outputs, owners: [], exits: [], tracking: false, reporting: reporting, coverage: coverage) }
    var owners: [Int] = []
    var exits: [ChartExit] = []
    swap(&owners, &lastOwners)
    swap(&exits, &exitBuffer)
    quickExits = -1
    owners.clear()
    exits.clear()
    return Run(outputs: outputs, owners: owners, exits: exits, tracking: true, reporting: reporting, coverage: coverage)
  }

  /// A machine that makes no outputs and tracks no owners needs none of the reused buffers:
  /// its checkers' runs start empty and hand nothing back.
  @inlinable
  var isLean: Bool { discardsOutputs && !tracksOwners }

  /// A run for the next macrostep: an empty one when `lean` (see ``isLean``), else one over the
  /// machine's buffers (``makeRun()``).
  @inlinable
  mutating func makeRun(lean: Bool) -> Run {
    lean ? Run(outputs: [], owners: [], exits: [], tracking: false, reporting: reporting, coverage: coverage) : makeRun()
  }

  /// The step a run made; the run's buffers go back to the machine (a tracking machine's owners
  /// and exits stay there, in ``lastOwners`` and ``exitBuffer``, for its store to read).
  @inlinable
  mutating func step(of run: inout Run) -> ChartStep<Event, Effect> {
    keepBuffers(of: &run)
    // A step without outputs does not share the machine's buffer (most steps: nothing to
    // retain, and nothing to make unique again before the next one).
    let outputs = outputBuffer.isEmpty ? [] : outputBuffer
    guard let trace = run.trace, !trace.accumulates else { return ChartStep(outcome: .transitioned, outputs: outputs, microsteps: run.microsteps) }
    return ChartStep(
      outcome: .transitioned, outputs: outputs, microsteps: run.microsteps,
      trace: ChartTrace(transitions: trace.taken, entered: trace.entered))
  }

  /// The run's buffers go back to the machine (swapped in: nothing retained), to be reused by
  /// the next macrostep.
  @inlinable
  mutating func keepBuffers(of run: inout Run) {
    swap(&outputBuffer, &run.outputs)
    if run.tracking {
      swap(&lastOwners, &run.owners)
      swap(&exitBuffer, &run.exits)
    }
  }
}
