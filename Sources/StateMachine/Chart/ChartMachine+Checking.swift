/// What the checking tools read of a machine (through the chart's explorer, `_ChartExplorer`,
/// and its walks): a step that says only whether it moved, and coverage gathered as bits while
/// it steps. Internal: the kinds' explorers are in this module.

extension ChartMachine {
  /// The machine started, at these active states, history (`nil`: none), context and halting,
  /// in compiled node `node` (-1: found on the next step): what a checker's position and a
  /// store's engine put back. A machine without history is not written one.
  @inlinable
  mutating func place(active: StateBits, history: [Int: [Int]]?, context: Context, halted: Bool, node: Int32) {
    // (A chart without history states is not written an empty one: a retain and release.)
    if let history {
      if !(history.isEmpty && self.history.isEmpty) { self.history = history }
    } else if !self.history.isEmpty {
      self.history = [:]
    }
    (self.active, storedContext, contextWritten) = (active, context, false)
    (self.halted, started, self.node) = (halted, true, node)
  }
}

extension ChartMachine {
  /// ``send(_:ordinal:)`` without the step: whether the macrostep took transitions (`false`:
  /// unhandled, or halted). For a checker that reads the machine after the step and nothing of
  /// the step itself.
  @inlinable
  mutating func _advance(_ event: Event, ordinal: Int) throws(ChartRunError) -> Bool {
    if node >= 0, ordinal >= 0, !reporting {
      if let moved = quickMove(ordinal: ordinal) { return moved }
      if let moved = try directAdvance(event, ordinal: ordinal) { return moved }
    }
    return try advance(event, ordinal: ordinal)
  }

  /// Starts gathering coverage: from now on (``start()`` included), every transition taken and
  /// state entered, over all macrosteps, in ``_coveredTransitions`` and ``_keepCoverage()``.
  /// Copies of the machine share what they gather.
  mutating func _gatherCoverage() {
    reporting = false
    coverage = Trace(states: chart.count, transitions: chart.sources.count)
  }

  /// The transitions taken since ``_gatherCoverage()``, as ``Chart/declaredTransitions``
  /// numbers them, in increasing order.
  var _coveredTransitions: [Int] { coverage?.coverage.taken ?? [] }

  /// Whether the last steps covered anything for the first time (since the coverage was
  /// last kept or dropped).
  @inlinable
  var _coverageGrew: Bool { coverage?.coverage.grew ?? false }

  /// Keeps what the steps since the last keep or drop covered (call it after each step that
  /// settled), and returns the states (positions in ``Chart/states``) they entered for the
  /// first time, in the order they were entered.
  @inlinable
  mutating func _keepCoverage() -> [Int] { coverage?.coverage.keep() ?? [] }

  /// Takes back what the steps since the last keep or drop covered: a macrostep that did not
  /// settle (``ChartRunError``) covers nothing.
  @inlinable
  mutating func _dropCoverage() { coverage?.coverage.drop() }
}

extension ChartMachine {
  /// A quick step in `slot` (see ``quickStep(ordinal:)``) took the one transition its selection
  /// holds and entered what its move enters.
  @usableFromInline
  func cover(quickSlot slot: Int, in trace: Trace) {
    let t = compiledStorage.steps.sole[Int(compiledStorage.steps.byOrdinal[slot])]
    if t >= 0 { trace.took(Int(t)) }
    let move = compiledStorage.steps.moves[Int(compiledStorage.steps.quickMoves[slot])]
    for op in compiledStorage.steps.program[Int(move.programStart)..<Int(move.programEnd)] where op.kind == .entered {
      trace.enter(Int(op.a) - 1)
    }
  }
}
