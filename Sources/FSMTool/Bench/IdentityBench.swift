import FSMCommand
import Foundation
@_spi(Reference) import StateMachine
import StateMachineChecking
import StateMachineExamples

/// The long version of the tests' identity check (`CompiledStepTests`): each shipped chart and
/// the bench's charts stepped by their compiled steps and by the SCXML algorithm alone, side by
/// side on seeded random events from their own alphabets, comparing outcome, outputs,
/// configuration, history, context and halting after every macrostep. A difference makes the
/// variant's checksum differ, which fails the bench; the figure is the pair's ns per event.
enum IdentityBench {
  /// Steps `chart` both ways through `events`; returns `events.count`, or minus the position
  /// (from 1) of the first step that differs.
  static func compare<ID, E, C: Equatable, Eff>(_ chart: Chart<ID, E, C, Eff>, context: C, _ events: [E]) -> Int {
    func fresh() -> (ChartMachine<ID, E, C, Eff>, ChartMachine<ID, E, C, Eff>) {
      var reference = ChartMachine(chart, context: context)
      reference.usesCompiledSteps = false
      return (ChartMachine(chart, context: context), reference)
    }
    var (compiled, reference) = fresh()
    guard (try? compiled.start()) != nil, (try? reference.start()) != nil else { return -1 }
    for (n, event) in events.enumerated() {
      if compiled.isHalted, reference.isHalted {
        (compiled, reference) = fresh()
        guard (try? compiled.start()) != nil, (try? reference.start()) != nil else { return -(n + 1) }
      }
      let a = Result { () throws(ChartRunError) in try compiled.send(event) }
      let b = Result { () throws(ChartRunError) in try reference.send(event) }
      let same: Bool
      switch (a, b) {
      case (.success(let x), .success(let y)):
        same = x.outcome == y.outcome && x.microsteps == y.microsteps && "\(x.outputs)" == "\(y.outputs)"
      case (.failure(let x), .failure(let y)): same = x == y
      default: same = false
      }
      guard same, compiled.configuration == reference.configuration, compiled.historyValues == reference.historyValues,
        compiled.context == reference.context, compiled.isHalted == reference.isHalted
      else { return -(n + 1) }
    }
    return events.count
  }

  static func workload(count: Int) -> BenchWorkload {
    let loader = ShippedBench.events(Loader.model.alphabet, count: count, seed: 15)
    let phoneLogin = ShippedBench.events(PhoneLogin.model.alphabet, count: count, seed: 16)
    let radio = ShippedBench.events(Radio.model.alphabet, count: count, seed: 17)
    let easy = ShippedBench.events([ChartBench.Input.x, .y, .z], count: count, seed: 18)
    let parallel = ShippedBench.events([ChartBench.Input.x1, .y1, .x2, .y2, .z], count: count, seed: 19)
    let compound = ChartBench.compound() as ChartBench.BenchChart
    let twoRegions = ChartBench.parallel() as ChartBench.BenchChart
    return BenchWorkload(
      name: "identity", events: count,
      variants: [
        BenchVariant(name: "chart loader, compiled and algorithm") { compare(Loader.model.definition, context: Loader.model.context, loader) },
        BenchVariant(name: "chart phone-login, compiled and algorithm") {
          compare(PhoneLogin.model.definition, context: PhoneLogin.model.context, phoneLogin)
        },
        BenchVariant(name: "chart radio, compiled and algorithm") { compare(Radio.model.definition, context: Radio.model.context, radio) },
        BenchVariant(name: "bench-compound, compiled and algorithm") { compare(compound, context: NoContext(), easy) },
        BenchVariant(name: "bench-parallel, compiled and algorithm") { compare(twoRegions, context: NoContext(), parallel) },
      ])
  }
}
