import Foundation

/// The context of a chart whose content a datamodel runs (an SCXML document with
/// `datamodel="ecmascript"`): one session's datamodel, and what its content left for the
/// machine to do (see ``ChartScripting``).
///
/// Content runs block by block, as the recommendation says: the first failure (a bad
/// expression, an assignment to nothing, a limit) raises `error.execution` and the rest of the
/// block does not run. A `cond` that cannot be evaluated is false and raises `error.execution`.
///
/// Not API yet.
// @unchecked Sendable: a session belongs to one machine, which the runtime steps on one thread
// at a time; it is never handed to another machine or read while its machine steps.
package final class SCXMLSession: @unchecked Sendable {
  package typealias Output = ChartAction<SCXMLEvent, SCXMLSession, String>

  package let engine: any SCXMLScriptEngine
  /// `_sessionid`.
  package let sessionID: String
  /// `_name`.
  package let name: String
  /// What content left to do, in order, until the machine takes it.
  var outputs: [Output] = []
  /// The event `_event` holds.
  var current: SCXMLEvent?
  /// The states whose late-bound `<data>` was declared.
  var bound: Set<String> = []
  /// Ids made for sends with an `idlocation`.
  var sent = 0
  /// The data the last final state's `<donedata>` gave, until its done event takes it.
  var doneData: String?
  /// Values its invoker gave its data (by id, as JSON): they replace what the data declares.
  let values: [String: String]

  /// A session of the chart `name` over `engine`: its system variables are set. `values`
  /// (JSON, by data id) replace the values its `<data>` declares (an invocation's params).
  package init(
    engine: any SCXMLScriptEngine, sessionID: String, name: String, values: [String: String] = [:]
  ) {
    (self.engine, self.sessionID, self.name, self.values) = (engine, sessionID, name, values)
    let location = SCXMLValueText.quoted("#_scxml_\(sessionID)")
    let processor = "{\"location\":\(location)}"
    try? engine.setSystemVariable("_sessionid", json: SCXMLValueText.quoted(sessionID))
    try? engine.setSystemVariable("_name", json: SCXMLValueText.quoted(name))
    try? engine.setSystemVariable(
      "_ioprocessors",
      json:
        "{\"scxml\":\(processor),\(SCXMLValueText.quoted(SCXMLEvent.scxmlProcessor)):\(processor)}")
    try? engine.setEvent(nil)
  }

  /// What the content run since the last call left to do; forgotten here.
  package func takeOutputs() -> [Output] {
    defer { outputs.removeAll(keepingCapacity: true) }
    return outputs
  }

  /// `_event` becomes `event` (unless it already is; none: it stays, as for eventless
  /// transitions).
  func see(_ event: SCXMLEvent?) {
    guard let event, event != current else { return }
    current = event
    try? engine.setEvent(event)
  }

  /// Runs a block of content for `event`.
  package func run(_ block: [SCXMLContent], event: SCXMLEvent?) {
    see(event)
    do {
      try execute(block)
    } catch {
      failed(error)
    }
  }

  /// Whether `expression` holds for `event`: false, with `error.execution`, when it cannot be
  /// evaluated.
  package func condition(_ expression: String, at place: SCXMLPlace? = nil, event: SCXMLEvent?)
    -> Bool
  {
    see(event)
    do { return try engine.condition(expression) } catch {
      failed(SCXMLContentError(message: "\(error)", place: place))
      return false
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
    for item in data {
      do {
        if let json = values[item.id] ?? item.json {
          try engine.declare(item.id, json: json)
        } else {
          try engine.declare(item.id, item.expr)
        }
      } catch {
        outputs.append(.error("error.execution"))
        try? engine.declare(item.id, nil)
      }
    }
  }

  /// Declares the late-bound `data` of `state` when it is entered for the first time.
  package func bind(_ data: [SCXMLData], of state: String) {
    guard bound.insert(state).inserted else { return }
    declare(data)
  }

  /// The data the last `<donedata>` gave (forgotten here).
  package func takeDoneData() -> String? {
    defer { doneData = nil }
    return doneData
  }

  /// An invocation `id` starts: its id is assigned to its `idlocation`, the values its
  /// namelist and params give the invoked chart's data are evaluated (one that cannot be is
  /// left out, and raises `error.execution`), and a chart named at run time (`srcexpr`,
  /// `<content expr>`) is read. `nil`: that chart cannot be read; the invocation does not
  /// start, and `error.execution` is raised.
  package func invoking(_ script: SCXMLInvokeScript, id: String) -> (values: [String: String], chart: SCXMLDocument.ScriptedChart?)? {
    var values: [String: String] = [:]
    do {
      if let location = script.idlocation { try engine.assign(location, json: SCXMLValueText.quoted(id)) }
      for name in script.namelist { values[name] = try engine.evaluate(name) ?? "null" }
      for (name, expression) in script.params { values[name] = try engine.evaluate(expression) ?? "null" }
    } catch {
      failed(error)
    }
    do {
      if let expression = script.srcexpr {
        let src = try engine.text(of: expression)
        let written = src.hasPrefix("file:") ? String(src.dropFirst("file:".count)) : src
        let path = written.hasPrefix("/") ? written : URL(fileURLWithPath: script.base).deletingLastPathComponent().appendingPathComponent(written).path
        return (values, try SCXMLDocument.loadScripted(contentsOf: path))
      }
      if let expression = script.contentExpr {
        return (values, try SCXMLDocument.parseScripted(Data(try engine.text(of: expression).utf8), file: script.base))
      }
    } catch {
      failed(SCXMLContentError(message: "the invoked document: \(error)"))
      return nil
    }
    return (values, nil)
  }

  /// An event from an invoked chart arrives: the invocation's `<finalize>` runs on it.
  package func finalize(_ script: SCXMLInvokeScript, event: SCXMLEvent) {
    guard !script.finalize.isEmpty else { return }
    run(script.finalize, event: event)
  }

  /// The state `id` was entered or exited (for `In()`).
  package func setActive(_ id: String, _ active: Bool) { engine.setActive(id, active) }
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
      guard let id = try id ?? expr.map(engine.text(of:)) else {
        throw SCXMLContentError(message: "<cancel> without an id")
      }
      outputs.append(.cancel(id))
    case .log(let label, let expr):
      let text = try expr.map(engine.text(of:))
      outputs.append(.effect([label, text].compactMap { $0 }.joined(separator: ": ")))
    case .assign(let location, let expr, let json):
      if let expr {
        try engine.assign(location, expr)
      } else {
        try engine.assign(location, json: json)
      }
    case .script(let script): try engine.run(script)
    case .branches(let branches):
      for branch in branches where try branch.condition.map(engine.condition) ?? true {
        try execute(branch.body)
        break
      }
    case .foreach(let array, let item, let index, let body):
      let elements = try engine.elements(of: array)
      if !engine.isDeclared(item) { try engine.declare(item, nil) }
      if let index, !engine.isDeclared(index) { try engine.declare(index, nil) }
      for (n, element) in elements.enumerated() {
        try engine.assign(item, json: element)
        if let index { try engine.assign(index, json: "\(n)") }
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
