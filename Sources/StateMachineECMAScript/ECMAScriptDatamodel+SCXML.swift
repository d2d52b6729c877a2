#if ECMAScript
import CJavaScriptCore
import Foundation
package import StateMachine

/// What an SCXML session's content asks of the datamodel (see `SCXMLScriptEngine`): the
/// ECMAScript datamodel of the recommendation's section B.2.
extension ECMAScriptDatamodel: SCXMLScriptEngine {
  /// The value of `expression` as a string (`String(value)`), as `<log>` shows it.
  package func text(of expression: String) throws(ECMAScriptError) -> String {
    string(try value(of: expression))
  }

  /// The elements of an array, or the values of an object, each as JSON (`nil`: no JSON
  /// form), copied before a `<foreach>` runs: its body may change the collection.
  package func elements(of expression: String) throws(ECMAScriptError) -> [String?] {
    let collection = try value(of: expression)
    guard JSValueIsObject(context, collection), !JSValueIsNull(context, collection) else {
      throw ECMAScriptError(.exception, source: expression, message: "not an array or an object; expected a collection to iterate")
    }
    try setGlobal(Self.pending, collection, readOnly: false)
    defer { deleteGlobal(Self.pending) }
    let copied = try evaluated(
      "JSON.stringify(Object.values(\(Self.pending)).map(function (e) { var t = JSON.stringify(e); return t === undefined ? null : t; }))",
      source: expression)
    guard let items = (try? JSONSerialization.jsonObject(with: Data(string(copied).utf8))) as? [Any]
    else { throw ECMAScriptError(.notJSON, source: expression, message: "its elements cannot be copied") }
    return items.map { $0 as? String }
  }

  /// Assigns a value given as JSON (`nil`: `undefined`) to `location`.
  package func assign(_ location: String, json: String?) throws(ECMAScriptError) {
    try assign(location, value: try json.map { (text) throws(ECMAScriptError) in try parsed(text, source: location) } ?? undefined)
  }

  /// Whether `location` can be read (a declared name, or a property path of one).
  package func isDeclared(_ location: String) -> Bool {
    (try? run("\(location);", source: location)) != nil
  }

  /// `_event` becomes `event`: every field present, `undefined` where the event has no value.
  package func setEvent(_ event: SCXMLEvent?) throws(ECMAScriptError) {
    guard let event else {
      deleteGlobal("_event")
      return try setGlobal("_event", undefined, readOnly: true)
    }
    func field(_ value: String?) -> String { value.map(SCXMLValueText.quoted) ?? "undefined" }
    let object = try evaluated(
      "({name: \(SCXMLValueText.quoted(event.name)), type: \(SCXMLValueText.quoted(event.type.rawValue)), sendid: \(field(event.sendid)), "
        + "origin: \(field(event.origin)), origintype: \(field(event.origintype)), invokeid: \(field(event.invokeid)), "
        + "data: \(event.data.map(Self.expression(ofJSON:)) ?? "undefined")\n})",
      source: "_event")
    deleteGlobal("_event")
    try setGlobal("_event", object, readOnly: true)
  }

  /// Whether a JSON value holds XML values (marked `{"$xml": tree}`: see `SCXMLValueText`).
  static func holdsXML(_ json: String) -> Bool { json.contains(#""$xml""#) }

  /// An expression of a JSON value: the JSON itself, or, when it holds XML values, the JSON
  /// with those made DOM nodes.
  static func expression(ofJSON json: String) -> String { holdsXML(json) ? revived(json) : json }

  /// The expression of a JSON value holding XML values, with those made DOM nodes.
  static func revived(_ json: String) -> String { "\(reviver)(\(json)\n)" }

  /// A function that turns the XML values in a JSON value (marked `{"$xml": tree}`) into DOM
  /// nodes: `tagName`, `attributes`, `textContent`, `childNodes`, `getAttribute(name)` and
  /// `getElementsByTagName(name)` (descendants, `*` for all), what SCXML documents read of XML.
  static let reviver = """
    (function (value) {
      function node(t) {
        var n = { tagName: t.tag, nodeName: t.tag, attributes: t.attributes, textContent: t.text, childNodes: t.children.map(node) };
        n.getAttribute = function (a) { return Object.prototype.hasOwnProperty.call(n.attributes, a) ? n.attributes[a] : null; };
        n.getElementsByTagName = function (name) {
          var found = [];
          (function walk(x) { x.childNodes.forEach(function (c) { if (name === '*' || c.tagName === name) found.push(c); walk(c); }); })(n);
          return found;
        };
        return n;
      }
      function revive(v) {
        if (v === null || typeof v !== 'object') return v;
        if (Object.keys(v).length === 1 && v.$xml) return node(v.$xml);
        Object.keys(v).forEach(function (k) { v[k] = revive(v[k]); });
        return v;
      }
      return revive(value);
    })
    """

  /// Marks the state `id` active or not for `In(id)`.
  package func setActive(_ id: String, _ isActive: Bool) {
    if active == nil {
      let made = try? evaluated(
        "(function () { var a = Object.create(null); Object.defineProperty(globalThis, 'In', "
          + "{ value: function In(id) { return a[id] === true; } }); return a; })()",
        source: "In")
      guard let made, let object = JSValueToObject(context, made, nil) else { return }
      JSValueProtect(context, object)
      active = object
    }
    let key = JSStringCreateWithUTF8CString(id)
    defer { JSStringRelease(key) }
    JSObjectSetProperty(context, active, key, JSValueMakeBoolean(context, isActive), JSPropertyAttributes(kJSPropertyAttributeNone), nil)
  }
}
#endif
