/// A chart's start: the first macrostep, through the compiled steps as the steps after it (the
/// initial transition is a move from the empty configuration), or by the algorithm, the
/// reference.
extension ChartMachine {
  /// Enters the chart's initial states and runs the first macrostep.
  ///
  /// (Inlinable: the start runs specialised for your types where you call it, through the
  /// compiled steps, as the steps after it do.)
  @inlinable
  public mutating func start() throws(ChartRunError) -> ChartStep<Event, Effect> {
    guard !started else { return ChartStep(outcome: .unhandled, outputs: [], microsteps: 0) }
    started = true
    var run = makeRun()
    node = -1
    enterInitial(&run)
    try settle(&run)
    return step(of: &run)
  }

  /// Takes the chart's initial transition (its content, then the states it enters), as the
  /// start of the algorithm does: compiled when the machine compiles its steps (a move from the
  /// empty configuration, learnt once per chart), else by the algorithm.
  @inlinable
  mutating func enterInitial(_ run: inout Run) {
    if compiles {
      let known = compiledStorage.steps.startMove
      if let m = known >= 0 ? known : moveIndex(currentNode(), [chart.defaultTransition[0]]) {
        runMove(Int(m), value: nil, &run)
        return
      }
    }
    enterInitialByAlgorithm(&run)
  }

  /// ``enterInitial(_:)`` by the algorithm alone (the reference; a chart whose compiled steps
  /// are full).
  @usableFromInline
  mutating func enterInitialByAlgorithm(_ run: inout Run) {
    node = -1
    execute(chart.tables.transitionBlocks[chart.defaultTransition[0]], value: nil, owner: 0, &run)
    enterStates([chart.defaultTransition[0]], &run)
  }
}
