"""The replay viewer: one static HTML file that plays a recorded game in any browser.

`write_replay_page(replay, "game.html")` (or `pacman replay game.json --html game.html`)
re-simulates the replay with the project's own rules (`GameState.successor`), and writes a
page holding every state of the game as compact JSON, the maze as inline SVG (drawn as the
pygame window draws it: `pacman.display.render`'s colours, wall tubes, dots, Pacman and the
ghosts), and the viewer's script and style (`pacman/web/assets/replay.js`, `replay.css`)
inlined. The page needs no server and makes no request: it opens from the disk, from an
e-mail attachment or from any static host.

The scrub bar has **one step per move of any agent**: step 0 is the start, step *i* the state
after the game's *i*-th action (Pacman's or a ghost's). A replay whose actions cannot all be
played (`verify(...).complete` is False) still gives a page: it holds the playable prefix and
says where and why the re-simulation stopped.

The helpers `inline_asset`, `script_json` and `page_shell` are shared: any self-contained
page of `pacman.web` may import them from here.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pacman.display.render import (
    BACKGROUND,
    CAPSULE_COLOR,
    CAPSULE_RADIUS,
    FLASH_TIME,
    FOOD_COLOR,
    FOOD_RADIUS,
    GHOST_COLORS,
    PACMAN_COLOR,
    WALL_COLOR,
    WALL_RADIUS,
    describe_agents,
    end_banner,
    ghost_look,
)
from pacman.layout import Layout, Position
from pacman.record import Outcome
from pacman.rules import Direction
from pacman.state import GameState

if TYPE_CHECKING:
    from pacman.replay import Replay, Verdict

__all__ = ["PAGE_FORMAT", "ReplayPageError", "build_replay_page", "inline_asset", "page_data",
           "page_shell", "script_json", "wall_svg", "write_replay_page"]

#: the version of the JSON embedded in the page (`page_data`)
PAGE_FORMAT = 1
CELL = 30  # SVG units per cell: the window's cell at zoom 1
_PACKAGE = "pacman.web"  # the assets are package data in its folder assets/
#: the page may load nothing: no request leaves it, whatever its data holds
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; "
                           "style-src 'unsafe-inline'; img-src data:")


class ReplayPageError(ValueError):
    """A page that cannot be written (e.g. an unwritable path): one line."""


# --------------------------------------------------------------------- shared helpers
def inline_asset(name: str) -> str:
    """The text of `pacman/web/assets/NAME` (package data), ready to inline in a page.

    Raises ValueError if it holds a closing tag of the element it goes into (`</script` or
    `</style`), which would end that element early.
    """
    text = resources.files(_PACKAGE).joinpath("assets").joinpath(name).read_text(
        encoding="utf-8")
    lowered = text.lower()
    for tag in ("</script", "</style"):
        if tag in lowered:
            raise ValueError(f"asset {name} holds {tag!r}: it cannot be inlined")
    return text


def script_json(data: Any) -> str:
    """`data` as JSON safe inside `<script type="application/json">`.

    Every `<`, `>` and `&` is written as a `\\u` escape (so `</script>` or `<!--` in a label
    cannot end or change the element), and so are U+2028/U+2029; `JSON.parse` reads the same
    values back. NaN and infinities are refused (they are not JSON).
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def page_shell(title: str, body: str, *, css: str, js: str, data: Any,
               data_id: str = "page-data") -> str:
    """A whole self-contained page: `body` (markup), the style, the data and the script
    inline, and a content security policy that forbids every outside request."""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CONTENT_SECURITY_POLICY}\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<link rel=\"icon\" href=\"data:,\">\n"
        f"<title>{html.escape(title)}</title>\n<style>\n{css}\n</style>\n</head>\n<body>\n"
        f"{body}\n"
        f"<script type=\"application/json\" id=\"{html.escape(data_id)}\">{script_json(data)}"
        f"</script>\n<script>\n{js}\n</script>\n</body>\n</html>\n")


# --------------------------------------------------------------------- the maze
def _hex(color: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*color)


def _num(value: float) -> str:
    """A coordinate for SVG: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def wall_svg(layout: Layout, cell: int = CELL) -> str:
    """The walls as SVG, as `pacman.display.render.wall_coverage` draws them: a tube of
    half-width WALL_RADIUS along the centre lines of connected wall cells, its outline about
    `cell / 15` wide, the quadrant between four wall cells filled and inner corners rounded.

    The outline is the union of the tube shapes drawn in the wall colour at the outer radius,
    covered by the same shapes in the background colour at the inner radius.
    """
    walls = layout.walls
    height = layout.height
    radius = WALL_RADIUS * cell
    line = max(1.0, cell / 15)

    def at(x: float, y: float) -> tuple[float, float]:
        return (x + 0.5) * cell, (height - 0.5 - y) * cell

    segments: list[str] = []
    blocks: list[str] = []
    corners: list[tuple[float, float, int, int]] = []
    for x, y in sorted(walls):
        cx, cy = at(x, y)
        joined = False
        for dx, dy in ((1, 0), (0, 1)):
            if (x + dx, y + dy) in walls:
                ex, ey = at(x + dx, y + dy)
                segments.append(f"M{_num(cx)} {_num(cy)}L{_num(ex)} {_num(ey)}")
                joined = True
        if not joined and (x - 1, y) not in walls and (x, y - 1) not in walls:
            segments.append(f"M{_num(cx)} {_num(cy)}h0")  # a lone wall cell: a dot
        if {(x + 1, y), (x, y + 1), (x + 1, y + 1)} <= walls:
            top = at(x, y + 1)
            blocks.append(f"M{_num(top[0])} {_num(top[1])}h{_num(cell)}v{_num(cell)}"
                          f"h{_num(-cell)}z")
        for sx in (-1, 1):
            for sy in (-1, 1):
                if (x + sx, y) in walls and (x, y + sy) in walls \
                        and (x + sx, y + sy) not in walls:
                    corners.append((cx, cy, sx, -sy))  # screen y grows down

    def fillets(inner_radius: float) -> str:
        """The rounded inner corners of L-shaped walls (render.py's `corner` region)."""
        fillet = 2 * radius - inner_radius
        parts = []
        for cx, cy, sx, sy in corners:
            points = [(0.0, 0.0), (2 * radius, 0.0), (2 * radius, 2 * radius - fillet)]
            for i in range(1, 8):  # the concave arc around (2r, 2r)
                angle = math.pi * (1.5 - i / 16)  # from 3pi/2 (up) to pi (left)
                points.append((2 * radius + fillet * math.cos(angle),
                               2 * radius + fillet * math.sin(angle)))
            points += [(2 * radius - fillet, 2 * radius), (0.0, 2 * radius)]
            parts.append("M" + "L".join(f"{_num(cx + sx * u)} {_num(cy + sy * v)}"
                                        for u, v in points) + "z")
        return "".join(parts)

    def layer(color: str, tube: float) -> str:
        shapes = []
        if segments:
            shapes.append(f"<path d=\"{''.join(segments)}\" fill=\"none\" stroke=\"{color}\" "
                          f"stroke-width=\"{_num(2 * tube)}\" stroke-linecap=\"round\" "
                          "stroke-linejoin=\"round\"/>")
        if blocks:
            shapes.append(f"<path d=\"{''.join(blocks)}\" fill=\"{color}\" stroke=\"{color}\" "
                          f"stroke-width=\"{_num(2 * tube)}\" stroke-linejoin=\"round\"/>")
        if corners and tube > 0:
            shapes.append(f"<path d=\"{fillets(tube)}\" fill=\"{color}\"/>")
        return "".join(shapes)

    return (f"<g id=\"walls\">{layer(_hex(WALL_COLOR), radius)}"
            f"{layer(_hex(BACKGROUND), radius - line)}</g>")


# --------------------------------------------------------------------- the data
def _point(position: tuple[float, float]) -> list[float]:
    return [int(v) if float(v).is_integer() else float(v) for v in position]


def _number(value: Any) -> Any:
    """A trace value for JSON: finite numbers as they are, the rest as text."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def _clean(value: Any) -> Any:
    """A trace summary made JSON-safe (no NaN or infinity anywhere)."""
    if isinstance(value, Mapping):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, float):
        return _number(value)
    return str(value)


def _step(state: GameState, agent: int, action: str | None, pacman_moves: int) -> dict[str, Any]:
    ghosts = [[*_point(position), str(facing), timer, _LOOKS[ghost_look(timer)]]
              for position, facing, timer in zip(state.ghost_positions, state.ghost_directions,
                                                 state.scared_timers)]
    return {"a": agent, "m": action, "s": state.score, "k": pacman_moves,
            "p": [*state.pacman_position, str(state.pacman_direction)], "g": ghosts}


_LOOKS = {"normal": 0, "scared": 1, "flash": 2}


def _states(replay: Replay, count: int) -> list[GameState]:
    """The initial state and the states after the first `count` actions (all playable)."""
    state = GameState.initial(replay.layout, replay.num_ghosts)
    states = [state]
    agents = state.num_agents
    for number, action in enumerate(replay.record.actions[:count]):
        state = state.successor(number % agents, Direction(action))
        states.append(state)
    return states


def _pv_paths(root: GameState, line: Sequence[Any]) -> dict[str, Any]:
    """The principal variation played from the search's root: each agent's cells in order
    (its position at the root first), and how many of the line's moves could be played."""
    paths: dict[int, list[list[float]]] = {}
    state = root
    played = 0
    for entry in line:
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            break
        agent, action = entry
        if not isinstance(agent, int) or not 0 <= agent < state.num_agents:
            break
        if state.is_terminal() or action not in state.legal_actions(agent):
            break
        paths.setdefault(agent, [_point(state.agent_position(agent))])
        state = state.successor(agent, Direction(action))
        paths[agent].append(_point(state.agent_position(agent)))
        played += 1
    return {"paths": [[agent, cells] for agent, cells in sorted(paths.items())],
            "played": played}


def _agent_name(index: int) -> str:
    return "Pacman" if index == 0 else f"Ghost {index}"


def _fault_text(record: Any, agents: Sequence[str], step: int) -> str:
    agent = record.fault_agent
    who = _agent_name(agent) if agent is not None else "an agent"
    if agent is not None and agent < len(agents):
        who += f" ({agents[agent]})"
    what = "ran out of time" if record.outcome is Outcome.TIMEOUT else "crashed"
    fault = record.fault or ""
    if fault.startswith("in final():"):
        when = "in final(), after the last move"
    elif step == 0:
        when = "before the first move"
    else:
        when = f"on its move after move {step} (never played)"
    return f"{who} {what} {when}: {fault}"


def _outcome_text(outcome: Outcome, score: int, pacman_moves: int) -> str:
    return {
        Outcome.WIN: f"Pacman wins: score {score} after {pacman_moves} Pacman moves",
        Outcome.LOSS: f"Pacman was caught: score {score} after {pacman_moves} Pacman moves",
        Outcome.CAPPED: f"capped: the game reached its cap of {pacman_moves} Pacman moves "
                        f"(score {score})",
        Outcome.STOPPED: f"stopped before its end: score {score} after {pacman_moves} "
                         "Pacman moves",
        Outcome.CRASH: f"an agent crashed: score {score} after {pacman_moves} Pacman moves",
        Outcome.TIMEOUT: f"an agent ran out of time: score {score} after {pacman_moves} "
                         "Pacman moves",
    }[outcome]


def page_data(replay: Replay, verdict: Verdict | None = None) -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data (`PAGE_FORMAT`); `verdict` is
    `verify(replay)`, computed here when not given.

    `steps[i]` is the state after action *i* (step 0: the start): `a` the agent that moved
    (-1 at the start), `m` its action, `s` the score, `k` Pacman's moves so far, `p` Pacman's
    `[x, y, facing]`, `g` each ghost's `[x, y, facing, scared timer, look]` (look 0 normal,
    1 scared, 2 flashing white, as the window draws it). `food_gone[j]` is the step at which
    `layout.food[j]` is eaten (None: never), `capsules_gone` likewise.
    """
    from pacman.replay import verify

    if verdict is None:
        verdict = verify(replay)
    record = replay.record
    layout = replay.layout
    states = _states(replay, verdict.played)
    agents_count = states[0].num_agents
    names = list(record.agents) + ["?"] * max(0, agents_count - len(record.agents))
    names = names[:agents_count]

    steps = [_step(states[0], -1, None, 0)]
    food_index = {cell: i for i, cell in enumerate(layout.food)}
    capsule_index = {cell: i for i, cell in enumerate(layout.capsules)}
    food_gone: list[int | None] = [None] * len(layout.food)
    capsules_gone: list[int | None] = [None] * len(layout.capsules)
    events: list[dict[str, Any]] = []
    pacman_moves = 0
    for number in range(1, len(states)):
        before, after = states[number - 1], states[number]
        agent = (number - 1) % agents_count
        if agent == 0:
            pacman_moves += 1
        steps.append(_step(after, agent, record.actions[number - 1], pacman_moves))
        if after.food_mask != before.food_mask:
            for cell in set(before.food_positions) - set(after.food_positions):
                food_gone[food_index[cell]] = number
        if after.capsule_count != before.capsule_count:
            for cell in set(before.capsule_positions) - set(after.capsule_positions):
                capsules_gone[capsule_index[cell]] = number
                events.append({"step": number, "kind": "capsule",
                               "text": f"Pacman eats a capsule at {cell[0]},{cell[1]}"})
        for ghost, (old, new) in enumerate(zip(before.ghost_positions, after.ghost_positions),
                                           start=1):
            if abs(old[0] - new[0]) + abs(old[1] - new[1]) > 1.01 and before.scared_timers[
                    ghost - 1] > 0:
                events.append({"step": number, "kind": "ghost",
                               "text": f"Pacman eats ghost {ghost}"})

    end = len(states) - 1
    notes: list[str] = []
    reached = verdict.complete
    if not verdict.complete:
        notes.append(f"The recorded actions cannot all be played: action {verdict.played + 1} "
                     f"of {len(record.actions)} is not legal there. This page shows the "
                     f"{verdict.played} playable action(s); the recorded outcome "
                     f"({record.outcome.value}) is never reached.")
    elif verdict.played < len(record.actions):
        notes.append(f"The game ends after action {verdict.played}; the file lists "
                     f"{len(record.actions) - verdict.played} more, not shown.")
    if verdict.differences:
        notes.append(f"The file does not add up ({len(verdict.differences)} "
                     f"difference(s)); the page shows the re-simulated game.")

    outcome = verdict.outcome if reached else None
    score = states[-1].score
    fault = None
    if reached and outcome in (Outcome.CRASH, Outcome.TIMEOUT) and record.fault is not None:
        fault = {"agent": record.fault_agent, "kind": outcome.value, "message": record.fault,
                 "step": end, "text": _fault_text(record, names, end)}
    banner: list[str] = []
    if outcome is not None:
        shown = replace(record, outcome=outcome, score=score, pacman_moves=pacman_moves)
        banner = end_banner(shown)

    traces: list[Any] = []
    for move, summary in enumerate(record.pacman_traces[:pacman_moves]):
        if not isinstance(summary, Mapping):
            traces.append(None)
            continue
        entry = _clean(summary)
        root = states[move * agents_count]
        entry["pv"] = _pv_paths(root, summary.get("principal_variation") or [])
        traces.append(entry)

    return {
        "format": PAGE_FORMAT,
        "title": f"{layout.name}, seed {record.seed}: {describe_agents(names)}",
        "layout": {"name": layout.name, "width": layout.width, "height": layout.height,
                   "food": [list(c) for c in layout.food],
                   "capsules": [list(c) for c in layout.capsules]},
        "seed": record.seed,
        "agents": names,
        "agents_line": describe_agents(names),
        "think_time": [round(t, 6) for t in record.think_time],
        "steps": steps,
        "food_gone": food_gone,
        "capsules_gone": capsules_gone,
        "events": events,
        "pacman_nodes": list(record.pacman_nodes[:pacman_moves]),
        "pacman_move_times": [round(t, 6) for t in record.pacman_move_times[:pacman_moves]],
        "traces": traces,
        "complete": reached,
        "played": verdict.played,
        "recorded_actions": len(record.actions),
        "recorded": {"outcome": record.outcome.value, "score": record.score,
                     "pacman_moves": record.pacman_moves},
        "outcome": None if outcome is None else {
            "value": outcome.value, "score": score, "pacman_moves": pacman_moves,
            "text": _outcome_text(outcome, score, pacman_moves)},
        "fault": fault,
        "banner": banner,
        "notes": notes,
        "differences": [str(d) for d in verdict.differences],
        "colors": {"ghosts": [_hex(c) for c in GHOST_COLORS], "pacman": _hex(PACMAN_COLOR)},
        "flash_time": FLASH_TIME,
    }


# --------------------------------------------------------------------- the page
def _board_svg(layout: Layout) -> str:
    width, height = layout.width * CELL, layout.height * CELL

    def dots(cells: Sequence[Position], radius: float, color: tuple[int, int, int],
             kind: str) -> str:
        r = _num(max(1.5, radius * CELL))
        return "".join(
            f"<circle class=\"{kind}\" data-i=\"{i}\" cx=\"{_num((x + 0.5) * CELL)}\" "
            f"cy=\"{_num((layout.height - 0.5 - y) * CELL)}\" r=\"{r}\" fill=\"{_hex(color)}\"/>"
            for i, (x, y) in enumerate(cells))

    return (f"<svg id=\"maze\" viewBox=\"0 0 {width} {height}\" "
            f"xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
            f"aria-label=\"the maze\" style=\"background:{_hex(BACKGROUND)}\">"
            f"{wall_svg(layout)}"
            f"<g id=\"food\">{dots(layout.food, FOOD_RADIUS, FOOD_COLOR, 'food')}</g>"
            f"<g id=\"capsules\">{dots(layout.capsules, CAPSULE_RADIUS, CAPSULE_COLOR, 'capsule')}"
            "</g><g id=\"pv-path\"></g><g id=\"agents-layer\"></g></svg>")


_BODY = """\
<header>
  <h1 id="title">{title}</h1>
  <p id="summary"><span class="label">outcome</span> <b id="outcome" data-outcome="{outcome}">\
{outcome}</b> <span id="outcome-detail">{outcome_text}</span></p>
  <p id="fault-text" class="fault"{fault_hidden}>{fault_text}</p>
  <ul id="notes">{notes}</ul>
</header>
<main>
  <section id="board">
    <div id="maze-box">{svg}<div id="end-banner" hidden><div id="banner-title"></div>\
<div id="banner-detail"></div></div></div>
    <div id="status-bar">
      <div id="status-score" class="score-line"></div>
      <div id="status-agents"></div>
      <div id="status-search"></div>
    </div>
    <div id="controls">
      <button id="first" type="button" title="first move (Home)">|&#x25C0;</button>
      <button id="back" type="button" title="one move back (left arrow)">&#x25C0;</button>
      <button id="play" type="button" title="play or pause (space)">play</button>
      <button id="forward" type="button" title="one move forward (right arrow)">&#x25B6;</button>
      <button id="last" type="button" title="last move (End)">&#x25B6;|</button>
      <label for="speed">speed</label>
      <select id="speed" title="moves per second">{speeds}</select>
    </div>
    <div id="scrub-box">
      <input id="scrub" type="range" min="0" max="{end}" step="1" value="0" \
aria-label="move">
      <div id="markers"></div>
    </div>
    <p class="hint">one step of the bar per move of any agent &middot; space: play/pause \
&middot; &larr;/&rarr;: step &middot; Home/End</p>
    <h2>Agents</h2>
    <table id="agents"><thead><tr><th>agent</th><th>position</th><th>facing</th>\
<th>scared</th><th>think time (total)</th></tr></thead><tbody></tbody></table>
  </section>
  <section id="panel">
    <table id="move-info">
      <tr><th>move</th><td><span id="move">0</span> / <span id="moves-total">{end}</span>\
</td></tr>
      <tr><th>whose move</th><td id="whose"></td></tr>
      <tr><th>action</th><td id="action"></td></tr>
      <tr><th>score</th><td id="score"></td></tr>
      <tr><th>Pacman moves</th><td id="pacman-move"></td></tr>
      <tr><th>Pacman's nodes</th><td id="nodes"></td></tr>
      <tr><th>Pacman's think time</th><td id="move-time"></td></tr>
      <tr><th>food left</th><td id="food-left"></td></tr>
      <tr><th>event</th><td id="event"></td></tr>
    </table>
    <h2>Search</h2>
    <div id="search">
      <p id="search-none"></p>
      <div id="search-body" hidden>
        <p id="search-title"><span id="search-move"></span> <span id="search-when"></span></p>
        <table id="root-values"><thead><tr><th>root action</th><th>value</th></tr></thead>
          <tbody></tbody></table>
        <table id="search-stats">
          <tr><th>chosen</th><td><span id="search-chosen"></span> (value \
<span id="search-value"></span>)</td></tr>
          <tr><th>method</th><td id="search-method"></td></tr>
          <tr><th>depth</th><td id="search-depth"></td></tr>
          <tr><th>nodes generated</th><td id="search-nodes"></td></tr>
          <tr><th>evaluations</th><td id="search-evaluations"></td></tr>
          <tr><th>cuts</th><td id="search-cuts"></td></tr>
          <tr><th>pruned</th><td id="search-pruned"></td></tr>
        </table>
        <p><span class="label">principal variation</span> <span id="search-pv"></span></p>
        <label id="pv-toggle-label"><input id="pv-toggle" type="checkbox" checked> draw it on \
the maze</label>
      </div>
    </div>
    <details id="differences-box"{diff_hidden}><summary>differences from the record</summary>
      <ul id="differences">{differences}</ul></details>
  </section>
</main>"""

SPEEDS = (1, 2, 4, 8, 15, 30, 60)
DEFAULT_SPEED = 8


def build_replay_page(replay: Replay, verdict: Verdict | None = None) -> str:
    """The whole page of a replay, as text (see the module's description)."""
    data = page_data(replay, verdict)
    outcome = data["outcome"]
    fault = data["fault"]
    escape = html.escape
    speeds = "".join(f"<option value=\"{s}\"{' selected' if s == DEFAULT_SPEED else ''}>"
                     f"{s} moves/s</option>" for s in SPEEDS)
    if outcome is None:
        outcome_value = "incomplete"
        outcome_text = (f"not reached: the re-simulation stops after action {data['played']} "
                        f"(recorded: {data['recorded']['outcome']}, score "
                        f"{data['recorded']['score']})")
    else:
        outcome_value, outcome_text = outcome["value"], outcome["text"]
    body = _BODY.format(
        title=escape(data["title"]), outcome=escape(outcome_value),
        outcome_text=escape(outcome_text),
        fault_hidden="" if fault else " hidden",
        fault_text=escape(fault["text"]) if fault else "",
        notes="".join(f"<li>{escape(note)}</li>" for note in data["notes"]),
        svg=_board_svg(replay.layout), speeds=speeds, end=len(data["steps"]) - 1,
        diff_hidden="" if data["differences"] else " hidden",
        differences="".join(f"<li>{escape(d)}</li>" for d in data["differences"]))
    return page_shell(f"Pacman replay: {data['title']}", body, css=inline_asset("replay.css"),
                      js=inline_asset("replay.js"), data=data, data_id="replay-data")


def write_replay_page(replay: Replay, path: str | Path, verdict: Verdict | None = None
                      ) -> Path:
    """Write the page of a replay to `path` (its folder is made); returns the path.

    An unwritable path is a one-line `ReplayPageError`.
    """
    path = Path(path)
    text = build_replay_page(replay, verdict)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except (FileExistsError, NotADirectoryError):
        raise ReplayPageError(f"cannot write {path}: a part of its folder is a file") from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ReplayPageError(f"cannot write {path}: {reason}") from None
    return path
