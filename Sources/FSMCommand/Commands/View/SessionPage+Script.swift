extension SessionPage {
  /// The page's style.
  static let style = """
    body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 0; color: #222; }
    header { padding: 8px 16px; background: #f4f4f6; border-bottom: 1px solid #ddd; display: flex; gap: 16px; align-items: baseline; }
    h1 { font-size: 18px; margin: 0; }
    h2 { font-size: 14px; margin: 12px 0 4px; }
    main { display: flex; gap: 16px; padding: 16px; align-items: flex-start; }
    #diagram { flex: 1 1 55%; overflow: auto; }
    #diagram svg { max-width: 100%; height: auto; }
    #inspector { flex: 1 1 45%; min-width: 320px; }
    .controls { display: flex; gap: 4px; align-items: center; }
    #slider { flex: 1; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; }
    dt { color: #666; }
    dd { margin: 0; font-family: ui-monospace, monospace; word-break: break-word; }
    pre { background: #f8f8f8; padding: 8px; max-height: 240px; overflow: auto; margin: 0; }
    table { border-collapse: collapse; width: 100%; font-size: 12px; }
    td, th { text-align: left; padding: 2px 6px; border-bottom: 1px solid #eee; }
    tr.selected { background: #dbeafe; }
    tr.diverged td:first-child { color: #b91c1c; font-weight: bold; }
    #divergence { border: 2px solid #b91c1c; padding: 6px; margin-top: 8px; }
    #divergence table td { vertical-align: top; font-family: ui-monospace, monospace; }
    g.node.active > path, g.node.active > polygon, g.node.active > ellipse { fill: #bfdbfe; stroke: #1d4ed8; stroke-width: 2.5; }
    g.cluster.active > path, g.cluster.active > polygon { stroke: #1d4ed8; stroke-width: 2.5; }
    .box { border: 1px solid #888; border-radius: 6px; padding: 4px 6px; margin: 4px; background: #fff; }
    .box.active { background: #bfdbfe; border: 2px solid #1d4ed8; }
    .box.final { border-style: double; border-width: 3px; }
    .box > .children { display: flex; flex-direction: column; }
    .box.parallel > .children { flex-direction: row; }
    .box.parallel > .children > .box { border-style: dashed; flex: 1; }
    .label { font-weight: 600; }
    """

  /// Draws the machine (Graphviz's drawing when the page has one, else nested boxes) and
  /// returns how to light the active states (each with its ancestors): shared by the session
  /// and the simulator pages.
  static let diagramScript = """
    function fsmDiagram(states) {
      "use strict";
      let lit = [];
      const parentOf = new Map();
      (function walk(nodes, parent) {
        for (const node of nodes) { parentOf.set(node.name, parent); walk(node.children, node.name); }
      })(states, null);
      // What draws each state: Graphviz's nodes and clusters by their label, or the boxes.
      const drawn = new Map();
      const svg = document.querySelector("#diagram svg");
      if (svg) {
        for (const g of svg.querySelectorAll("g.node, g.cluster")) {
          const text = g.querySelector("text");
          if (text) drawn.set(text.textContent.trim(), g);
        }
      } else {
        const box = (node) => {
          const div = document.createElement("div");
          div.className = "box " + node.kind;
          div.dataset.state = node.name;
          const label = document.createElement("div");
          label.className = "label";
          label.textContent = node.name;
          div.appendChild(label);
          const children = document.createElement("div");
          children.className = "children";
          for (const child of node.children) children.appendChild(box(child));
          div.appendChild(children);
          drawn.set(node.name, div);
          return div;
        };
        const root = document.createElement("div");
        root.className = "box parallel";
        const top = document.createElement("div");
        top.className = "children";
        for (const node of states) top.appendChild(box(node));
        root.appendChild(top);
        document.getElementById("diagram").appendChild(root);
      }
      function light(names) {
        for (const element of lit) element.classList.remove("active");
        lit = [];
        const all = new Set();
        for (let name of names) { while (name !== null && name !== undefined && !all.has(name)) { all.add(name); name = parentOf.get(name); } }
        for (const name of all) { const element = drawn.get(name); if (element) { element.classList.add("active"); lit.push(element); } }
      }
      return light;
    }
    """

  /// The page's script: reads the session, draws the boxes when no drawing came with it, and
  /// shows the step the URL names, the slider or the keys choose.
  static let script = """
    (function () {
      "use strict";
      const started = performance.now();
      const data = JSON.parse(document.getElementById("session").textContent);
      // Each column unpacked into an array of numbers (see SessionPage.packed).
      const unpack = (packed) => {
        if (packed[0] === 0) return packed.slice(1);
        let total = 0;
        for (let k = 3; k < packed.length; k += 3) total += packed[k];
        const values = new Float64Array(total);
        let at = 0;
        for (let k = 1; k < packed.length; k += 3) {
          for (let n = 0; n < packed[k + 2]; n++) values[at++] = packed[k] + n * packed[k + 1];
        }
        return values;
      };
      for (const name of ["event", "configuration", "active", "outcome", "effects", "context", "time", "offsets"]) data[name] = unpack(data[name]);
      const S = { at: (k) => data.text.substring(data.offsets[k], data.offsets[k + 1]) };
      const count = data.event.length;
      const text = (field, i) => S.at(data[field][i]);
      const $ = (id) => document.getElementById(id);
      const light = fsmDiagram(data.states);
      const slider = $("slider");
      slider.max = String(count - 1);
      const diverged = data.divergence ? data.divergence.step : -1;
      $("summary").textContent = (count - 1) + " steps" + (diverged >= 0 ? ", diverges at step " + diverged : ", replays identically");
      let current = -1;
      function time(i) { const t = data.time[i]; return t < 0 ? "" : t.toFixed(1) + " s"; }
      // A context as JSON, laid out when shown.
      function context(i) { const raw = text("context", i); try { return JSON.stringify(JSON.parse(raw), null, 2); } catch (e) { return raw; } }
      function row(i) {
        const tr = document.createElement("tr");
        if (i === current) tr.className = "selected";
        if (i === diverged) tr.classList.add("diverged");
        const from = i > 0 ? text("configuration", i - 1) : "";
        const to = text("configuration", i);
        for (const cell of [String(i), time(i), i === 0 ? "(start)" : text("event", i), i === 0 ? to : from + " → " + to, text("effects", i)]) {
          const td = document.createElement("td");
          td.textContent = cell;
          tr.appendChild(td);
        }
        tr.addEventListener("click", () => show(i));
        return tr;
      }
      function timeline() {
        // A window of rows around the selected step: a long log keeps a few elements only.
        const body = document.querySelector("#timeline tbody");
        body.replaceChildren();
        const start = Math.max(0, current - 10), end = Math.min(count, start + 21);
        for (let i = start; i < end; i++) body.appendChild(row(i));
      }
      function divergence(i) {
        const box = $("divergence");
        if (i !== diverged) { box.hidden = true; return; }
        box.hidden = false;
        box.replaceChildren();
        const title = document.createElement("strong");
        title.textContent = "The machine diverges from the log here (" + data.divergence.event + ")";
        box.appendChild(title);
        const table = document.createElement("table");
        const head = document.createElement("tr");
        for (const text of ["field", "the log", "the machine"]) { const th = document.createElement("th"); th.textContent = text; head.appendChild(th); }
        table.appendChild(head);
        for (const difference of data.divergence.differences) {
          const tr = document.createElement("tr");
          for (const text of [difference.field, difference.expected, difference.actual]) { const td = document.createElement("td"); td.textContent = text; tr.appendChild(td); }
          table.appendChild(tr);
        }
        box.appendChild(table);
      }
      // A system's children, one lane each: where each was at the selected step (its lines
      // logged before the step's entry), and the steps it took since the step before.
      function lanes(i) {
        if (data.lanes.length === 0) return;
        $("machines").hidden = false;
        const body = document.querySelector("#lanes tbody");
        body.replaceChildren();
        for (const lane of data.lanes) {
          let low = 0, high = lane.after.length;
          while (low < high) { const middle = (low + high) >> 1; if (lane.after[middle] < i) low = middle + 1; else high = middle; }
          const last = low - 1;
          const now = [];
          for (let k = last; k >= 0 && lane.after[k] === i - 1; k--) now.unshift(S.at(lane.event[k]));
          const tr = document.createElement("tr");
          tr.dataset.path = lane.path;
          if (now.length > 0) tr.className = "selected";
          for (const cell of [lane.path, last >= 0 ? S.at(lane.state[last]) : "(not stepped)", now.join(", ")]) {
            const td = document.createElement("td");
            td.textContent = cell;
            tr.appendChild(td);
          }
          body.appendChild(tr);
        }
      }
      function show(step) {
        const i = Math.max(0, Math.min(count - 1, Number.isFinite(step) ? step : 0));
        current = i;
        $("event").textContent = i === 0 ? "" : text("event", i);
        $("configuration").textContent = text("configuration", i);
        $("outcome").textContent = text("outcome", i);
        $("effects").textContent = text("effects", i);
        $("time").textContent = time(i);
        $("context").textContent = context(i);
        $("position").textContent = "step " + i + " of " + (count - 1);
        slider.value = String(i);
        const active = text("active", i);
        light(active === "" ? [] : active.split("\\n"));
        divergence(i);
        lanes(i);
        timeline();
        const hash = "#step=" + i;
        if (location.hash !== hash) history.replaceState(null, "", hash);
      }
      function fromHash() { const match = /step=(\\d+)/.exec(location.hash); return match ? Number(match[1]) : 0; }
      slider.addEventListener("input", () => show(Number(slider.value)));
      $("first").addEventListener("click", () => show(0));
      $("previous").addEventListener("click", () => show(current - 1));
      $("next").addEventListener("click", () => show(current + 1));
      $("last").addEventListener("click", () => show(count - 1));
      window.addEventListener("hashchange", () => show(fromHash()));
      document.addEventListener("keydown", (event) => {
        if (event.target === slider && (event.key === "ArrowLeft" || event.key === "ArrowRight")) return;
        const keys = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 };
        if (event.key in keys) { event.preventDefault(); show(keys[event.key]); }
      });
      show(fromHash());
      // How long opening at the step the URL names took (the data read, the diagram lit, the
      // step shown), for whoever measures the page.
      document.body.dataset.shownMs = (performance.now() - started).toFixed(1);
    })();
    """
}
