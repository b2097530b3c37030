// The live view (pacman/web/live_page.py inlines this file after replay.js). It follows the
// server's event stream (pacman/web/live.py) and shows each move through the replay viewer
// (window.pacmanViewer), sends the controls' commands back as POSTs, and keeps each finished
// game to scrub. Every request goes to this page's own server, with its token.
(function () {
  "use strict";

  var viewer = window.pacmanViewer;
  var QUERY = window.location.search; // ?token=...: every request carries it
  var $ = function (id) { return document.getElementById(id); };
  var live = null;        // the data of the game being played (page_data's format)
  var liveGame = 0;
  var finished = {};      // game number -> its finished data
  var following = true;   // showing the game being played (not a finished one)
  var state = { paused: false, blocked: null, frame_time: 0.1, keyboard: false };
  var over = false;       // the run has ended (the server stops)
  var KEYS = { ArrowUp: "North", ArrowDown: "South", ArrowLeft: "West", ArrowRight: "East",
    w: "North", s: "South", a: "West", d: "East", W: "North", S: "South", A: "West",
    D: "East", x: "Stop", X: "Stop" };
  // what the tests and the benchmark read: each move's delay from the referee to the page
  var report = window.pacmanLive = { latencies: [], frameLatencies: [], games: finished,
    moves: 0, starts: 0 };

  function now() { return performance.timeOrigin + performance.now(); }

  function send(command) {
    return fetch("command" + QUERY, { method: "POST", body: JSON.stringify(command),
      headers: { "Content-Type": "application/json" } }).catch(function () {});
  }

  function setState(text, kind) {
    $("live-state").textContent = text;
    document.body.setAttribute("data-live-state", kind);
  }

  function header(data, word, detail) {
    $("title").textContent = data.title;
    $("outcome").textContent = word;
    $("outcome").setAttribute("data-outcome", word);
    $("outcome-detail").textContent = detail;
    var fault = $("fault-text");
    fault.hidden = !data.fault;
    fault.textContent = data.fault ? data.fault.text : "";
    var notes = $("notes");
    while (notes.firstChild) { notes.removeChild(notes.firstChild); }
  }

  function follow(on) {
    following = on;
    document.body.classList.toggle("following", on);
    viewer.keys(!on);
    $("live-games").value = on ? "live" : $("live-games").value;
    if (on && live) {
      viewer.load(live);
      header(live, "playing", "game " + liveGame);
    }
  }

  function showFinished(game) {
    var data = finished[game];
    if (!data) { return; }
    following = false;
    document.body.classList.remove("following");
    viewer.keys(true);
    $("live-games").value = String(game);
    viewer.load(data);
    header(data, data.outcome ? data.outcome.value : "incomplete",
      data.outcome ? data.outcome.text : "");
  }

  function describeState() {
    if (over) { setState("the games are over: scrub them below", "over"); return; }
    if (state.blocked === "paused") {
      setState("PAUSED at move " + state.moves + " (space: go on, n: step)", "paused");
    } else if (state.blocked === "input") {
      setState("your move: arrows/WASD steer Pacman", "input");
    } else if (state.paused) {
      setState("pausing...", "pausing");
    } else {
      setState("playing game " + liveGame, "playing");
    }
    $("live-pause").textContent = state.paused ? "go on" : "pause";
    $("live-pause").setAttribute("aria-pressed", state.paused ? "true" : "false");
    var speed = $("live-speed");
    if (String(Number(speed.value)) !== String(state.frame_time)) {
      var found = false;
      for (var i = 0; i < speed.options.length; i++) {
        if (Number(speed.options[i].value) === state.frame_time) { found = true; }
      }
      if (found) { speed.value = String(state.frame_time); }
    }
  }

  // ------------------------------------------------------------------ the event stream
  var source = new EventSource("events" + QUERY);

  source.addEventListener("game", function (event) {
    var message = JSON.parse(event.data);
    live = message.data;
    live.no_traces = "No search traces in this game (play it with --trace to see Pacman's search).";
    liveGame = message.game;
    $("live-game").textContent = "game " + message.game + " of " + message.games;
    document.body.setAttribute("data-game", message.game);
    report.starts += 1; // a restarted game starts again under the same number
    document.body.setAttribute("data-starts", report.starts);
    document.body.setAttribute("data-step", 0);
    follow(true);
  });

  source.addEventListener("move", function (event) {
    var m = JSON.parse(event.data);
    if (!live) { return; }
    var data = live;
    data.steps.push(m.step);
    m.food.forEach(function (j) { data.food_gone[j] = m.n; });
    m.capsules.forEach(function (j) { data.capsules_gone[j] = m.n; });
    m.events.forEach(function (e) { data.events.push(e); });
    data.think_time[m.step.a] += m.seconds;
    var think = document.querySelector('.agent-row[data-agent="' + m.step.a + '"] .agent-think');
    if (think && following) {
      var total = data.think_time[m.step.a];
      think.textContent = total < 1 ? (total * 1000).toFixed(1) + " ms" : total.toFixed(2) + " s";
    }
    if (m.pacman) {
      data.pacman_nodes.push(m.pacman.nodes);
      data.pacman_move_times.push(m.pacman.time);
      if (m.pacman.trace || data.traces.length) {
        while (data.traces.length < m.step.k - 1) { data.traces.push(null); }
        data.traces.push(m.pacman.trace);
      }
    }
    if (following) {
      viewer.refresh();
      viewer.show(viewer.end());
    }
    report.moves = m.n;
    document.body.setAttribute("data-step", m.n);
    var shown = now() - m.t * 1000;
    report.latencies.push(shown);
    window.requestAnimationFrame(function () {
      report.frameLatencies.push(now() - m.t * 1000);
    });
  });

  source.addEventListener("state", function (event) {
    state = JSON.parse(event.data);
    document.body.setAttribute("data-moves", state.moves);
    describeState();
  });

  source.addEventListener("finish", function (event) {
    var message = JSON.parse(event.data);
    finished[message.game] = message.data;
    var option = document.createElement("option");
    var outcome = message.data.outcome;
    option.value = String(message.game);
    option.textContent = "game " + message.game + " (seed " + message.seed + "): " +
      (outcome ? outcome.value + ", score " + outcome.score : "incomplete");
    $("live-games").appendChild(option);
    document.body.setAttribute("data-finished", message.game);
    if (following && message.game === liveGame) {
      live = null;
      showFinished(message.game);
    }
  });

  source.addEventListener("end", function () {
    over = true;
    source.close();
    send({ command: "done" });
    ["live-pause", "live-step", "live-restart", "live-stop", "live-speed"].forEach(function (id) {
      $(id).disabled = true;
    });
    if (following) {
      var last = Object.keys(finished).map(Number).sort(function (a, b) { return b - a; })[0];
      if (last) { showFinished(last); }
    }
    describeState();
    document.body.setAttribute("data-ended", "true");
  });

  // ------------------------------------------------------------------ controls
  function togglePause() { send({ command: state.paused ? "resume" : "pause" }); }

  function changeSpeed(faster) {
    var speed = $("live-speed"), index = speed.selectedIndex + (faster ? -1 : 1);
    if (index < 0 || index >= speed.options.length) { return; }
    speed.selectedIndex = index;
    send({ command: "speed", frame_time: Number(speed.value) });
  }

  $("live-pause").addEventListener("click", togglePause);
  $("live-step").addEventListener("click", function () { send({ command: "step" }); });
  $("live-restart").addEventListener("click", function () { send({ command: "restart" }); });
  $("live-stop").addEventListener("click", function () { send({ command: "stop" }); });
  $("live-speed").addEventListener("change", function () {
    send({ command: "speed", frame_time: Number($("live-speed").value) });
  });
  $("live-games").addEventListener("change", function () {
    var value = $("live-games").value;
    if (value === "live") {
      if (live) { follow(true); } else { showFinished(liveGame); }
    } else {
      showFinished(Number(value));
    }
  });
  document.querySelectorAll("#live-bar button").forEach(function (button) {
    // a click keeps the focus where it was, so the space key never "clicks" it again
    button.addEventListener("mousedown", function (event) { event.preventDefault(); });
  });

  document.addEventListener("keydown", function (event) {
    if (!following || over || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var target = event.target;
    if (target && (target.tagName === "SELECT" || target.tagName === "INPUT")) { return; }
    var key = event.key;
    if (state.keyboard && KEYS[key]) {
      event.preventDefault();
      send({ command: "key", direction: KEYS[key] });
    } else if (key === " " || key === "p") {
      event.preventDefault();
      togglePause();
    } else if (key === "n") {
      send({ command: "step" });
    } else if (key === "+" || key === "=") {
      changeSpeed(true);
    } else if (key === "-" || key === "_") {
      changeSpeed(false);
    } else if (key === "r") {
      send({ command: "restart" });
    } else if (key === "q" || key === "Escape") {
      send({ command: "stop" });
    }
  });

  follow(true);
  setState("connecting...", "connecting");
  document.body.setAttribute("data-live", "true");
})();
