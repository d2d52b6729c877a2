import Foundation

/// The page `fsm view <machine>` writes without a log: a simulator. It draws the machine as a
/// session page does, shows the configuration reached by the path clicked so far, the events
/// it handles as buttons, and the path as a log `fsm replay` reads (to copy or download).
///
/// `#path=2.0.1` takes, from the start, the third event offered, then the first, then the
/// second (the page keeps the fragment up to date, so a path can be shared); `#node=K` takes a
/// shortest path to configuration K (as clicking it in the explored graph or its list does).
/// The elements `#configuration`, `#event` and `#log` hold where the path ends, its last event
/// and its log.
enum SimulatorPage {
  /// The page for `simulation`, drawn by `svg` (Graphviz's drawing) when given, else by boxes.
  static func html(_ simulation: Simulation, svg: String?, space: String?) -> String {
    let name = SessionPage.escaped(simulation.machine)
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      \(SessionPage.generator)
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(name) simulator</title>
      <style>
      \(SessionPage.style)
      #events button { margin: 2px; font-family: ui-monospace, monospace; }
      #log { width: 100%; font-family: ui-monospace, monospace; font-size: 12px; }
      .drawings { flex: 1 1 55%; overflow: auto; }
      #space svg { width: 100%; height: auto; max-height: 900px; }
      #space g.node { cursor: pointer; }
      #configurations { columns: 3; font-family: ui-monospace, monospace; font-size: 12px; }
      #configurations li { cursor: pointer; }
      #configurations li.selected { background: #bfdbfe; }
      </style>
      </head>
      <body>
      <header>
        <h1>\(name)</h1>
        <span id="summary"></span>
      </header>
      <main>
        <div class="drawings">
          <section id="diagram">\(svg.map(SessionPage.stripped) ?? "")</section>
          <section id="space">
            <h2>configurations explored (click one to go there by a shortest path)</h2>
            \(space.map(SessionPage.stripped) ?? "")
            <ol id="configurations" start="0"></ol>
          </section>
        </div>
        <section id="inspector">
          <div class="controls">
            <button id="back" title="← or Backspace">◀ back</button><button id="restart" title="Home">restart</button>
            <span id="position"></span>
          </div>
          \(SessionPage.fields(time: false))
          <h2>events handled here</h2>
          <div id="events"></div>
          <h2>context</h2>
          <pre id="context"></pre>
          <h2>path</h2>
          <ol id="path"></ol>
          <h2>the path as a log (<a id="download" download="\(name).session.jsonl" href="#">download</a>; <code>fsm replay</code> reads it)</h2>
          <textarea id="log" rows="8" readonly></textarea>
        </section>
      </main>
      <script type="application/json" id="simulation">\(SessionPage.scriptSafe(json(simulation)))</script>
      <script>
      \(SessionPage.diagramScript)
      \(script)
      </script>
      </body>
      </html>

      """
  }

  /// The most configurations whose explored graph the page draws (more are only listed).
  static let drawnConfigurations = 150

  /// The simulation as the page's script reads it.
  static func json(_ simulation: Simulation) -> String {
    let object: [String: Any] = [
      "machine": simulation.machine, "header": simulation.header, "truncated": simulation.truncated, "startLines": simulation.startLines,
      "reachedBy": simulation.reachedBy.map { by -> Any in by.map { [$0.node, $0.edge] } ?? NSNull() },
      "states": simulation.states.map(SessionPage.tree),
      "nodes": simulation.nodes.map { ["configuration": $0.configuration, "active": $0.active, "state": $0.state, "context": $0.context] },
      "edges": simulation.edges.map { edges in
        edges.map { edge in
          var object: [String: Any] = [
            "event": edge.event.text, "eventJSON": edge.event.json, "outcome": edge.outcome, "effects": edge.effects.json,
            "effectsShown": edge.effects.text, "to": edge.to,
          ]
          if let lines = edge.lines { object["lines"] = lines }
          return object
        }
      },
    ]
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  /// The page's script: follows the path the URL names, offers the events handled where it
  /// ends, and writes the path as a log.
  static let script = """
    (function () {
      "use strict";
      const data = JSON.parse(document.getElementById("simulation").textContent);
      const light = fsmDiagram(data.states);
      const $ = (id) => document.getElementById(id);
      $("summary").textContent = "simulator: " + data.nodes.length + " configuration" + (data.nodes.length === 1 ? "" : "s") +
        " explored" + (data.truncated ? " (limit reached: greyed events go past it)" : "");
      let path = [];
      // A shortest path to configuration k: how each one on the way was first reached.
      function pathTo(k) {
        const indices = [];
        for (let at = k; data.reachedBy[at]; at = data.reachedBy[at][0]) indices.unshift(data.reachedBy[at][1]);
        return indices;
      }
      const items = [];
      const list = $("configurations");
      data.nodes.forEach((node, k) => {
        const item = document.createElement("li");
        item.dataset.node = String(k);
        item.textContent = node.configuration;
        item.title = node.context;
        item.addEventListener("click", () => { path = pathTo(k); show(); });
        list.appendChild(item);
        items.push(item);
      });
      const drawn = new Map();
      for (const g of document.querySelectorAll("#space svg g.node")) {
        const title = g.querySelector("title");
        const k = title ? Number(title.textContent.trim().slice(1)) : NaN;
        if (!Number.isInteger(k)) continue;
        drawn.set(k, g);
        g.addEventListener("click", () => { path = pathTo(k); show(); });
      }
      let selected = -1;
      // The indices that can be followed from the start (a path cut where it stops making sense).
      function followed(indices) {
        const taken = [];
        let at = 0;
        for (const k of indices) {
          const edge = data.edges[at][k];
          if (!edge || edge.to < 0) break;
          taken.push(k);
          at = edge.to;
        }
        return taken;
      }
      function log() {
        const lines = [data.header];
        // The root's entries are numbered from 1; each child's steps from 1 in its own store,
        // again from 1 when a step invokes a child of that path anew.
        let entries = 0;
        const childSteps = new Map();
        // The line with its own (top-level) sequence set: spliced into the text, which is
        // otherwise kept as written (parsed only to read, so no number loses its digits).
        function numbered(text) {
          const line = JSON.parse(text);
          // A child's end is not a step: it has no number.
          if (line.ended !== undefined) return text;
          let sequence;
          if (line.child === undefined) { sequence = ++entries; } else {
            sequence = (childSteps.get(line.child) || 0) + 1;
            childSteps.set(line.child, sequence);
          }
          for (const effect of line.effects || []) {
            if (effect && effect.invoke) childSteps.set((line.child === undefined ? "" : line.child + "/") + effect.invoke.id, 0);
          }
          let depth = 0, quoted = false;
          for (let i = 0; i < text.length; i++) {
            const c = text[i];
            if (quoted) { if (c === "\\\\") i++; else if (c === '"') quoted = false; continue; }
            if (c === '"') {
              if (depth === 1 && text.startsWith('"sequence":', i)) {
                const start = i + 11;
                let end = start;
                while (end < text.length && /[0-9]/.test(text[end])) end++;
                return text.slice(0, start) + sequence + text.slice(end);
              }
              quoted = true;
            } else if (c === "{" || c === "[") depth++;
            else if (c === "}" || c === "]") depth--;
          }
          return text;
        }
        for (const text of data.startLines) lines.push(numbered(text));
        let at = 0;
        path.forEach((k) => {
          const edge = data.edges[at][k], to = data.nodes[edge.to];
          if (edge.lines) { for (const text of edge.lines) lines.push(numbered(text)); } else {
            lines.push('{"context":' + to.context + ',"effects":' + edge.effects + ',"event":' + edge.eventJSON + ',"outcome":' + edge.outcome +
              ',"sequence":' + (++entries) + ',"state":' + to.state + "}");
          }
          at = edge.to;
        });
        return lines.join("\\n") + "\\n";
      }
      function show() {
        let at = 0, last = null;
        const list = $("path");
        list.replaceChildren();
        for (const k of path) {
          last = data.edges[at][k];
          const item = document.createElement("li");
          item.textContent = last.event + " → " + data.nodes[last.to].configuration;
          list.appendChild(item);
          at = last.to;
        }
        const here = data.nodes[at];
        if (selected >= 0) { items[selected].classList.remove("selected"); drawn.get(selected)?.classList.remove("active"); }
        selected = at;
        items[at].classList.add("selected");
        drawn.get(at)?.classList.add("active");
        $("event").textContent = last ? last.event : "";
        $("configuration").textContent = here.configuration;
        $("outcome").textContent = last ? JSON.parse(last.outcome) : "";
        $("effects").textContent = last ? last.effectsShown : "";
        let context = here.context;
        try { context = JSON.stringify(JSON.parse(here.context), null, 2); } catch (e) {}
        $("context").textContent = context;
        $("position").textContent = "step " + path.length;
        light(here.active);
        const buttons = $("events");
        buttons.replaceChildren();
        data.edges[at].forEach((edge, k) => {
          const button = document.createElement("button");
          button.textContent = edge.event;
          button.dataset.edge = String(k);
          button.title = edge.to < 0 ? "past the explored limit" : "→ " + data.nodes[edge.to].configuration;
          button.disabled = edge.to < 0;
          button.addEventListener("click", () => { path.push(k); show(); });
          buttons.appendChild(button);
        });
        if (data.edges[at].length === 0) buttons.textContent = "(no event of the alphabet is handled here)";
        const text = log();
        $("log").value = text;
        $("log").textContent = text;
        $("download").href = "data:application/x-ndjson;charset=utf-8," + encodeURIComponent(text);
        const hash = "#path=" + path.join(".");
        if (location.hash !== hash) history.replaceState(null, "", hash);
      }
      function fromHash() {
        const node = /node=([0-9]+)/.exec(location.hash);
        if (node && Number(node[1]) < data.nodes.length) return pathTo(Number(node[1]));
        const match = /path=([0-9.]*)/.exec(location.hash);
        return match && match[1] !== "" ? followed(match[1].split(".").map(Number)) : [];
      }
      $("back").addEventListener("click", () => { path.pop(); show(); });
      $("restart").addEventListener("click", () => { path = []; show(); });
      window.addEventListener("hashchange", () => { const wanted = fromHash(); if (wanted.join(".") !== path.join(".")) { path = wanted; show(); } });
      document.addEventListener("keydown", (event) => {
        if (event.key === "ArrowLeft" || event.key === "Backspace") { event.preventDefault(); path.pop(); show(); }
        if (event.key === "Home") { event.preventDefault(); path = []; show(); }
      });
      path = fromHash();
      show();
    })();
    """
}
