import StateMachine
import StateMachineChecking
import StateMachineExamples
import Testing

@testable import FSMTool

/// The bench's flat chart of the captcha is the captcha table written again: what `fsm bench
/// --workload chart-explore` compares, a chart against a table of its size, holds only if the
/// two are the same machine.
@Suite("The captcha as a flat chart (bench)")
struct CaptchaChartTests {
  /// The seeds of the walks (each names its case).
  static let seeds: [UInt64] = [1, 42, 2026]

  @Test("after every event of a random walk, the chart is in the table's state with its context", arguments: seeds)
  func sameMachine(seed: UInt64) throws {
    var table = Machine(Captcha.table, context: Captcha.Context())
    var chart = ChartMachine(CaptchaChart.chart, context: Captcha.Context())
    try chart.begin()
    var random = SplitMix64(seed: seed)
    let alphabet = Captcha.model.alphabet
    for step in 0..<2_000 {
      let event = alphabet[Int(random.next() % UInt64(alphabet.count))]
      table.send(event)
      _ = try chart.step(event)
      try #require(chart.configuration == [table.state], "step \(step), \(event)")
      try #require(chart.context == table.context, "step \(step), \(event)")
    }
  }

  @Test("explored on the captcha model's alphabet, both reach the same configurations")
  func sameSpace() {
    let alphabet = Captcha.model.alphabet
    let table = Explorer(table: Captcha.table, context: Captcha.Context(), alphabet: alphabet).explore(depth: 200)
    let chart = Explorer(chart: CaptchaChart.chart, context: Captcha.Context(), alphabet: alphabet).explore(depth: 200)
    #expect(table.configurations > 100)
    #expect(chart.configurations == table.configurations)
  }
}
