import Foundation
import StateMachine

/// Makes something shipped — a table, a chart, a store over a chart — whose validity the tests
/// cover: a failure is a bug in this package, reported with what went wrong.
func shipped<Value, Failure: Error>(_ what: String, _ make: () throws(Failure) -> Value) -> Value {
  do {
    return try make()
  } catch {
    fatalError("a shipped \(what) is invalid: \(error)")
  }
}

/// Builds a shipped table.
func build<State, Event, Context, Effect>(_ make: () throws -> TransitionTable<State, Event, Context, Effect>) -> TransitionTable<State, Event, Context, Effect> {
  shipped("table", make)
}

/// Builds a shipped chart.
func buildChart<ID, Event, Context, Effect>(_ make: () throws -> Chart<ID, Event, Context, Effect>) -> Chart<ID, Event, Context, Effect> {
  shipped("chart", make)
}

/// Starts a store over a shipped chart, whose first macrostep the tests prove settles.
func shippedChartStore<Definition>(_ make: () throws(ChartRunError) -> Store<Definition>) -> Store<Definition> {
  shipped("chart's store", make)
}

/// A string as a Swift literal, for event and work descriptions.
func quoted(_ text: String) -> String {
  "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

/// A coding key made from any string.
struct AnyCodingKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(_ name: String) { stringValue = name }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// The fields of one payload case, read by name — or by `_0`, the key logs written before the
/// examples' payloads were named used for their single value.
struct PayloadFields {
  let fields: KeyedDecodingContainer<AnyCodingKey>?

  func callAsFunction<T: Decodable>(_ name: String) throws -> T {
    guard let fields else {
      throw DecodingError.keyNotFound(AnyCodingKey(name), .init(codingPath: [], debugDescription: "the case has no fields"))
    }
    if let value = try fields.decodeIfPresent(T.self, forKey: AnyCodingKey(name)) { return value }
    return try fields.decode(T.self, forKey: AnyCodingKey("_0"))
  }
}

/// Decodes an enum the way Swift encodes it, `{"case": {"field": value}}`, accepting `_0` for a
/// named single field too: what an event log from an earlier version holds.
func decodeCase<Value>(_ decoder: any Decoder, _ cases: [String: (PayloadFields) throws -> Value]) throws -> Value {
  let container = try decoder.container(keyedBy: AnyCodingKey.self)
  guard container.allKeys.count == 1, let key = container.allKeys.first else {
    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected an object with one key, the case"))
  }
  guard let make = cases[key.stringValue] else {
    throw DecodingError.dataCorrupted(.init(
      codingPath: decoder.codingPath + [key],
      debugDescription: "unknown case '\(key.stringValue)'; expected one of: \(cases.keys.sorted().joined(separator: ", "))"))
  }
  let fields = try? container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
  return try make(PayloadFields(fields: fields))
}
