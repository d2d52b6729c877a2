import Foundation
import StateMachine

/// The page `fsm view` writes: one self-contained HTML file (its script, style, data and
/// drawing inline; nothing fetched), which works from `file://`.
///
/// The session's steps are kept as arrays in one JSON block, not as elements: the page shows
/// the selected step and a window of the timeline around it, so a long log opens and jumps as
/// fast as a short one. `#step=N` selects step N (0 is where the log starts); the elements
/// `#configuration` and `#event` hold the selected step's active states and event.
package enum SessionPage {
  /// What marks a page as `fsm view`'s (so writing it again may replace it).
  static let generator = #"<meta name="generator" content="fsm view">"#

  /// The page for `session`, drawn by `svg` (Graphviz's drawing of the machine) when given,
  /// else by the page itself as nested boxes.
  package static func html(_ session: SessionSteps, svg: String?) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    \(generator)
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(escaped(session.machine)) session</title>
    <style>
    \(style)
    </style>
    </head>
    <body>
    <header>
      <h1>\(escaped(session.machine))</h1>
      <span id="summary"></span>
    </header>
    <main>
      <section id="diagram">\(svg.map(stripped) ?? "")</section>
      <section id="inspector">
        <div class="controls">
          <button id="first" title="Home">|◀</button><button id="previous" title="←">◀</button>
          <input id="slider" type="range" min="0" value="0" aria-label="step">
          <button id="next" title="→">▶</button><button id="last" title="End">▶|</button>
          <span id="position"></span>
        </div>
        \(fields(time: true))
        <div id="divergence" hidden></div>
        <div id="machines" hidden><h2>child machines</h2><table id="lanes"><tbody></tbody></table></div>
        <h2>context</h2>
        <pre id="context"></pre>
        <h2>timeline</h2>
        <table id="timeline"><thead><tr><th>#</th><th>time</th><th>event</th><th>from → to</th><th>effects</th></tr></thead><tbody></tbody></table>
      </section>
    </main>
    <script type="application/json" id="session">\(scriptSafe(json(session)))</script>
    <script>
    \(diagramScript)
    \(script)
    </script>
    </body>
    </html>

    """
  }

  /// The selected step's fields (both pages show them; a simulator's steps have no time).
  static func fields(time: Bool) -> String {
    let names = [("event", "event"), ("active states", "configuration"), ("outcome", "outcome"), ("effects", "effects")] + (time ? [("time", "time")] : [])
    return "<dl>" + names.map { "<dt>\($0.0)</dt><dd id=\"\($0.1)\"></dd>" }.joined() + "</dl>"
  }

  /// The session's data as the page's script reads it: each step's texts as numbers into one
  /// table of the distinct texts (a long session repeats its events, states and effects), so
  /// the page reads a few arrays of numbers, not a hundred thousand objects.
  static func json(_ session: SessionSteps) -> String {
    var strings: [String] = []
    var numbers: [String: Int] = [:]
    func number(_ text: String) -> Int {
      if let known = numbers[text] { return known }
      numbers[text] = strings.count
      strings.append(text)
      return strings.count - 1
    }
    let columns: [String: [Double]] = [
      "event": session.events.map(number), "configuration": session.configurations.map(number),
      "active": session.active.map { number($0.joined(separator: "\n")) }, "outcome": session.outcomes.map(number),
      "effects": session.effects.map { number($0.joined(separator: ", ")) }, "context": session.contexts.map(number),
    ].mapValues { $0.map(Double.init) }
    var object: [String: Any] = ["machine": session.machine, "states": session.states.map(tree)]
    for (name, column) in columns { object[name] = packed(column) }
    object["time"] = packed(session.times.map { $0 ?? -1 })
    object["lanes"] = session.lanes.map { lane -> [String: Any] in
      ["path": lane.path, "after": lane.after, "event": lane.events.map(number), "state": lane.states.map(number)]
    }
    // The texts as one string and where each starts (in UTF-16 units, as the script indexes
    // strings): read as one value, however many there are.
    var offsets: [Double] = [0]
    offsets.reserveCapacity(strings.count + 1)
    for text in strings { offsets.append(offsets[offsets.count - 1] + Double(text.utf16.count)) }
    object["text"] = strings.joined()
    object["offsets"] = packed(offsets)
    if let divergence = session.divergence, let step = session.divergenceStep {
      object["divergence"] = [
        "step": step, "event": divergence.machine.map { "child \($0), step \(divergence.sequence): \(divergence.event)" } ?? divergence.event,
        "differences": divergence.differences.map { ["field": $0.field, "expected": $0.expected, "actual": $0.actual] },
      ]
    }
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  /// A state and its children as the pages' script reads them.
  static func tree(_ node: SessionState) -> [String: Any] {
    ["name": node.name, "kind": node.kind, "children": node.children.map(tree)]
  }

  /// A column of numbers as the page unpacks it: `[0, values…]`, or, when shorter, runs that
  /// step by the same amount, `[1, first, step, count, …]` (a column of one event, or a clock
  /// that ticks by a second, is one run).
  static func packed(_ values: [Double]) -> [Double] {
    var runs: [Double] = [1]
    var i = 0
    while i < values.count && runs.count < values.count + 1 {
      let step = i + 1 < values.count ? values[i + 1] - values[i] : 0
      var end = i + 1
      while end < values.count, values[end] - values[end - 1] == step { end += 1 }
      runs += [values[i], step, Double(end - i)]
      i = end
    }
    return i == values.count && runs.count < values.count + 1 ? runs : [0] + values
  }

  /// Text for HTML.
  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
      .replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// JSON inside a `<script>` element, with every `<` written `\u003c` (JSON has `<` only in
  /// its strings, where the escape reads back the same): no `</script>` closes the element
  /// early, and no `<!--<script>` in a string (a user's text in a context) makes the parser
  /// take the element's real end for text and swallow the page's script after it.
  static func scriptSafe(_ json: String) -> String { json.replacingOccurrences(of: "<", with: "\\u003c") }

  /// Graphviz's SVG without its XML prologue and doctype (the page is HTML).
  static func stripped(_ svg: String) -> String {
    guard let start = svg.range(of: "<svg") else { return "" }
    return String(svg[start.lowerBound...])
  }
}
