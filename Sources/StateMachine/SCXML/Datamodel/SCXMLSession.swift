import Foundation

/// Makes the datamodel a session's content runs on (a new, empty global scope each time).
package typealias SCXMLDatamodelMaker = @Sendable () -> any SCXMLScriptEngine

/// The context of a chart read from an SCXML document with `datamodel="ecmascript"`: one
/// session of the document, its datamodel (the values its `<data>` declare) and `_sessionid`
/// and `_name`.
///
/// ```swift
/// let chart = try Chart(ecmascriptContentsOf: "counter.scxml")     // StateMachineECMAScript
/// let store = try Store(chart, context: SCXMLSession(for: chart), handler: { log, _ in print(log) })
/// store.send(SCXMLEvent("tick"))
/// print(store.context.data)                                        // {"count":1,"total":1}
/// ```
///
/// A session is made without a datamodel; the chart makes one for it when its content first
/// runs (the chart was read with its datamodel). It is a reference: the session is the
/// running datamodel, and copies of it are the same session. What it holds is a value, though
/// (``data``, the states active for `In()`, the late-bound data declared and the sends
/// numbered): it is `Codable` and `Hashable` by that, so a store's log records it after every
/// step (as JSON), a replay compares it, and a session decoded from a log (or a snapshot)
/// continues with that data on a datamodel of its own. Values without a JSON form (functions a
/// `<script>` made) are not part of it.
///
/// Content runs block by block, as the recommendation says: the first failure (a bad
/// expression, an assignment to nothing, a limit) raises `error.execution` and the rest of the
/// block does not run. A `cond` that cannot be evaluated is false and raises `error.execution`.
// @unchecked Sendable: what it holds is behind `lock`; its datamodel is used only under it.
public final class SCXMLSession: @unchecked Sendable {
  package typealias Output = ChartAction<SCXMLEvent, SCXMLSession, String>

  /// `_sessionid`.
  public let sessionID: String
  /// `_name`: the chart's name.
  public let name: String
  /// Guards everything below: a store's readers may encode the session while it steps.
  let lock = NSLock()
  /// The datamodel, once made (see ``attach(_:)``).
  private(set) var engine: (any SCXMLScriptEngine)?
  /// What made `engine`: documents an invocation reads at run time get their sessions from it.
  private(set) var make: SCXMLDatamodelMaker?
  /// The data a new datamodel starts with: a decoded session's.
  var restoring: SCXMLSessionState?
  /// What content left to do, in order, until the machine takes it.
  var outputs: [Output] = []
  /// The event `_event` holds.
  var current: SCXMLEvent?
  /// The states whose late-bound `<data>` was declared.
  var bound: Set<String> = []
  /// The states active now, for `In()`.
  var active: Set<String> = []
  /// Ids made for sends with an `idlocation`.
  var sent = 0
  /// The data the last final state's `<donedata>` gave, until its done event takes it.
  var doneData: String?
  /// Values its invoker gave its data (by id, as JSON): they replace what the data declares.
  let values: [String: String]

  /// A new session of `chart` (its `_name`), with `sessionID` (a new UUID unless given). Its
  /// datamodel is made when the chart first runs content on it.
  public convenience init<Effect>(for chart: Chart<String, SCXMLEvent, SCXMLSession, Effect>, sessionID: String = UUID().uuidString) {
    self.init(sessionID: sessionID, name: chart.name)
  }

  /// A session without a datamodel yet (see ``attach(_:)``).
  package init(sessionID: String, name: String, values: [String: String] = [:], restoring: SCXMLSessionState? = nil) {
    (self.sessionID, self.name, self.values, self.restoring) = (sessionID, name, values, restoring)
  }

  /// A session of the chart `name` on `engine` (made by `make`), its system variables set.
  /// `values` (JSON, by data id) replace the values its `<data>` declares (an invocation's
  /// params).
  package convenience init(
    engine: any SCXMLScriptEngine, datamodel make: SCXMLDatamodelMaker? = nil, sessionID: String, name: String, values: [String: String] = [:]
  ) {
    self.init(sessionID: sessionID, name: name, values: values)
    install(engine, make: make)
  }

  /// Gives the session a datamodel made by `make`, when it has none: its system variables are
  /// set, and a decoded session's data declared in it again. What the chart's content calls
  /// first.
  package func attach(_ make: @escaping SCXMLDatamodelMaker) {
    lock.lock()
    defer { lock.unlock() }
    guard engine == nil else { return }
    install(make(), make: make)
  }

  /// Replaces the session's data with `json`, one JSON object as ``data`` reads: what a
  /// `TestStore`'s expected change says a step left.
  ///
  /// ```swift
  /// try await store.send(SCXMLEvent("tick"), effects: [.perform("count: 1")]) {
  ///   try $0.setData(#"{"count":1,"total":1}"#)
  /// }
  /// ```
  ///
  /// The session's datamodel, if it has one, goes: the chart makes a new one when its content
  /// next runs, with this data declared in it (as for a session read back from a log).
  ///
  /// - Throws: `DecodingError.dataCorrupted` when `json` is not a JSON object.
  public func setData(_ json: String) throws {
    guard (try? JSONSerialization.jsonObject(with: Data(json.utf8))) is [String: Any] else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "'\(json.prefix(80))' is not a JSON object; expected the datamodel's data"))
    }
    locked {
      var held = state
      held.data = json
      (restoring, engine) = (held, nil)
    }
  }

  /// `engine` becomes the session's datamodel.
  private func install(_ engine: any SCXMLScriptEngine, make: SCXMLDatamodelMaker?) {
    (self.engine, self.make) = (engine, make)
    let location = SCXMLValueText.quoted("#_scxml_\(sessionID)")
    let processor = "{\"location\":\(location)}"
    try? engine.setSystemVariable("_sessionid", json: SCXMLValueText.quoted(sessionID))
    try? engine.setSystemVariable("_name", json: SCXMLValueText.quoted(name))
    try? engine.setSystemVariable(
      "_ioprocessors",
      json:
        "{\"scxml\":\(processor),\(SCXMLValueText.quoted(SCXMLEvent.scxmlProcessor)):\(processor)}")
    try? engine.setEvent(nil)
    if let restoring {
      self.restoring = nil
      restore(restoring, on: engine)
    }
  }

  /// The datamodel content runs on.
  var model: any SCXMLScriptEngine {
    guard let engine else { preconditionFailure("invalid state: SCXML content ran on a session with no datamodel (attach one first)") }
    return engine
  }

  /// Runs `body` holding the session's lock.
  func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// What the content run since the last call left to do; forgotten here.
  package func takeOutputs() -> [Output] {
    locked {
      defer { outputs.removeAll(keepingCapacity: true) }
      return outputs
    }
  }

  /// `_event` becomes `event` (unless it already is; none: it stays, as for eventless
  /// transitions).
  func see(_ event: SCXMLEvent?) {
    guard let event, event != current else { return }
    current = event
    try? model.setEvent(event)
  }

  /// Runs a block of content for `event`.
  package func run(_ block: [SCXMLContent], event: SCXMLEvent?) {
    locked { running(block, event: event) }
  }

  /// ``run(_:event:)``, the lock held.
  func running(_ block: [SCXMLContent], event: SCXMLEvent?) {
    see(event)
    do {
      try execute(block)
    } catch {
      failed(error)
    }
  }

  /// Whether `expression` holds for `event`: false, with `error.execution`, when it cannot be
  /// evaluated.
  package func condition(_ expression: String, at place: SCXMLPlace? = nil, event: SCXMLEvent?) -> Bool {
    locked {
      see(event)
      do { return try model.condition(expression) } catch {
        failed(SCXMLContentError(message: "\(error)", place: place))
        return false
      }
    }
  }

  /// Raises `error.execution` for `error`: with the id of the send that failed, and the place
  /// and reason as its data when they are known.
  func failed(_ error: any Error) {
    let known = error as? SCXMLContentError
    let data = known?.place.map { $0.errorData(known!.message) }
    outputs.append(
      .raise(SCXMLEvent("error.execution", type: .platform, sendid: known?.sendid, data: data)))
  }

  /// Declares `data` in order; one whose value cannot be had is declared `undefined` and
  /// raises `error.execution`.
  package func declare(_ data: [SCXMLData]) {
    locked { declaring(data) }
  }

  /// ``declare(_:)``, the lock held.
  func declaring(_ data: [SCXMLData]) {
    for item in data {
      do {
        if let json = values[item.id] ?? item.json {
          try model.declare(item.id, json: json)
        } else {
          try model.declare(item.id, item.expr)
        }
      } catch {
        outputs.append(.error("error.execution"))
        try? model.declare(item.id, nil)
      }
    }
  }

  /// Declares the late-bound `data` of `state` when it is entered for the first time.
  package func bind(_ data: [SCXMLData], of state: String) {
    locked {
      guard bound.insert(state).inserted else { return }
      declaring(data)
    }
  }

  /// The data the last `<donedata>` gave (forgotten here).
  package func takeDoneData() -> String? {
    locked {
      defer { doneData = nil }
      return doneData
    }
  }

  /// The state `id` was entered or exited (for `In()`).
  package func setActive(_ id: String, _ isActive: Bool) {
    locked {
      if isActive { active.insert(id) } else { active.remove(id) }
      model.setActive(id, isActive)
    }
  }
}

/// Why content stopped (the block raises `error.execution`).
struct SCXMLContentError: Error {
  let message: String
  /// The id of the send that failed, if it had one.
  var sendid: String? = nil
  /// Where the content that failed was written.
  var place: SCXMLPlace? = nil
}

extension SCXMLSession {
  func execute(_ block: [SCXMLContent]) throws {
    for content in block { try execute(content) }
  }

  func execute(_ content: SCXMLContent) throws {
    switch content {
    case .raise(let name): outputs.append(.raise(SCXMLEvent(name, type: .internal)))
    case .send(let send): try self.send(send)
    case .cancel(let id, let expr):
      guard let id = try id ?? expr.map(model.text(of:)) else {
        throw SCXMLContentError(message: "<cancel> without an id")
      }
      outputs.append(.cancel(id))
    case .log(let label, let expr):
      let text = try expr.map(model.text(of:))
      outputs.append(.effect([label, text].compactMap { $0 }.joined(separator: ": ")))
    case .assign(let location, let expr, let json):
      if let expr {
        try model.assign(location, expr)
      } else {
        try model.assign(location, json: json)
      }
    case .script(let script): try model.run(script)
    case .branches(let branches):
      for branch in branches where try branch.condition.map(model.condition) ?? true {
        try execute(branch.body)
        break
      }
    case .foreach(let array, let item, let index, let body):
      let elements = try model.elements(of: array)
      if !model.isDeclared(item) { try model.declare(item, nil) }
      if let index, !model.isDeclared(index) { try model.declare(index, nil) }
      for (n, element) in elements.enumerated() {
        try model.assign(item, json: element)
        if let index { try model.assign(index, json: "\(n)") }
        try execute(body)
      }
    case .doneData(let data):
      doneData = nil
      doneData = try self.data(of: data)
    case .placed(let place, let inner):
      do {
        try execute(inner)
      } catch var error as SCXMLContentError {
        if error.place == nil { error.place = place }
        throw error
      } catch {
        throw SCXMLContentError(message: "\(error)", place: place)
      }
    }
  }
}
