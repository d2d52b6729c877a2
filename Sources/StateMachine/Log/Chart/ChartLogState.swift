import Foundation

/// What an event log keeps as a chart's state: its configuration (the active atomic states),
/// what its history states remember (when they remember anything) and whether it halted. It is
/// the `State` of a chart's ``EventLog``, so logs of charts are read, streamed and replayed
/// like logs of tables.
///
/// ```json
/// {"configuration":["playing","loud"],"history":{"resume":["playing","loud"]}}
/// ```
public struct ChartLogState<ID: Hashable & Sendable>: Hashable, Sendable, Discriminated {
  /// The active atomic states, in document order.
  public var configuration: [ID]
  /// History state → the states it remembers (empty: none yet).
  public var history: [ID: [ID]]
  /// The chart halted (a final child of its root was entered).
  public var isHalted: Bool

  /// A logged state of these active atomic states and history values.
  @inlinable
  public init(configuration: [ID], history: [ID: [ID]] = [:], isHalted: Bool = false) {
    (self.configuration, self.history, self.isHalted) = (configuration, history, isHalted)
  }

  /// The state of `machine`.
  @inlinable
  package init<Event, Context, Effect>(_ machine: ChartMachine<ID, Event, Context, Effect>) {
    self.init(configuration: machine.configuration, history: machine.historyValues, isHalted: machine.isHalted)
  }

  /// Equal states: the same configuration, history and halting (written out so that a replay
  /// compares them specialised where it runs).
  @inlinable
  public static func == (a: Self, b: Self) -> Bool {
    a.isHalted == b.isHalted && a.configuration == b.configuration
      && (a.history.isEmpty ? b.history.isEmpty : a.history == b.history)
  }

  /// Hashes what `==` compares (written out, as `==` is, so that a recorder's cache of encoded
  /// states hashes it specialised).
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(configuration)
    hasher.combine(isHalted)
    if !history.isEmpty { hasher.combine(history) }
  }

}

/// Written as `{"configuration":[…],"history":{…},"halted":true}`, the history and halting only
/// when there is some.
extension ChartLogState: Codable where ID: Codable {
  enum CodingKeys: String, CodingKey { case configuration, history, halted }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    configuration = try container.decode([ID].self, forKey: .configuration)
    history = try container.decodeIfPresent([ID: [ID]].self, forKey: .history) ?? [:]
    isHalted = try container.decodeIfPresent(Bool.self, forKey: .halted) ?? false
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(configuration, forKey: .configuration)
    if !history.isEmpty { try container.encode(history, forKey: .history) }
    if isHalted { try container.encode(true, forKey: .halted) }
  }
}

extension ChartLogState: CustomStringConvertible {
  /// `[playing, loud]`, with the history when there is one: `[off] history resume=[playing, loud]`.
  public var description: String {
    let states = "[" + configuration.map { "\($0)" }.joined(separator: ", ") + "]"
    let remembered = history.map { key, value in "\(key)=[" + value.map { "\($0)" }.joined(separator: ", ") + "]" }.sorted()
    return states + (remembered.isEmpty ? "" : " history " + remembered.joined(separator: " ")) + (isHalted ? " (halted)" : "")
  }
}

extension Chart {
  /// A fingerprint of the chart's declared behaviour (FNV-1a over its Markdown spec): a log
  /// records it, so replaying against a changed chart is detected.
  public var fingerprint: String { fingerprintHex(of: markdown()) }
}
