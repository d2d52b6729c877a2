#if ECMAScript
import CJavaScriptCore
import Foundation
internal import StateMachine

/// SCXML's ECMAScript datamodel (the recommendation's section B.2) on JavaScriptCore: one
/// global scope per chart session, where `<data>` declares, `<assign>` assigns, `<script>` runs
/// and `cond` and `expr` are evaluated.
///
/// ```swift
/// let model = ECMAScriptDatamodel()
/// try model.declare("count", "1")
/// try model.assign("count", "count + 41")
/// let answer = try model.condition("count === 42")     // true
/// ```
///
/// Every evaluation is bounded (``Limits``): one that runs too long, or during which the
/// process grows too much, is stopped and fails with ``ECMAScriptError``, as a script that
/// throws does; the chart then raises `error.execution`. Scripts see only the language and the
/// datamodel: no files, no network, no timers.
///
/// Not `Sendable`: a datamodel belongs to one chart session, stepped on one thread at a time.
public final class ECMAScriptDatamodel {
  /// The bounds of each evaluation.
  public struct Limits: Hashable, Sendable {
    /// How long one evaluation may run (default 1 s).
    public var time: Duration
    /// How large the datamodel's script heap may grow (default 256 MiB), checked every
    /// ``checkInterval`` of running script: a script allocating very fast may pass it by what
    /// it allocates in that time before it is stopped.
    public var memory: Int

    /// Limits of `time` and `memory` bytes.
    public init(time: Duration = .seconds(1), memory: Int = 256 << 20) { (self.time, self.memory) = (time, memory) }

    /// How often a running evaluation is checked against the limits: 10 ms.
    public static let checkInterval: Duration = .milliseconds(10)
  }

  /// The limits every evaluation runs within.
  public let limits: Limits
  let group: JSContextGroupRef
  let context: JSGlobalContextRef
  /// What the watchdog reads while a script runs.
  let watch: Watch
  /// Expressions compiled once into functions (`return (expression)`), by their text: a `cond`
  /// evaluated on every step is parsed once.
  var compiled: [String: JSObjectRef] = [:]
  /// The expression compiled and evaluated last.
  var last: (text: String, function: JSObjectRef)?
  /// The names `<data>` declared, in order: what ``snapshotJSON()`` writes.
  public private(set) var declared: [String] = []
  /// The states `In()` answers true for, by id (an object the `In` function reads; made on the
  /// first ``setActive(_:_:)``).
  var active: JSObjectRef?

  /// A datamodel with an empty global scope (the language's built-ins only).
  public init(limits: Limits = Limits()) {
    self.limits = limits
    group = JSContextGroupCreate()
    context = JSGlobalContextCreateInGroup(group, nil)
    watch = Watch(limits: limits, group: group)
    watch.arm()
  }

  deinit {
    for function in compiled.values { JSValueUnprotect(context, function) }
    if let active { JSValueUnprotect(context, active) }
    JSGlobalContextRelease(context)
    JSContextGroupRelease(group)
  }

  /// The value of `expression` as JSON, or `nil` when it is `undefined` (or has no JSON form,
  /// such as a function).
  public func evaluate(_ expression: String) throws(ECMAScriptError) -> String? {
    let value = try value(of: expression)
    return json(value)
  }

  /// Whether `expression` is truthy (SCXML's `cond`).
  public func condition(_ expression: String) throws(ECMAScriptError) -> Bool {
    JSValueToBoolean(context, try value(of: expression))
  }

  /// Declares `name` (`<data id>`) with the value of `expression`, or `undefined` without one.
  public func declare(_ name: String, _ expression: String?) throws(ECMAScriptError) {
    let value = try expression.map { (source) throws(ECMAScriptError) in try self.value(of: source) } ?? undefined
    try run("var \(name);", source: "<data id=\"\(name)\">")
    try setGlobal(name, value, readOnly: false)
    if !declared.contains(name) { declared.append(name) }
  }

  /// Declares `name` with `json`'s value (a `<data>` whose content is JSON).
  public func declare(_ name: String, json: String) throws(ECMAScriptError) {
    try declare(name, nil)
    try setGlobal(name, try parsed(json, source: "<data id=\"\(name)\">"), readOnly: false)
  }

  /// Assigns the value of `expression` to `location` (`<assign>`): a declared name, or a
  /// property of one. An undeclared name, or a read-only one (`_event`), is an error.
  public func assign(_ location: String, _ expression: String) throws(ECMAScriptError) {
    try assign(location, value: try value(of: expression))
  }

  /// Assigns `value` to `location` (see ``assign(_:_:)``).
  func assign(_ location: String, value: JSValueRef) throws(ECMAScriptError) {
    try setGlobal(Self.pending, value, readOnly: false)
    defer { deleteGlobal(Self.pending) }
    do {
      // Strict: assigning to an undeclared name or a read-only one throws, not declares.
      try run("\"use strict\"; \(location) = \(Self.pending);", source: location)
    } catch {
      throw ECMAScriptError(error.kind == .exception ? .notAssignable : error.kind, source: location, message: error.message)
    }
  }

  /// Runs `script` (`<script>`) in the global scope.
  public func run(_ script: String) throws(ECMAScriptError) {
    try run(script, source: script)
  }

  /// Sets the read-only system variable `name` (`_event`, `_sessionid`, `_name`,
  /// `_ioprocessors`) to `json`'s value.
  public func setSystemVariable(_ name: String, json: String) throws(ECMAScriptError) {
    deleteGlobal(name)
    try setGlobal(name, try parsed(json, source: name), readOnly: true)
  }

  /// The declared names and their values, as one JSON object (in declaration order); a value
  /// with no JSON form is left out.
  public func snapshotJSON() -> String {
    let fields = declared.compactMap { name -> String? in
      guard let value = try? global(name), let text = json(value) else { return nil }
      return "\(SCXMLValueText.quoted(name)):\(text)"
    }
    return "{" + fields.joined(separator: ",") + "}"
  }

  /// Declares each name of `json`, a JSON object (one ``snapshotJSON()`` wrote), in its order,
  /// with its value: what a session decoded from a log starts with.
  public func restore(snapshotJSON json: String) throws(ECMAScriptError) {
    let object = try parsed(json, source: "a snapshot")
    guard JSValueIsObject(context, object), !JSValueIsNull(context, object) else {
      throw ECMAScriptError(.notJSON, source: "a snapshot", message: "not a JSON object; expected the names and values of a datamodel")
    }
    try setGlobal(Self.restored, object, readOnly: false)
    defer { deleteGlobal(Self.restored) }
    let keys = try evaluated("JSON.stringify(Object.keys(\(Self.restored)))", source: "a snapshot")
    guard let names = (try? JSONSerialization.jsonObject(with: Data(string(keys).utf8))) as? [String] else {
      throw ECMAScriptError(.notJSON, source: "a snapshot", message: "its names cannot be read")
    }
    for name in names { try declare(name, "\(Self.restored)[\(SCXMLValueText.quoted(name))]") }
  }

  /// The name a snapshot being restored is held under for the moment.
  static let restored = "__scxmlRestored"

  // MARK: - Evaluation

  /// The name a value being assigned is held under for the moment.
  static let pending = "__scxmlAssigned"

  /// `expression` evaluated as an expression.
  func value(of written: String) throws(ECMAScriptError) -> JSValueRef {
    // The expression evaluated last is found without hashing (a chart's cond, step after step).
    if let last, last.text == written { return try called(last.function, source: written) }
    if let function = compiled[written] {
      last = (written, function)
      return try called(function, source: written)
    }
    // An expression written as a statement (`new Thing();`) is taken without its semicolon.
    let expression = Self.withoutTrailingSemicolons(written)
    // The newline ends a trailing line comment before the closing parenthesis.
    guard compiled.count < Self.compiledLimit else { return try evaluated("(\(expression)\n)", source: expression) }
    let body = JSStringCreateWithUTF8CString("return (\(expression)\n);")
    defer { JSStringRelease(body) }
    var exception: JSValueRef?
    let made = JSObjectMakeFunction(context, nil, 0, nil, body, nil, 1, &exception)
    if let exception { throw ECMAScriptError(.exception, source: expression, message: string(exception)) }
    guard let function = made else { throw ECMAScriptError(.exception, source: expression, message: "cannot be compiled") }
    // Kept from the collector while the datamodel keeps it.
    JSValueProtect(context, function)
    compiled[written] = function
    return try called(function, source: expression)
  }

  /// `expression` without the semicolons (and spaces) it ends with.
  static func withoutTrailingSemicolons(_ expression: String) -> String {
    var end = expression.endIndex
    while end > expression.startIndex, let last = expression[..<end].last, last == ";" || last.isWhitespace {
      end = expression.index(before: end)
    }
    return String(expression[..<end])
  }

  /// How many expressions are kept compiled: past it, an expression is evaluated each time.
  static let compiledLimit = 4096

  /// The value `function` returns, bounded as every evaluation is.
  func called(_ function: JSObjectRef, source: String) throws(ECMAScriptError) -> JSValueRef {
    var exception: JSValueRef?
    watch.begin()
    let result = JSObjectCallAsFunction(context, function, nil, 0, nil, &exception)
    try check(watch.end(), exception, source: source)
    return result ?? undefined
  }

  /// Throws the error an evaluation that was `stopped`, or threw `exception`, ends in.
  func check(_ stopped: ECMAScriptError.Kind?, _ exception: JSValueRef?, source: String) throws(ECMAScriptError) {
    if let stopped { throw ECMAScriptError(stopped, source: source, message: stopped == .timeLimit ? "ran past \(limits.time)" : "grew past \(limits.memory) bytes") }
    if let exception { throw ECMAScriptError(.exception, source: source, message: string(exception)) }
  }

  func run(_ script: String, source: String) throws(ECMAScriptError) {
    _ = try evaluated(script, source: source)
  }

  func evaluated(_ script: String, source: String) throws(ECMAScriptError) -> JSValueRef {
    let text = JSStringCreateWithUTF8CString(script)
    defer { JSStringRelease(text) }
    var exception: JSValueRef?
    watch.begin()
    let result = JSEvaluateScript(context, text, nil, nil, 1, &exception)
    try check(watch.end(), exception, source: source)
    return result ?? undefined
  }

  func parsed(_ json: String, source: String) throws(ECMAScriptError) -> JSValueRef {
    if Self.holdsXML(json) { return try evaluated(Self.revived(json), source: source) }
    let text = JSStringCreateWithUTF8CString(json)
    defer { JSStringRelease(text) }
    guard let value = JSValueMakeFromJSONString(context, text) else {
      throw ECMAScriptError(.notJSON, source: source, message: "not JSON: \(json.prefix(80))")
    }
    return value
  }

  func global(_ name: String) throws(ECMAScriptError) -> JSValueRef {
    let key = JSStringCreateWithUTF8CString(name)
    defer { JSStringRelease(key) }
    var exception: JSValueRef?
    let value = JSObjectGetProperty(context, JSContextGetGlobalObject(context), key, &exception)
    if let exception { throw ECMAScriptError(.exception, source: name, message: string(exception)) }
    return value ?? undefined
  }

  func setGlobal(_ name: String, _ value: JSValueRef, readOnly: Bool) throws(ECMAScriptError) {
    let key = JSStringCreateWithUTF8CString(name)
    defer { JSStringRelease(key) }
    var exception: JSValueRef?
    let attributes = readOnly ? JSPropertyAttributes(kJSPropertyAttributeReadOnly) : JSPropertyAttributes(kJSPropertyAttributeNone)
    JSObjectSetProperty(context, JSContextGetGlobalObject(context), key, value, attributes, &exception)
    if let exception { throw ECMAScriptError(.exception, source: name, message: string(exception)) }
  }

  func deleteGlobal(_ name: String) {
    let key = JSStringCreateWithUTF8CString(name)
    defer { JSStringRelease(key) }
    _ = JSObjectDeleteProperty(context, JSContextGetGlobalObject(context), key, nil)
  }

  /// `undefined` (never `nil` for a live context).
  var undefined: JSValueRef { JSValueMakeUndefined(context)! }

  /// A value as JSON, or `nil` when it has none.
  func json(_ value: JSValueRef) -> String? {
    guard !JSValueIsUndefined(context, value) else { return nil }
    var exception: JSValueRef?
    guard let text = JSValueCreateJSONString(context, value, 0, &exception), exception == nil else { return nil }
    defer { JSStringRelease(text) }
    return Self.swiftString(text)
  }

  /// A value as the language writes it (`String(value)`).
  func string(_ value: JSValueRef) -> String {
    guard let text = JSValueToStringCopy(context, value, nil) else { return "(no text)" }
    defer { JSStringRelease(text) }
    return Self.swiftString(text)
  }

  static func swiftString(_ text: JSStringRef) -> String {
    let size = JSStringGetMaximumUTF8CStringSize(text)
    var buffer = [CChar](repeating: 0, count: size)
    let written = JSStringGetUTF8CString(text, &buffer, size)
    return String(decoding: buffer.prefix(max(0, written - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

}

extension ECMAScriptDatamodel {
  /// The watchdog's view of the evaluation running now: when it started, and why it was
  /// stopped. Read by JavaScriptCore's time-limit callback, on the thread
  /// running the script, between `begin()` and `end()`.
  final class Watch {
    let limits: ECMAScriptDatamodel.Limits
    let group: JSContextGroupRef
    /// Counts evaluations: the callback tells the one running from the one it saw before
    /// without a clock read per evaluation (a cond is evaluated on every step).
    var evaluation: UInt64 = 0
    /// The evaluation the callback last saw, and when it began (about: the callback first sees
    /// an evaluation once it has run one check interval).
    var seen: UInt64 = .max
    var started = ContinuousClock.now
    var stopped: ECMAScriptError.Kind?

    init(limits: ECMAScriptDatamodel.Limits, group: JSContextGroupRef) { (self.limits, self.group) = (limits, group) }

    /// Asks JavaScriptCore to call ``shouldStop()`` after every ``Limits/checkInterval`` of
    /// running script. (It calls back once per arming: a callback that lets the script go on
    /// arms it again.) The watch lives as long as its datamodel, which owns the group.
    func arm() {
      let interval = Double(Limits.checkInterval.components.attoseconds) / 1e18
      JSContextGroupSetExecutionTimeLimit(group, interval, { context, pointer in
        guard let pointer, let context else { return true }
        let watch = Unmanaged<Watch>.fromOpaque(pointer).takeUnretainedValue()
        if watch.shouldStop(heapBytes: Watch.heapBytes(context)) { return true }
        watch.arm()
        return false
      }, Unmanaged.passUnretained(self).toOpaque())
    }

    func begin() {
      evaluation &+= 1
      stopped = nil
    }

    /// Why the evaluation that just ended was stopped, if it was.
    func end() -> ECMAScriptError.Kind? { stopped }

    /// Whether the running evaluation is past a limit, its heap holding `heapBytes`.
    func shouldStop(heapBytes: Double) -> Bool {
      let now = ContinuousClock.now
      if seen != evaluation { (seen, started) = (evaluation, now - Limits.checkInterval) }
      if now - started > limits.time {
        stopped = .timeLimit
      } else if heapBytes > Double(limits.memory) {
        stopped = .memoryLimit
      }
      return stopped != nil
    }

    /// The bytes the script heap of `context`'s VM holds (its `heapSize` figure).
    static func heapBytes(_ context: JSContextRef) -> Double {
      guard let figures = JSGetMemoryUsageStatistics(context) else { return 0 }
      let key = JSStringCreateWithUTF8CString("heapSize")
      defer { JSStringRelease(key) }
      return JSValueToNumber(context, JSObjectGetProperty(context, figures, key, nil), nil)
    }
  }
}
#endif
