// The search-tree view: draws each embedded trace as inline SVG, steps through the search,
// compares the methods and shows a student's agent beside the expected search.
// The layout rule is pacman.tree_placement.place_tree's, ported line for line.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("tree-data").textContent);
  const G = DATA.geometry;
  const STUB_WIDTH = 0.6;
  const markClasses = (mark) => (mark || "").split(" ").filter(Boolean).map((m) => " mark-" + m).join("");
  const SVGNS = "http://www.w3.org/2000/svg";

  function pvIds(view) {
    const nodes = view.nodes;
    const line = [0];
    for (const [, action] of view.principal_variation) {
      const here = nodes[line[line.length - 1]];
      const step = here.children.find((c) => nodes[c].action === action);
      if (step === undefined) break;
      line.push(step);
    }
    return line;
  }

  function size(nodes, n) {
    let total = 0;
    const stack = [n];
    while (stack.length) { total += 1; stack.push(...nodes[stack.pop()].children); }
    return total;
  }

  // pacman.tree_placement.place_tree: [{id, x, y, parent, hidden, onPv}], parents first.
  function layoutTree(view, maxShown, expanded) {
    const nodes = view.nodes;
    const pv = pvIds(view);
    const shown = new Set(pv);
    const forced = [...expanded].filter((n) => n >= 0 && n < nodes.length).sort((a, b) => a - b);
    for (const n of forced) {
      shown.add(n);
      for (const c of nodes[n].children) shown.add(c);
      let p = nodes[n].parent;
      while (p !== null) { shown.add(p); p = nodes[p].parent; }
    }
    const queue = [0];
    for (let head = 0; head < queue.length; head++) {
      for (const c of nodes[queue[head]].children) {
        if (!shown.has(c) && shown.size < maxShown) shown.add(c);
        if (shown.has(c)) queue.push(c);
      }
    }
    const onPv = new Set(pv);
    const items = [];
    let cursor = 0;
    function place(n, parent) {
      const node = nodes[n];
      const index = items.length;
      items.push(null);
      const xs = [];
      let hidden = 0;
      for (const c of node.children) if (!shown.has(c)) hidden += size(nodes, c);
      for (const c of node.children) {
        if (!shown.has(c)) continue;
        xs.push(items.length);
        place(c, index);
      }
      if (hidden) {
        xs.push(items.length);
        items.push({id: n, x: cursor, y: node.ply + 1, parent: index, hidden: hidden, onPv: false});
        cursor += 1;
      }
      let x;
      if (xs.length) { x = (items[xs[0]].x + items[xs[xs.length - 1]].x) / 2; }
      else { x = cursor; cursor += 1; }
      const skipped = node.cut ? node.cut.skipped.length : 0;
      if (skipped) {
        const last = xs.length ? items[xs[xs.length - 1]].x : x;
        cursor = Math.max(cursor, last + 1 + STUB_WIDTH * skipped);
      }
      items[index] = {id: n, x: x, y: node.ply, parent: parent, hidden: 0, onPv: onPv.has(n)};
    }
    place(0, null);
    return items;
  }
  window.treeLayout = function (viewIndex, maxShown, expanded) {
    return layoutTree(DATA.views[viewIndex], maxShown, new Set(expanded))
      .map((i) => [i.id, i.x, i.y, i.parent, i.hidden, i.onPv]);
  };

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function shape(kind, x, y, css) {
    const r = 15;
    if (kind === "max") {
      return svg("polygon", {class: css, points: `${x},${y - r} ${x + r},${y + r * 0.8} ${x - r},${y + r * 0.8}`});
    }
    if (kind === "min") {
      return svg("polygon", {class: css, points: `${x - r},${y - r * 0.8} ${x + r},${y - r * 0.8} ${x},${y + r}`});
    }
    if (kind === "chance") return svg("circle", {class: css, cx: x, cy: y, r: r});
    return svg("rect", {class: css, x: x - r * 0.8, y: y - r * 0.8, width: r * 1.6, height: r * 1.6});
  }

  // What is known after the first `position` steps (0: the finished search).
  function knowledge(view, position) {
    const k = {seen: new Set(), value: {}, alpha: {}, beta: {}, cut: new Set(), current: null};
    if (position === 0) {
      for (const n of view.nodes) {
        k.seen.add(n.id);
        k.value[n.id] = n.value;
        if (n.alpha !== undefined) { k.alpha[n.id] = n.alpha; k.beta[n.id] = n.beta; }
        if (n.cut) k.cut.add(n.id);
      }
      return k;
    }
    for (const event of view.events.slice(0, position)) {
      for (const [n, field, text] of event.set) {
        if (field === "seen") k.seen.add(n);
        else if (field === "cut") k.cut.add(n);
        else k[field][n] = text;
      }
    }
    k.current = view.events[position - 1].node;
    return k;
  }

  // One drawn tree: state (expanded groups, step position) and its <svg>.
  class Tree {
    constructor(view, host, options) {
      this.view = view;
      this.host = host;
      this.options = options;
      this.expanded = new Set();
      this.position = 0;
    }
    draw() {
      const view = this.view;
      const nodes = view.nodes;
      const items = layoutTree(view, view.max_shown, this.expanded);
      const k = knowledge(view, this.position);
      const px = (x) => G.margin + x * G.slot;
      const py = (y) => G.margin + y * G.row;
      let width = 1;
      const stubs = items.map((item, index) => {
        if (item.hidden || !nodes[item.id].cut) return [];
        const kids = items.filter((c) => c.parent === index).map((c) => c.x);
        const last = kids.length ? Math.max(...kids) : item.x;
        return nodes[item.id].cut.skipped.map((_, s) => last + STUB_WIDTH * (s + 1));
      });
      items.forEach((item, index) => { width = Math.max(width, item.x + 1, ...stubs[index].map((s) => s + 1)); });
      const height = Math.max(...items.map((i) => i.y)) + 1;
      const root = svg("svg", {width: px(width) + G.margin, height: py(height - 1) + 50, class: "tree"});
      const marks = view.marks || {};
      const shownIds = new Set(items.filter((i) => !i.hidden).map((i) => i.id));
      let currentGroup = null;
      if (k.current !== null && !shownIds.has(k.current)) {
        let p = nodes[k.current].parent;
        while (p !== null && !shownIds.has(p)) p = nodes[p].parent;
        currentGroup = p;
      }
      const edges = svg("g", {class: "edges"});
      const body = svg("g", {class: "nodes"});
      root.append(edges, body);
      items.forEach((item, index) => {
        const x = px(item.x), y = py(item.y);
        if (item.parent !== null) {
          const parent = items[item.parent];
          const seen = item.hidden || k.seen.has(item.id);
          let css = "edge";
          if (item.hidden) css += " group-edge";
          else if (item.onPv && parent.onPv && this.position === 0 && !this.options.hideValues) css += " pv";
          if (!seen) css += " unseen";
          css += markClasses(marks[item.id]);
          const below = nodes[parent.id].alpha !== undefined && !this.options.hideValues ? 32 : 15;
          edges.append(svg("line", {class: css, x1: px(parent.x), y1: py(parent.y) + below, x2: x, y2: y - 15}));
          if (!item.hidden) {
            edges.append(svg("text", {class: "action" + (seen ? "" : " unseen"),
              x: (px(parent.x) + x) / 2 + 3, y: (py(parent.y) + y) / 2}, nodes[item.id].action));
          }
        }
        if (item.hidden) {
          const g = svg("g", {class: "group" + (currentGroup === item.id ? " current" : ""),
            "data-group": item.id, tabindex: "0", role: "button"});
          g.append(svg("rect", {x: x - 22, y: y - 12, width: 44, height: 24, rx: 5}),
            svg("text", {x: x, y: y + 4, "text-anchor": "middle"}, "+" + item.hidden),
            svg("title", {}, `${item.hidden} more nodes under ${nodes[item.id].name}: click to show`));
          g.addEventListener("click", () => { this.expanded.add(item.id); this.draw(); });
          body.append(g);
          return;
        }
        const node = nodes[item.id];
        const seen = k.seen.has(item.id);
        const g = svg("g", {class: "item" + (seen ? "" : " unseen") + (k.current === item.id ? " current" : "") +
          markClasses(marks[item.id]), "data-node": item.id});
        let css = "node kind-" + node.kind;
        if (item.onPv && this.position === 0 && !this.options.hideValues) css += " pv";
        g.append(shape(node.kind, x, y, css));
        g.append(svg("text", {class: "name", x: x, y: y - 19, "text-anchor": "middle"}, node.short));
        if (!this.options.hideValues) {
          g.append(svg("text", {class: "value", x: x, y: y + 4, "text-anchor": "middle"}, k.value[item.id] || ""));
          if (k.alpha[item.id] !== undefined && (node.kind === "max" || node.kind === "min")) {
            g.append(svg("text", {class: "window", x: x, y: y + 28, "text-anchor": "middle"},
              `α ${k.alpha[item.id]} β ${k.beta[item.id]}`));
          }
        }
        if ((marks[item.id] || "").split(" ").includes("first")) {
          g.append(svg("circle", {class: "first-ring", cx: x, cy: y, r: 24}));
        }
        g.append(svg("title", {}, `${node.name}: ${node.kind} ${node.value}` +
          (node.alpha !== undefined ? ` [alpha ${node.alpha}, beta ${node.beta}]` : "") +
          (node.probabilities ? ` p=${node.probabilities.join(", ")}` : "")));
        if (node.unrecorded_children && this.position === 0) {
          g.append(svg("text", {class: "cut-label", x: x + 18, y: y - 4},
            `+${node.unrecorded_children} not recorded`));
        }
        body.append(g);
        if (node.cut && node.cut.skipped.length && k.cut.has(item.id)) {
          const sign = node.cut.by === "beta" ? ">" : "<";
          stubs[index].forEach((sx, s) => {
            edges.append(svg("line", {class: "edge stub", x1: x, y1: y + 15, x2: px(sx), y2: py(item.y + 1) - 10}));
            edges.append(svg("text", {class: "stub-label", x: px(sx), y: py(item.y + 1) + 4, "text-anchor": "middle"},
              node.cut.skipped[s]));
          });
          edges.append(svg("text", {class: "cut-label", x: x + 18, y: y + 14},
            `cut: ${node.value} ${sign} ${node.cut.by} ${node.cut.bound}`));
        }
      });
      this.host.replaceChildren(root);
    }
  }

  function stat(label, value, css) {
    const span = el("span", {class: "stat"});
    span.append(el("span", {class: "stat-label"}, label + " "), el("b", {class: css}, String(value)));
    return span;
  }

  const METHOD_NAMES = {minimax: "minimax", alphabeta: "alpha-beta", expectimax: "expectimax"};
  const app = document.getElementById("app");
  if (DATA.heading) app.append(el("p", {id: "heading"}, DATA.heading));

  // comparison of the methods
  if (DATA.views.length > 1) {
    const table = el("table", {id: "comparison"});
    const head = el("tr");
    for (const h of ["method", "action", "root value", "nodes generated", "evaluations", "cuts", "pruned"]) {
      head.append(el("th", {}, h));
    }
    table.append(head);
    for (const view of DATA.views) {
      const row = el("tr", {"data-method": view.method});
      row.append(el("td", {"data-field": "method"}, METHOD_NAMES[view.method] || view.method));
      for (const field of ["action", "value", "nodes_generated", "evaluations", "cuts", "pruned"]) {
        row.append(el("td", {"data-field": field}, String(view[field])));
      }
      table.append(row);
    }
    app.append(el("h2", {}, "The same position searched three ways"), table);
  }

  // one tab per view
  const tabs = el("div", {id: "tabs", role: "tablist"});
  const panels = [];
  const trees = [];
  let active = 0;
  function select(index) {
    active = index;
    panels.forEach((p, i) => { p.hidden = i !== index; });
    [...tabs.children].forEach((t, i) => t.setAttribute("aria-selected", String(i === index)));
  }
  DATA.views.forEach((view, index) => {
    const tab = el("button", {class: "tab", role: "tab", "data-method": view.method},
      `${METHODS_LABEL(view)}`);
    tab.addEventListener("click", () => select(index));
    tabs.append(tab);
    const panel = el("section", {class: "panel", "data-method": view.method});
    const summary = el("p", {class: "summary"});
    summary.append(stat("action", view.action, "chosen-action"), stat("value", view.value, "root-value"),
      stat("nodes generated", view.nodes_generated, "nodes-generated"),
      stat("evaluations", view.evaluations, "evaluations"), stat("cuts", view.cuts, "cuts"),
      stat("pruned", view.pruned, "pruned"));
    if (view.unrecorded) summary.append(stat("not recorded", view.unrecorded, "unrecorded"));
    const controls = el("div", {class: "controls"});
    const first = el("button", {class: "first", title: "the finished search (Home)"}, "|◀ start");
    const back = el("button", {class: "back", title: "step back (←)"}, "◀ back");
    const next = el("button", {class: "forward", title: "step forward (→)"}, "step ▶");
    const last = el("button", {class: "last", title: "the last step (End)"}, "end ▶|");
    const counter = el("span", {class: "counter"});
    controls.append(first, back, next, last, counter);
    const text = el("p", {class: "step-text", "aria-live": "polite"});
    const host = el("div", {class: "tree-host"});
    panel.append(el("h2", {}, view.title), summary, controls, text, host);
    panels.push(panel);
    const tree = new Tree(view, host, {});
    trees.push(tree);
    function show() {
      const n = view.events.length;
      counter.textContent = `step ${tree.position} of ${n}`;
      text.textContent = tree.position === 0
        ? `The finished search: ${view.method} chooses ${view.action} (value ${view.value}). Step through it with → and ←.`
        : view.events[tree.position - 1].text;
      back.disabled = tree.position === 0;
      next.disabled = tree.position === n;
      tree.draw();
    }
    tree.show = show;
    tree.go = (p) => { tree.position = Math.max(0, Math.min(view.events.length, p)); show(); };
    first.addEventListener("click", () => tree.go(0));
    back.addEventListener("click", () => tree.go(tree.position - 1));
    next.addEventListener("click", () => tree.go(tree.position + 1));
    last.addEventListener("click", () => tree.go(view.events.length));
    show();
  });
  function METHODS_LABEL(view) { return METHOD_NAMES[view.method] || view.method; }
  app.append(tabs, ...panels);
  select(DATA.views.findIndex((v) => v.primary) >= 0 ? DATA.views.findIndex((v) => v.primary) : 0);
  document.addEventListener("keydown", (e) => {
    const tree = trees[active];
    if (!tree || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") { tree.go(tree.position + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { tree.go(tree.position - 1); e.preventDefault(); }
    else if (e.key === "Home") tree.go(0);
    else if (e.key === "End") tree.go(tree.view.events.length);
  });

  // a student's agent beside the expected search
  if (DATA.student) {
    const s = DATA.student;
    const section = el("section", {id: "student"});
    section.append(el("h2", {}, "Your agent beside the expected search"));
    for (const line of s.lines) section.append(el("p", {class: "student-line"}, line));
    section.append(el("p", {id: "first-difference"}, s.departure));
    const row = el("div", {class: "side-by-side"});
    for (const view of s.views) {
      const box = el("div", {class: "side"});
      const host = el("div", {class: "tree-host"});
      box.append(el("h3", {}, view.title), host);
      row.append(box);
      new Tree(view, host, {hideValues: true}).draw();
    }
    const legend = el("p", {class: "legend"},
      "faded: not generated; red: expected but not generated; orange: generated but not expected; ringed: the first difference");
    section.append(row, legend);
    app.append(section);
  }
})();
