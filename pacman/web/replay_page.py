"""The replay viewer: one static HTML file that plays a recorded game in any browser.

`write_replay_page(replay, "game.html")` (or `pacman replay game.json --html game.html`)
re-simulates the replay with the project's own rules (`GameState.successor`), and writes a
page holding every state of the game as compact JSON (`pacman.web.replay_data.page_data`),
the maze as inline SVG (drawn as the pygame window draws it: `pacman.display.scene`'s colours,
wall tubes, dots, Pacman and the ghosts), and the viewer's script and style
(`pacman/web/assets/replay.js`, `replay.css`) inlined. The page needs no server and makes no
request: it opens from the disk, from an e-mail attachment or from any static host.

The search panel shows a traced move as the window's panel does: a tree search's root values,
counts and principal variation, or an MCTS search's root visits and mean values, playouts,
tree size and most-visited line (the rows that do not apply are hidden).

The scrub bar has **one step per move of any agent**: step 0 is the start, step *i* the state
after the game's *i*-th action (Pacman's or a ghost's). A replay whose actions cannot all be
played (`verify(...).complete` is False) still gives a page: it holds the playable prefix and
says where and why the re-simulation stopped.

One job: the page's markup (the maze as SVG, the viewer's HTML) around the data of
`pacman.web.replay_data`, assembled and written with `pacman.web.page`.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pacman.display.scene import (
    BACKGROUND,
    CAPSULE_COLOR,
    CAPSULE_RADIUS,
    FOOD_COLOR,
    FOOD_RADIUS,
    WALL_COLOR,
    WALL_RADIUS,
)
from pacman.errors import PageError
from pacman.layout import Layout, Position
from pacman.web.page import hex_color, inline_asset, page_shell, write_page
from pacman.web.replay_data import page_data

if TYPE_CHECKING:
    from pacman.replay import Replay, Verdict

__all__ = ["PageError", "build_replay_page", "viewer_body", "wall_svg", "write_replay_page"]

CELL = 30  # SVG units per cell: the window's cell at zoom 1


# --------------------------------------------------------------------- the maze
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

    return (f"<g id=\"walls\">{layer(hex_color(WALL_COLOR), radius)}"
            f"{layer(hex_color(BACKGROUND), radius - line)}</g>")


# --------------------------------------------------------------------- the page
def _board_svg(layout: Layout) -> str:
    width, height = layout.width * CELL, layout.height * CELL

    def dots(cells: Sequence[Position], radius: float, color: tuple[int, int, int],
             kind: str) -> str:
        r = _num(max(1.5, radius * CELL))
        return "".join(
            f"<circle class=\"{kind}\" data-i=\"{i}\" cx=\"{_num((x + 0.5) * CELL)}\" "
            f"cy=\"{_num((layout.height - 0.5 - y) * CELL)}\" r=\"{r}\" "
            f"fill=\"{hex_color(color)}\"/>"
            for i, (x, y) in enumerate(cells))

    return (f"<svg id=\"maze\" viewBox=\"0 0 {width} {height}\" "
            f"xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
            f"aria-label=\"the maze\" style=\"background:{hex_color(BACKGROUND)}\">"
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
        <table id="root-values"><thead><tr><th>root action</th>\
<th id="root-visits-head" class="mcts-only" hidden>visits</th>\
<th id="root-value-head">value</th></tr></thead>
          <tbody></tbody></table>
        <table id="search-stats">
          <tr><th>chosen</th><td><span id="search-chosen"></span> \
(<span id="search-value-label">value</span> <span id="search-value"></span>\
<span id="search-chosen-visits" class="mcts-only" hidden></span>)</td></tr>
          <tr><th>method</th><td id="search-method"></td></tr>
          <tr class="mcts-only" hidden><th>stopped by</th><td id="search-stopped"></td></tr>
          <tr class="tree-only"><th>depth</th><td id="search-depth"></td></tr>
          <tr><th>nodes generated</th><td id="search-nodes"></td></tr>
          <tr class="tree-only"><th>evaluations</th><td id="search-evaluations"></td></tr>
          <tr class="tree-only"><th>cuts</th><td id="search-cuts"></td></tr>
          <tr class="tree-only"><th>pruned</th><td id="search-pruned"></td></tr>
          <tr class="mcts-only" hidden><th>playouts</th><td id="search-playouts"></td></tr>
          <tr class="mcts-only" hidden><th>tree size</th><td id="search-tree-size"></td></tr>
        </table>
        <p><span class="label" id="search-pv-label">principal variation</span> \
<span id="search-pv"></span></p>
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


def viewer_body(data: Mapping[str, Any], layout: Layout, outcome_value: str,
                outcome_text: str) -> str:
    """The viewer's markup (header, maze, status bar, controls, scrub bar, panels) for page
    data in `page_data`'s format; `replay.js` fills it in. The live view
    (`pacman.web.live_page`) shows its games in the same markup.

    Args:
        data: the page's data (`page_data` or `start_data`).
        layout: the maze drawn (its food and capsules in `layout.food`'s order).
        outcome_value: the outcome's word in the header (e.g. "win", "incomplete").
        outcome_text: the sentence after it.

    Returns:
        HTML text, every value of `data` escaped.
    """
    escape = html.escape
    fault = data["fault"]
    speeds = "".join(f"<option value=\"{s}\"{' selected' if s == DEFAULT_SPEED else ''}>"
                     f"{s} moves/s</option>" for s in SPEEDS)
    return _BODY.format(
        title=escape(data["title"]), outcome=escape(outcome_value),
        outcome_text=escape(outcome_text),
        fault_hidden="" if fault else " hidden",
        fault_text=escape(fault["text"]) if fault else "",
        notes="".join(f"<li>{escape(note)}</li>" for note in data["notes"]),
        svg=_board_svg(layout), speeds=speeds, end=len(data["steps"]) - 1,
        diff_hidden="" if data["differences"] else " hidden",
        differences="".join(f"<li>{escape(d)}</li>" for d in data["differences"]))


def build_replay_page(replay: Replay, verdict: Verdict | None = None) -> str:
    """The whole page of a replay, as text (see the module's description)."""
    data = page_data(replay, verdict)
    outcome = data["outcome"]
    if outcome is None:
        outcome_value = "incomplete"
        outcome_text = (f"not reached: the re-simulation stops after action {data['played']} "
                        f"(recorded: {data['recorded']['outcome']}, score "
                        f"{data['recorded']['score']})")
    else:
        outcome_value, outcome_text = outcome["value"], outcome["text"]
    body = viewer_body(data, replay.layout, outcome_value, outcome_text)
    return page_shell(f"Pacman replay: {data['title']}", body, css=inline_asset("replay.css"),
                      js=inline_asset("replay.js"), data=data, data_id="replay-data")


def write_replay_page(replay: Replay, path: str | Path, verdict: Verdict | None = None
                      ) -> Path:
    """Write the page of a replay to `path` (its folder is made); returns the path.

    An unwritable path is a one-line `PageError` (`pacman.web.page.write_page`).
    """
    return write_page(build_replay_page(replay, verdict), path)
