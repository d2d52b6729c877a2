import Foundation
import StateMachine
import StateMachineExamples
import Testing

/// A shipped chart and the chart read back from its own SCXML export behave the same: random
/// event sequences give the same configurations and effects (as text) after every event.
@Suite("Shipped charts against their own SCXML export")
struct ShippedChartDifferentialTests {
  static let sequences = 10_000
  static let length = 24

  @Test("radio: 10,000 random sequences, the same configurations and effects")
  func radio() throws {
    let exported = Radio.chart.scxml()
    #expect(!exported.contains("<!--"), "the radio needs no datamodel: nothing is left out of its export")
    let back = try SCXMLDocument.parse(Data(exported.utf8), file: "radio.scxml")
    let events = Radio.Event.allCases
    var random = SplitMix64(seed: 20261122)
    var checked = 0
    for _ in 0..<Self.sequences {
      var typed = ChartMachine(Radio.chart, context: NoContext())
      var read = ChartMachine(back, context: NoContext())
      #expect(try typed.start().effects.map { "\($0)" } == read.start().effects)
      for _ in 0..<Self.length {
        let event = events[Int(random.next() % UInt64(events.count))]
        let a = try typed.send(event)
        let b = try read.send(event.rawValue)
        guard a.effects.map({ "\($0)" }) == b.effects, typed.configuration.map(\.rawValue) == read.configuration,
          Dictionary(uniqueKeysWithValues: typed.historyValues.map { ($0.key.rawValue, $0.value.map(\.rawValue)) })
            == read.historyValues
        else {
          Issue.record("after \(event): \(typed.configuration) \(a.effects) vs \(read.configuration) \(b.effects)")
          return
        }
        checked += 1
      }
    }
    #expect(checked == Self.sequences * Self.length)
  }
}
