/// An event of a chart whose content a datamodel runs (an SCXML document with
/// `datamodel="ecmascript"`): its name, as transitions match it, and what SCXML's `_event`
/// holds beside it (the recommendation's section 5.10.1).
///
/// ```swift
/// store.send(SCXMLEvent("tick"))
/// store.send(SCXMLEvent("loaded", data: #"{"page": 2, "users": ["ada"]}"#))
/// ```
///
/// Its discriminant is its name: a log names each entry's event by it.
public struct SCXMLEvent: Hashable, Sendable, Codable, Discriminated, CustomStringConvertible {
  /// Where an event came from (`_event.type`).
  public enum Kind: String, Hashable, Sendable, Codable {
    /// A done or error event the processor raised.
    case platform
    /// One the chart raised (`<raise>`, `<send target="#_internal">`).
    case `internal`
    /// One sent to the chart from outside, or by a `<send>`.
    case external
  }

  /// The name, as transitions match it (`done.state.s1`, `tick`).
  public var name: String
  /// Where it came from: `platform` (done and error events), `internal` (`<raise>`,
  /// `<send target="#_internal">`) or `external`.
  public var type: Kind
  /// The id of the `<send>` that sent it, when it had one.
  public var sendid: String?
  /// Where a reply goes (`#_scxml_<sessionid>`, `#_<invokeid>`), for an event sent by a chart.
  public var origin: String?
  /// The event I/O processor of `origin`.
  public var origintype: String?
  /// The invocation that sent it, for an event from an invoked chart.
  public var invokeid: String?
  /// Its data as JSON text (`_event.data`); `nil`: none (`undefined`).
  public var data: String?
  /// Where a delayed send goes when it falls due: another chart (`#_parent`, `#_<invokeid>`);
  /// `nil`: the session that sent it. Not one of `_event`'s fields.
  package var target: String?

  /// An event named `name`, external unless `type` says otherwise, with `data` as JSON text.
  public init(
    _ name: String, type: Kind = .external, sendid: String? = nil, origin: String? = nil, origintype: String? = nil,
    invokeid: String? = nil, data: String? = nil
  ) {
    (self.name, self.type, self.sendid, self.origin, self.origintype, self.invokeid, self.data) =
      (name, type, sendid, origin, origintype, invokeid, data)
  }

  /// The name: what a trace and a configuration's step show.
  public var description: String { name }

  /// The name: events are told apart by it.
  public var discriminant: String { name }

  enum CodingKeys: String, CodingKey {
    case name, type, sendid, origin, origintype, invokeid, data
  }

  /// Reads an event as ``encode(to:)`` writes it: `name`, and the other fields when present
  /// (`type` is `external` when absent).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      try container.decode(String.self, forKey: .name), type: try container.decodeIfPresent(Kind.self, forKey: .type) ?? .external,
      sendid: try container.decodeIfPresent(String.self, forKey: .sendid),
      origin: try container.decodeIfPresent(String.self, forKey: .origin),
      origintype: try container.decodeIfPresent(String.self, forKey: .origintype),
      invokeid: try container.decodeIfPresent(String.self, forKey: .invokeid), data: try container.decodeIfPresent(String.self, forKey: .data))
  }

  /// Writes the name, and each other field that has a value (`type` unless `external`).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    if type != .external { try container.encode(type, forKey: .type) }
    try container.encodeIfPresent(sendid, forKey: .sendid)
    try container.encodeIfPresent(origin, forKey: .origin)
    try container.encodeIfPresent(origintype, forKey: .origintype)
    try container.encodeIfPresent(invokeid, forKey: .invokeid)
    try container.encodeIfPresent(data, forKey: .data)
  }

  /// The type SCXML's own event I/O processor is named by.
  package static let scxmlProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"
}
