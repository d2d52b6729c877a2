/// Commands encode with named fields and durations in seconds, so a log reads as it is meant:
///
/// ```json
/// {"send":{"event":"retryNow","after":1.5,"id":"backoff","scope":"state"}}
/// {"perform":{"work":{"fetch":{"page":2}},"id":"fetch","scope":"state"}}
/// {"every":{"interval":1,"event":"tick","id":"ticker"}}
/// {"cancel":{"id":"ticker"}}
/// {"invoke":{"machine":"upload","id":"file-1","scope":"state"}}
/// {"message":{"to":"file-1","message":"pause"}}
/// {"message":{"to":"file-1","message":"ping","after":5,"id":"ping"}}
/// ```
///
/// A child machine is kept by its name, and a message by its target and text: read back, they
/// compare equal to what was run, but cannot run again (a replay performs no effects).
///
/// `scope` is left out when it is `global`. What earlier versions wrote (`_0` for the unnamed
/// value, a duration as Swift's `[seconds, attoseconds]`, an id as `{"name": ...}`) still decodes,
/// so their logs still replay.
extension Command: Codable where Event: Codable, Work: Codable {
  enum CaseKey: String, CodingKey { case perform, send, every, cancel, invoke, message }
  enum FieldKey: String, CodingKey {
    case work, event, after, interval, id, scope, machine, to, message
    case legacyFirst = "_0"
    case legacySend = "send"
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CaseKey.self)
    switch self {
    case .perform(let work, let id, let scope):
      var fields = container.nestedContainer(keyedBy: FieldKey.self, forKey: .perform)
      try fields.encode(work, forKey: .work)
      try Self.encode(id, scope, into: &fields)
    case .send(let event, let delay, let id, let scope):
      var fields = container.nestedContainer(keyedBy: FieldKey.self, forKey: .send)
      try fields.encode(event, forKey: .event)
      try fields.encode(delay.inSeconds, forKey: .after)
      try Self.encode(id, scope, into: &fields)
    case .every(let interval, let event, let id, let scope):
      var fields = container.nestedContainer(keyedBy: FieldKey.self, forKey: .every)
      try fields.encode(interval.inSeconds, forKey: .interval)
      try fields.encode(event, forKey: .event)
      try Self.encode(id, scope, into: &fields)
    case .cancel(let id):
      var fields = container.nestedContainer(keyedBy: FieldKey.self, forKey: .cancel)
      try fields.encode(id, forKey: .id)
    case .invoke(let child, let id, let scope):
      var fields = container.nestedContainer(keyedBy: FieldKey.self, forKey: .invoke)
      try fields.encode(child.name, forKey: .machine)
      try Self.encode(id, scope, into: &fields)
    case .message(let message):
      var fields = container.nestedContainer(keyedBy: FieldKey.self, forKey: .message)
      try fields.encode(message.target, forKey: .to)
      try fields.encode(message.text, forKey: .message)
      if message.isDelayed { try fields.encode(message.delay.inSeconds, forKey: .after) }
      try fields.encodeIfPresent(message.id, forKey: .id)
    }
  }

  static func encode(_ id: EffectID?, _ scope: EffectScope, into fields: inout KeyedEncodingContainer<FieldKey>) throws {
    try fields.encodeIfPresent(id, forKey: .id)
    if scope != .global { try fields.encode(scope, forKey: .scope) }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CaseKey.self)
    guard let key = container.allKeys.first, container.allKeys.count == 1 else {
      throw DecodingError.dataCorrupted(.init(
        codingPath: decoder.codingPath, debugDescription: "expected one of perform, send, every, cancel, invoke, message"))
    }
    let fields = try container.nestedContainer(keyedBy: FieldKey.self, forKey: key)
    let id = try fields.decodeIfPresent(EffectID.self, forKey: .id)
    let scope = try fields.decodeIfPresent(EffectScope.self, forKey: .scope) ?? .global
    switch key {
    case .perform:
      let work = try fields.decodeIfPresent(Work.self, forKey: .work) ?? fields.decode(Work.self, forKey: .legacyFirst)
      self = .perform(work, id: id, scope: scope)
    case .send:
      let event = try fields.decodeIfPresent(Event.self, forKey: .event) ?? fields.decode(Event.self, forKey: .legacyFirst)
      self = .send(event, after: try Self.duration(fields, .after), id: id, scope: scope)
    case .every:
      let interval = try fields.contains(.interval) ? Self.duration(fields, .interval) : Self.duration(fields, .legacyFirst)
      let event = try fields.decodeIfPresent(Event.self, forKey: .event) ?? fields.decode(Event.self, forKey: .legacySend)
      guard let id else {
        throw DecodingError.keyNotFound(FieldKey.id, .init(codingPath: fields.codingPath, debugDescription: "every needs an id"))
      }
      self = .every(interval, send: event, id: id, scope: scope)
    case .cancel:
      let cancelled = try id ?? fields.decode(EffectID.self, forKey: .legacyFirst)
      self = .cancel(cancelled)
    case .invoke:
      guard let id else {
        throw DecodingError.keyNotFound(FieldKey.id, .init(codingPath: fields.codingPath, debugDescription: "invoke needs an id"))
      }
      self = .invoke(ChildMachine(name: try fields.decode(String.self, forKey: .machine), launch: nil), id: id, scope: scope)
    case .message:
      let delay = try fields.contains(.after) ? Self.duration(fields, .after) : .zero
      self = .message(
        MachineMessage(
          logged: try fields.decode(String.self, forKey: .message), to: try fields.decode(String.self, forKey: .to), after: delay, id: id))
    }
  }

  /// A duration written as seconds (a number), or as Swift's `[seconds, attoseconds]`.
  static func duration(_ fields: KeyedDecodingContainer<FieldKey>, _ key: FieldKey) throws -> Duration {
    if let seconds = try? fields.decode(Double.self, forKey: key) {
      guard seconds.isFinite, seconds >= 0, seconds < 1e15 else {
        throw DecodingError.dataCorruptedError(forKey: key, in: fields, debugDescription: "\(seconds) is not a duration in seconds")
      }
      return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
    return try fields.decode(Duration.self, forKey: key)
  }
}
