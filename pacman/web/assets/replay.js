// The replay viewer (pacman/web/replay_page.py inlines this file into the page).
// Reads the JSON in #replay-data and draws step i of the game: step 0 is the start, step i
// the state after the game's i-th action (one step per move of any agent).
(function () {
  "use strict";

  var DATA = JSON.parse(document.getElementById("replay-data").textContent);
  var CELL = 30;
  var SVG_NS = "http://www.w3.org/2000/svg";
  var STEPS = DATA.steps;
  var END = STEPS.length - 1;
  var AGENTS = DATA.agents.length;
  var HEIGHT = DATA.layout.height;
  var ANGLE = { East: 0, North: 90, West: 180, South: 270, Stop: 0 };
  var FACING = { North: [0, -1], South: [0, 1], East: [1, 0], West: [-1, 0], Stop: [0, 0] };
  // why an MCTS search stopped (its trace's "stopped"), as the window's panel says it
  var STOPPED = { playouts: "its playout budget", nodes: "its node budget",
    time: "its time budget", single: "one legal move: no search" };
  // pacman.display.render's colours
  var SCARED = ["#2121c8", "#ffb8ae"];
  var FLASH = ["#ebebff", "#e60000"];

  var $ = function (id) { return document.getElementById(id); };
  var current = 0;
  var timer = null;
  var keysOff = false; // the live view (live.js) takes the keys while a game is played

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG_NS, name);
    for (var key in attrs) { node.setAttribute(key, attrs[key]); }
    if (parent) { parent.appendChild(node); }
    return node;
  }

  function px(x, y) { return [(x + 0.5) * CELL, (HEIGHT - 0.5 - y) * CELL]; }

  function agentName(i) { return i === 0 ? "Pacman" : "Ghost " + i; }

  function agentColor(i) {
    return i === 0 ? DATA.colors.pacman
      : DATA.colors.ghosts[(i - 1) % DATA.colors.ghosts.length];
  }

  function text(id, value) { $(id).textContent = value; }

  function seconds(value) {
    if (value === null || value === undefined) { return "\u2013"; }
    return value < 1 ? (value * 1000).toFixed(1) + " ms" : value.toFixed(2) + " s";
  }

  function number(value) {
    if (value === null || value === undefined) { return "?"; }
    if (typeof value === "number") {
      return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
    }
    return String(value);
  }

  function thousands(value) {
    return typeof value === "number" ? value.toLocaleString("en-US") : "\u2013";
  }

  // ------------------------------------------------------------------ the agents' shapes
  var layer = $("agents-layer");
  var pacman = el("path", { id: "pacman", fill: DATA.colors.pacman }, layer);
  var ghosts = [];
  for (var g = 1; g < AGENTS; g++) {
    var group = el("g", { "class": "ghost", "data-agent": g }, layer);
    var body = el("path", { "class": "ghost-body", d: ghostBody() }, group);
    var eyes = el("g", { "class": "ghost-eyes" }, group);
    var scared = el("g", { "class": "ghost-scared-face" }, group);
    var ghost = { group: group, body: body, eyes: eyes, scared: scared, mouth: null };
    ghosts.push(ghost);
    for (var side = -1; side <= 1; side += 2) {
      el("rect", { x: side * 0.15 - 0.05, y: -0.2, width: 0.1, height: 0.1 }, scared);
    }
    var zig = [];
    for (var z = 0; z < 7; z++) { zig.push((-0.3 + 0.1 * z) + "," + (z % 2 ? 0.2 : 0.13)); }
    ghost.mouth = el("polyline", { points: zig.join(" "), fill: "none", "stroke-width": 0.05 },
      scared);
  }

  function ghostBody() {
    // render.py's ghost in cell units around the cell's centre: a head and a wavy hem
    var half = 0.46, top = -0.05, bottom = 0.46, teeth = 4;
    var d = "M" + (-half) + " " + top + "A" + half + " " + half + " 0 0 1 " + half + " " + top +
      "L" + half + " " + bottom;
    for (var i = teeth * 2; i >= 0; i--) {
      d += "L" + (-half + 2 * half * i / (teeth * 2)).toFixed(3) + " " +
        (i % 2 === 0 ? bottom : bottom - 0.14).toFixed(3);
    }
    return d + "Z";
  }

  function drawEyes(group, facing) {
    while (group.firstChild) { group.removeChild(group.firstChild); }
    var v = FACING[facing] || [0, 0];
    for (var side = -1; side <= 1; side += 2) {
      var ex = side * 0.18 + v[0] * 0.04, ey = -0.1 + v[1] * 0.04;
      el("ellipse", { cx: ex, cy: ey, rx: 0.13, ry: 0.16, fill: "#ffffff" }, group);
      el("circle", { cx: ex + v[0] * 0.06, cy: ey + v[1] * 0.08, r: 0.075, fill: "#000000" },
        group);
    }
  }

  function pacmanPath(x, y, facing, mouth) {
    var c = px(x, y), r = 0.5 * CELL;
    if (mouth <= 0) {
      return "M" + (c[0] - r) + " " + c[1] + "a" + r + " " + r + " 0 1 0 " + 2 * r + " 0" +
        "a" + r + " " + r + " 0 1 0 " + -2 * r + " 0Z";
    }
    var start = (ANGLE[facing] + mouth / 2) * Math.PI / 180;
    var stop = (ANGLE[facing] + 360 - mouth / 2) * Math.PI / 180;
    var p = function (a) {
      return (c[0] + r * Math.cos(a)).toFixed(2) + " " + (c[1] - r * Math.sin(a)).toFixed(2);
    };
    return "M" + c[0] + " " + c[1] + "L" + p(start) + "A" + r + " " + r + " 0 1 0 " + p(stop) +
      "Z";
  }

  // ------------------------------------------------------------------ static parts
  var foodDots = document.querySelectorAll("#food .food");
  var capsuleDots = document.querySelectorAll("#capsules .capsule");
  var scrub = $("scrub");
  var agentRows = [];
  function buildAgentsTable() {
    var tbody = document.querySelector("#agents tbody");
    agentRows = [];
    while (tbody.firstChild) { tbody.removeChild(tbody.firstChild); }
    for (var i = 0; i < AGENTS; i++) {
      var row = document.createElement("tr");
      row.className = "agent-row";
      row.setAttribute("data-agent", i);
      var cells = {};
      ["name", "position", "facing", "scared", "think"].forEach(function (kind) {
        var td = document.createElement("td");
        td.className = "agent-" + kind;
        row.appendChild(td);
        cells[kind] = td;
      });
      var swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = agentColor(i);
      cells.name.appendChild(swatch);
      cells.name.appendChild(document.createTextNode(agentName(i) + ": " + DATA.agents[i]));
      cells.think.textContent = DATA.think_time.length > i ? seconds(DATA.think_time[i]) : "\u2013";
      tbody.appendChild(row);
      agentRows.push(cells);
    }
  }
  buildAgentsTable();

  function buildMarkers() {
    var box = $("markers");
    while (box.firstChild) { box.removeChild(box.firstChild); }
    var add = function (step, kind, title) {
      var mark = document.createElement("div");
      mark.className = "marker " + kind;
      mark.setAttribute("data-step", step);
      mark.title = "move " + step + ": " + title;
      var fraction = END > 0 ? step / END : 0;
      mark.style.left = "calc(7px + (100% - 14px) * " + fraction + ")";
      mark.addEventListener("click", function () { pause(); show(step); });
      box.appendChild(mark);
      return mark;
    };
    DATA.events.forEach(function (event) { add(event.step, event.kind, event.text); });
    if (DATA.outcome) {
      add(END, "end outcome-" + DATA.outcome.value, DATA.outcome.text);
    } else {
      add(END, "end incomplete", "the re-simulation stops here");
    }
    if (DATA.fault) { add(DATA.fault.step, "fault", DATA.fault.text).textContent = "!"; }
  }
  buildMarkers();

  scrub.max = END;
  text("moves-total", END);

  // ------------------------------------------------------------------ one step
  function latestPacmanMove(step) {
    // the Pacman move made at or before `step` (1-based), or the next one at the start
    var k = STEPS[step].k;
    return k === 0 ? 1 : k;
  }

  function eventAt(step) {
    var found = DATA.events.filter(function (e) { return e.step === step; });
    return found.map(function (e) { return e.text; }).join("; ");
  }

  function show(step) {
    step = Math.max(0, Math.min(END, step | 0));
    current = step;
    var s = STEPS[step];
    scrub.value = step;
    text("move", step);
    text("whose", s.a < 0 ? "start" : agentName(s.a) + " (" + DATA.agents[s.a] + ")");
    $("whose").setAttribute("data-agent", s.a);
    text("action", s.m === null ? "\u2013" : s.m);
    text("score", s.s);
    text("pacman-move", s.k);
    var k = latestPacmanMove(step);
    var nodes = s.k > 0 ? DATA.pacman_nodes[s.k - 1] : undefined;
    var took = s.k > 0 ? DATA.pacman_move_times[s.k - 1] : undefined;
    text("nodes", s.k > 0 ? (nodes === null || nodes === undefined ? "not recorded"
      : thousands(nodes) + " (Pacman move " + s.k + ")") : "\u2013");
    text("move-time", s.k > 0 && took !== undefined ? seconds(took) + " (Pacman move " + s.k +
      ")" : "\u2013");
    var left = 0;
    for (var i = 0; i < foodDots.length; i++) {
      var gone = DATA.food_gone[i];
      var shown = gone === null || gone > step;
      foodDots[i].style.display = shown ? "" : "none";
      if (shown) { left++; }
    }
    for (var j = 0; j < capsuleDots.length; j++) {
      var eaten = DATA.capsules_gone[j];
      capsuleDots[j].style.display = eaten === null || eaten > step ? "" : "none";
    }
    text("food-left", left);
    text("event", eventAt(step) || "\u2013");

    var mouth = s.k % 2 ? 70 : 30; // render.chomp
    pacman.setAttribute("d", pacmanPath(s.p[0], s.p[1], s.p[2], mouth));
    agentRows[0].position.textContent = s.p[0] + "," + s.p[1];
    agentRows[0].facing.textContent = s.p[2];
    agentRows[0].scared.textContent = "\u2013";
    for (var gi = 0; gi < ghosts.length; gi++) {
      var gs = s.g[gi], ghost = ghosts[gi], look = gs[4];
      var c = px(gs[0], gs[1]);
      ghost.group.setAttribute("transform", "translate(" + c[0] + " " + c[1] + ") scale(" +
        CELL + ")");
      ghost.group.setAttribute("data-look", ["normal", "scared", "flash"][look]);
      var colors = look === 0 ? [agentColor(gi + 1), "#ffffff"] : look === 1 ? SCARED : FLASH;
      ghost.body.setAttribute("fill", colors[0]);
      ghost.scared.setAttribute("fill", colors[1]);
      ghost.mouth.setAttribute("stroke", colors[1]);
      ghost.eyes.style.display = look === 0 ? "" : "none";
      ghost.scared.style.display = look === 0 ? "none" : "";
      if (look === 0) { drawEyes(ghost.eyes, gs[2]); }
      agentRows[gi + 1].position.textContent = gs[0] + "," + gs[1];
      agentRows[gi + 1].facing.textContent = gs[2];
      agentRows[gi + 1].scared.textContent = gs[3];
    }
    agentRows.forEach(function (row, i) {
      row.name.parentNode.classList.toggle("moved", i === s.a);
    });

    // the window's status bar
    text("status-score", "Score: " + s.s + "    Moves: " + s.k);
    text("status-agents", DATA.agents_line);
    text("status-search", s.k > 0 && typeof nodes === "number"
      ? "last move: " + thousands(nodes) + " nodes in " + seconds(took) : "");

    var banner = $("end-banner");
    banner.hidden = !(step === END && DATA.banner.length > 0);
    if (DATA.banner.length) {
      text("banner-title", DATA.banner[0]);
      text("banner-detail", DATA.banner.slice(1).join(" "));
    }
    $("board").classList.toggle("at-end", step === END);
    showSearch(k, s.k === 0);
  }

  // ------------------------------------------------------------------ the search panel
  function showSearch(k, upcoming) {
    var none = $("search-none"), bodyBox = $("search-body");
    var pv = $("pv-path");
    while (pv.firstChild) { pv.removeChild(pv.firstChild); }
    var trace = DATA.traces.length >= k ? DATA.traces[k - 1] : null;
    if (!trace) {
      bodyBox.hidden = true;
      none.hidden = false;
      none.textContent = DATA.traces.length === 0
        ? (DATA.no_traces || "No search traces in this replay (record with pacman play --trace).")
        : (k <= DATA.traces.length ? "Pacman move " + k + " was not traced."
          : "No Pacman move traced here.");
      return;
    }
    none.hidden = true;
    bodyBox.hidden = false;
    text("search-move", "Pacman move " + k);
    text("search-when", upcoming ? "(the next move: searched from this position)"
      : "(the latest Pacman move; searched before it)");
    // MCTS (method "mcts") keeps visits and mean values per root move, its playouts and
    // tree size, and the most-visited line instead of a principal variation: no cuts
    var mcts = trace.method === "mcts";
    var visits = {};
    (trace.root_visits || []).forEach(function (pair) { visits[pair[0]] = pair[1]; });
    document.querySelectorAll("#search .mcts-only").forEach(function (node) {
      node.hidden = !mcts;
    });
    document.querySelectorAll("#search .tree-only").forEach(function (node) {
      node.hidden = mcts;
    });
    text("root-value-head", mcts ? "mean value" : "value");
    var tbody = document.querySelector("#root-values tbody");
    while (tbody.firstChild) { tbody.removeChild(tbody.firstChild); }
    (trace.root_values || []).forEach(function (pair) {
      var row = document.createElement("tr");
      row.className = "root-action" + (pair[0] === trace.action ? " chosen" : "");
      row.setAttribute("data-action", pair[0]);
      var name = document.createElement("td");
      name.className = "action-name";
      name.textContent = pair[0];
      row.appendChild(name);
      if (mcts) {
        var count = document.createElement("td");
        count.className = "action-visits";
        count.textContent = thousands(visits[pair[0]]);
        row.appendChild(count);
      }
      var value = document.createElement("td");
      value.className = "action-value";
      value.textContent = number(pair[1]);
      row.appendChild(value);
      tbody.appendChild(row);
    });
    text("search-chosen", trace.action === null ? "?" : trace.action);
    text("search-value-label", mcts ? "mean" : "value");
    text("search-value", number(trace.value));
    text("search-chosen-visits", mcts ? ", " + thousands(visits[trace.action]) + " visits" : "");
    text("search-method", mcts ? "mcts " + trace.budget + " horizon=" + number(trace.depth) +
      " c=" + number(trace.c) : trace.method);
    text("search-stopped", mcts ? STOPPED[trace.stopped] || String(trace.stopped) : "");
    text("search-depth", number(trace.depth));
    text("search-nodes", number(trace.nodes_generated));
    text("search-evaluations", number(trace.evaluations));
    text("search-cuts", number(trace.cuts));
    text("search-pruned", number(trace.pruned));
    text("search-playouts", mcts ? number(trace.playouts) : "");
    text("search-tree-size", mcts ? number(trace.tree_size) : "");
    text("search-pv-label", mcts ? "most-visited line" : "principal variation");
    var line = (trace.principal_variation || []).map(function (entry) {
      return mcts ? entry[1] : agentName(entry[0]) + " " + entry[1]; // MCTS: Pacman's only
    });
    text("search-pv", line.length ? line.join(", ") : "\u2013");
    if ($("pv-toggle").checked && trace.pv) { drawLine(pv, trace.pv.paths); }
  }

  function drawLine(box, paths) {
    paths.forEach(function (entry) {
      var agent = entry[0], cells = entry[1];
      var color = agentColor(agent);
      var shift = (agent - (AGENTS - 1) / 2) * 2.5; // side by side where paths overlap
      var points = cells.map(function (cell) {
        var c = px(cell[0], cell[1]);
        return [c[0] + shift, c[1] + shift];
      });
      var group = el("g", { "class": "pv-agent", "data-agent": agent }, box);
      var runs = [[points[0]]];
      for (var i = 1; i < points.length; i++) {
        var a = cells[i - 1], b = cells[i];
        if (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) > 1.01) { runs.push([]); }
        runs[runs.length - 1].push(points[i]);
      }
      runs.forEach(function (run) {
        if (run.length > 1) {
          el("polyline", { points: run.map(function (p) { return p.join(","); }).join(" "),
            fill: "none", stroke: color, "stroke-width": 3, "stroke-dasharray": "6 4",
            "stroke-linecap": "round", opacity: 0.9 }, group);
        }
      });
      points.forEach(function (p, i) {
        el("circle", { cx: p[0], cy: p[1], r: i === 0 ? 3 : 4, fill: i === 0 ? "none" : color,
          stroke: color, "stroke-width": 1.5 }, group);
      });
      var last = points[points.length - 1], before = points[points.length - 2];
      if (before && (last[0] !== before[0] || last[1] !== before[1])) {
        var angle = Math.atan2(last[1] - before[1], last[0] - before[0]) * 180 / Math.PI;
        el("path", { d: "M8 0L-4 -6L-4 6Z", fill: color, transform: "translate(" + last[0] +
          " " + last[1] + ") rotate(" + angle + ")" }, group);
      }
    });
  }

  // ------------------------------------------------------------------ controls
  function speed() { return Math.max(1, Number($("speed").value) || 8); }

  function tick() {
    if (current >= END) { pause(); return; }
    show(current + 1);
    if (current >= END) { pause(); return; }
    timer = setTimeout(tick, 1000 / speed());
  }

  function play() {
    if (timer !== null) { return; }
    if (current >= END) { show(0); }
    $("play").textContent = "pause";
    $("play").setAttribute("aria-pressed", "true");
    timer = setTimeout(tick, 1000 / speed());
  }

  function pause() {
    if (timer !== null) { clearTimeout(timer); }
    timer = null;
    $("play").textContent = "play";
    $("play").setAttribute("aria-pressed", "false");
  }

  function toggle() { if (timer === null) { play(); } else { pause(); } }

  $("play").addEventListener("click", toggle);
  $("back").addEventListener("click", function () { pause(); show(current - 1); });
  $("forward").addEventListener("click", function () { pause(); show(current + 1); });
  $("first").addEventListener("click", function () { pause(); show(0); });
  $("last").addEventListener("click", function () { pause(); show(END); });
  scrub.addEventListener("input", function () { pause(); show(Number(scrub.value)); });
  scrub.addEventListener("change", function () { show(Number(scrub.value)); });
  $("pv-toggle").addEventListener("change", function () { show(current); });
  $("speed").addEventListener("change", function () {
    if (timer !== null) { clearTimeout(timer); timer = setTimeout(tick, 1000 / speed()); }
  });
  document.querySelectorAll("#controls button").forEach(function (button) {
    // a click keeps the focus where it was, so the space key never "clicks" it again
    button.addEventListener("mousedown", function (event) { event.preventDefault(); });
  });
  document.addEventListener("keydown", function (event) {
    if (keysOff || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var target = event.target;
    var onRange = target === scrub;
    if (target && (target.tagName === "SELECT" || target.tagName === "INPUT") && !onRange &&
        event.key !== " ") { return; }
    if (event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      if (target && target.blur && target !== document.body) { target.blur(); }
      toggle();
    } else if (!onRange && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      event.preventDefault();
      pause();
      show(current + (event.key === "ArrowLeft" ? -1 : 1));
    } else if (!onRange && (event.key === "Home" || event.key === "End")) {
      event.preventDefault();
      pause();
      show(event.key === "Home" ? 0 : END);
    }
  });

  // The live view (live.js) shows its games through this viewer: `load` a game's data (the
  // same format), `refresh` after adding steps to it, `show` a step, `keys(false)` to take
  // the keys while a game is played.
  function refresh() {
    STEPS = DATA.steps;
    END = STEPS.length - 1;
    scrub.max = END;
    text("moves-total", END);
  }

  window.pacmanViewer = {
    load: function (data) {
      pause();
      DATA = data;
      refresh();
      buildAgentsTable();
      buildMarkers();
      show(END);
    },
    refresh: refresh,
    show: function (step) { show(step); },
    pause: pause,
    keys: function (on) { keysOff = !on; },
    end: function () { return END; },
    current: function () { return current; }
  };

  show(0);
  document.body.setAttribute("data-ready", "true");
})();
