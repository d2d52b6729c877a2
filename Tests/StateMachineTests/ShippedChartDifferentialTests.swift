import Foundation
import StateMachine
import StateMachineChecking
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
    let exported = try Radio.chart.scxml()
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

  @Test("phone-login: 10,000 random sequences through the chart read back from its export, bound to its Swift code")
  func phoneLogin() throws {
    try Self.roundTrip(PhoneLogin.chart, context: PhoneLogin.Context(), alphabet: PhoneLogin.model.alphabet, seed: 1)
  }

  @Test("loader: 10,000 random sequences through the chart read back from its export, bound to its Swift code")
  func loader() throws {
    try Self.roundTrip(Loader.chart, context: Loader.Context(), alphabet: Loader.model.alphabet, seed: 2)
  }

  /// `chart` and the chart read from its own SCXML export with its ``Chart/scxmlBindings``: the
  /// same configurations, history, context and effects after every event of random sequences.
  static func roundTrip<ID, Event: Discriminated, Context: Equatable, Effect>(
    _ chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event], seed: UInt64,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let exported = try chart.scxml()
    #expect(!exported.contains("<!--"), "every guard, update and make is named: nothing is left out", sourceLocation: sourceLocation)
    let back = try Chart(scxml: Data(exported.utf8), file: "\(chart.name).scxml", bindings: chart.scxmlBindings)
    #expect(try back.scxml() == exported, "the chart read back exports the same document", sourceLocation: sourceLocation)
    var random = SplitMix64(seed: seed)
    var checked = 0
    for _ in 0..<sequences {
      var typed = ChartMachine(chart, context: context)
      var read = ChartMachine(back, context: context)
      #expect(try typed.start().effects.map { "\($0)" } == read.start().effects.map { "\($0)" }, sourceLocation: sourceLocation)
      for _ in 0..<length {
        let event = alphabet[Int(random.next() % UInt64(alphabet.count))]
        let a = try typed.send(event)
        let b = try read.send(event)
        guard a.effects.map({ "\($0)" }) == b.effects.map({ "\($0)" }), typed.configuration == read.configuration,
          typed.context == read.context, typed.historyValues == read.historyValues
        else {
          Issue.record(
            "after \(event): \(typed.configuration) \(a.effects) vs \(read.configuration) \(b.effects)", sourceLocation: sourceLocation)
          return
        }
        checked += 1
      }
    }
    #expect(checked == sequences * length, sourceLocation: sourceLocation)
  }
}
