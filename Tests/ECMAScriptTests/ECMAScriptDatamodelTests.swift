#if ECMAScript
import StateMachineECMAScript
import Testing

/// The ECMAScript datamodel on JavaScriptCore: evaluation, `<data>`, `<assign>`, `<script>`,
/// the read-only system variables, and the bounds every evaluation runs within.
@Suite("ECMAScript datamodel")
struct ECMAScriptDatamodelTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let expression: String
    /// The value as JSON; `nil`: undefined.
    let json: String?
    var testDescription: String { label }
  }

  static let values: [Case] = [
    .init(label: "a number", expression: "1 + 2", json: "3"),
    .init(label: "a string", expression: "'a' + \"b\"", json: "\"ab\""),
    .init(label: "an object literal", expression: "{a: [1, 2], b: null}", json: #"{"a":[1,2],"b":null}"#),
    .init(label: "undefined", expression: "undefined", json: nil),
    .init(label: "a function has no JSON", expression: "function () {}", json: nil),
    .init(label: "a trailing line comment", expression: "40 + 2 // the answer", json: "42"),
  ]

  @Test("an expression's value as JSON", arguments: values)
  func evaluates(_ example: Case) throws {
    #expect(try ECMAScriptDatamodel().evaluate(example.expression) == example.json)
  }

  @Test("the README's example: declare, assign, and a condition")
  func readme() throws {
    let model = ECMAScriptDatamodel()
    try model.declare("count", "1")
    try model.assign("count", "count + 41")
    let answer = try model.condition("count === 42")
    #expect(answer)
  }

  @Test("data, assign and script share one global scope; a snapshot lists the data")
  func dataAssignScript() throws {
    let model = ECMAScriptDatamodel()
    try model.declare("count", "1")
    try model.declare("items", json: #"[1, 2]"#)
    try model.declare("unset", nil)
    try model.assign("count", "count + 41")
    try model.run("items.push(count);")
    try model.assign("items[0]", "'first'")
    #expect(try model.condition("count === 42"))
    #expect(try model.evaluate("unset") == nil)
    #expect(model.snapshotJSON() == #"{"count":42,"items":["first",2,42]}"#)
  }

  @Test("an expression compiled once reads the data as it is at each evaluation; one that does not compile fails each time")
  func compiledOnce() throws {
    let model = ECMAScriptDatamodel()
    try model.declare("count", "0")
    var seen: [Bool] = []
    for _ in 0..<3 {
      seen.append(try model.condition("count >= 1"))
      try model.assign("count", "count + 1")
    }
    #expect(seen == [false, true, true])
    for _ in 0..<2 {
      #expect(throws: ECMAScriptError.self) { _ = try model.evaluate("count +") }
    }
    // Two expressions in turn (the last one is found without a lookup): each its own value.
    var values: [String?] = []
    for expression in ["count", "count * 10", "count", "count;", "count * 10"] { values.append(try model.evaluate(expression)) }
    #expect(values == ["3", "30", "3", "3", "30"])
  }

  struct Failure: Sendable, CustomTestStringConvertible {
    let label: String
    let run: @Sendable (ECMAScriptDatamodel) throws(ECMAScriptError) -> Void
    let kind: ECMAScriptError.Kind
    /// The evaluation's time limit. The memory case gets seconds: it must meet the memory bound
    /// first however slow the machine is (at 300 ms, CI's build beside it made it a time limit).
    var time: Duration = .milliseconds(300)
    var testDescription: String { label }
  }

  static let failures: [Failure] = [
    .init(label: "a syntax error", run: { model throws(ECMAScriptError) in _ = try model.evaluate("1 +") }, kind: .exception),
    .init(label: "an undeclared name", run: { model throws(ECMAScriptError) in _ = try model.condition("nothing > 1") }, kind: .exception),
    .init(label: "a throw", run: { model throws(ECMAScriptError) in try model.run("throw new Error('no')") }, kind: .exception),
    .init(label: "assigning an undeclared name", run: { model throws(ECMAScriptError) in try model.assign("nothing", "1") }, kind: .notAssignable),
    .init(
      label: "assigning a system variable",
      run: { model throws(ECMAScriptError) in
        try model.setSystemVariable("_sessionid", json: "\"s1\"")
        try model.assign("_sessionid", "'mine'")
      }, kind: .notAssignable),
    .init(label: "a data value that is not JSON", run: { model throws(ECMAScriptError) in try model.declare("x", json: "{oops") }, kind: .notJSON),
    .init(label: "an endless loop", run: { model throws(ECMAScriptError) in try model.run("while (true) {}") }, kind: .timeLimit),
    .init(
      label: "memory without end",
      run: { model throws(ECMAScriptError) in try model.run("var hoard = []; while (true) hoard.push(new Array(1e5).fill(7));") },
      kind: .memoryLimit, time: .seconds(20)),
  ]

  @Test("what cannot be evaluated is a typed error, and the datamodel goes on", arguments: failures)
  func failsTyped(_ example: Failure) throws {
    let model = ECMAScriptDatamodel(limits: .init(time: example.time, memory: 64 << 20))
    #expect {
      try example.run(model)
    } throws: { error in
      (error as? ECMAScriptError)?.kind == example.kind
    }
    #expect(try model.evaluate("6 * 7") == "42", "evaluations after the error work")
  }

  @Test("a system variable is readable, and replaced by the datamodel, not by scripts")
  func systemVariables() throws {
    let model = ECMAScriptDatamodel()
    try model.setSystemVariable("_event", json: #"{"name":"go","data":{"n":1}}"#)
    #expect(try model.evaluate("_event.data.n + 1") == "2")
    try model.setSystemVariable("_event", json: #"{"name":"stop"}"#)
    #expect(try model.evaluate("_event.name") == "\"stop\"")
  }
}
#endif
