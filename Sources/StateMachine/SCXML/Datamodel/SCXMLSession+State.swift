import Foundation

/// What a session holds, as a value: what its log entries and snapshots write, what two
/// sessions are compared by, and what a decoded session's new datamodel starts with.
package struct SCXMLSessionState: Hashable, Sendable, Codable {
  /// The declared data and their values, one JSON object (in declaration order).
  var data: String
  /// The states active for `In()`, sorted.
  var active: [String]
  /// The states whose late-bound data was declared, sorted.
  var bound: [String]
  /// How many sends were numbered for an `idlocation`.
  var sent: Int

  /// A session that has run nothing.
  static let empty = SCXMLSessionState(data: "{}", active: [], bound: [], sent: 0)
}

extension SCXMLSession: Hashable, Codable {
  /// The datamodel's data: each name a `<data>` (or a `<foreach>`) declared, with its value,
  /// as one JSON object in declaration order (a value with no JSON form is left out).
  ///
  /// ```swift
  /// store.context.data          // {"count":3,"names":["ada"]}
  /// ```
  public var data: String { locked { state.data } }

  /// What the session holds now (the lock held).
  var state: SCXMLSessionState {
    guard let engine else { return restoring ?? .empty }
    return SCXMLSessionState(data: engine.snapshotJSON(), active: active.sorted(), bound: bound.sorted(), sent: sent)
  }

  /// A new datamodel takes `state`: its data declared again, its active states marked. Data
  /// that cannot be declared (past a limit) raises `error.execution`.
  func restore(_ state: SCXMLSessionState, on engine: any SCXMLScriptEngine) {
    do { try engine.restore(snapshotJSON: state.data) } catch { outputs.append(.error("error.execution")) }
    for id in state.active { engine.setActive(id, true) }
    (active, bound, sent) = (Set(state.active), Set(state.bound), state.sent)
  }

  /// Sessions are equal when they are the same session (id and name) holding the same data,
  /// active states, late-bound data and send count: a replay compares the session it runs
  /// with the one a log recorded so.
  public static func == (a: SCXMLSession, b: SCXMLSession) -> Bool {
    guard a !== b else { return true }
    guard a.sessionID == b.sessionID, a.name == b.name else { return false }
    // Each read under its own lock, never both held.
    let state = a.locked { a.state }
    return state == b.locked { b.state }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(sessionID)
    hasher.combine(name)
    hasher.combine(locked { state })
  }

  enum CodingKeys: String, CodingKey {
    case sessionid, name, data, active, bound, sent
  }

  /// Writes the session's id and name, and what it holds: `data` (the datamodel's JSON as a
  /// string), `active`, `bound` and `sent`.
  public func encode(to encoder: any Encoder) throws {
    let state = locked { self.state }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sessionID, forKey: .sessionid)
    try container.encode(name, forKey: .name)
    try container.encode(state.data, forKey: .data)
    try container.encode(state.active, forKey: .active)
    try container.encode(state.bound, forKey: .bound)
    try container.encode(state.sent, forKey: .sent)
  }

  /// Reads a session as ``encode(to:)`` writes it. It has no datamodel yet: the chart makes
  /// one when its content first runs, and declares the data read here in it.
  public convenience init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let data = try container.decode(String.self, forKey: .data)
    guard (try? JSONSerialization.jsonObject(with: Data(data.utf8))) is [String: Any] else {
      throw DecodingError.dataCorruptedError(forKey: .data, in: container, debugDescription: "'\(data.prefix(80))' is not a JSON object; expected the datamodel's data")
    }
    let state = SCXMLSessionState(
      data: data, active: try container.decodeIfPresent([String].self, forKey: .active) ?? [],
      bound: try container.decodeIfPresent([String].self, forKey: .bound) ?? [], sent: try container.decodeIfPresent(Int.self, forKey: .sent) ?? 0)
    self.init(
      sessionID: try container.decode(String.self, forKey: .sessionid), name: try container.decode(String.self, forKey: .name), restoring: state)
  }
}

extension SCXMLSession: KeptByCopy {
  /// A session holding this one's data as it is now, without a datamodel (one is made when
  /// content runs on it): what a log kept in memory holds for each step.
  @usableFromInline
  func keptCopy() -> SCXMLSession {
    // (With the data its last `<donedata>` gave: a child's copy is what says it is done.)
    let (state, doneData): (SCXMLSessionState, String?) = locked { (self.state, self.doneData) }
    let copy = SCXMLSession(sessionID: sessionID, name: name, values: values, restoring: state)
    copy.doneData = doneData
    return copy
  }
}

extension SCXMLSession: CustomStringConvertible {
  /// The data, and what else the session holds when it holds anything: `{"count":2} (active:
  /// counting; sends: 1)`.
  public var description: String {
    let state = locked { self.state }
    var notes: [String] = []
    if !state.active.isEmpty { notes.append("active: " + state.active.joined(separator: ", ")) }
    if !state.bound.isEmpty { notes.append("bound: " + state.bound.joined(separator: ", ")) }
    if state.sent > 0 { notes.append("sends: \(state.sent)") }
    return state.data + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")")
  }
}
