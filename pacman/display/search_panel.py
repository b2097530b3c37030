"""The window's search panel: what the last Pacman move's traced search found, and its line.

`panel_lines(trace)` is the panel's text (pure, no pygame): the method and depth, each root
move with its value (the chosen one marked with `> `), the nodes generated, the evaluations,
the cuts and pruned moves, and the principal variation one round per line. An MCTS trace
(`"method": "mcts"`) shows what MCTS has instead: its budget, horizon and constant, why it
stopped, each root move's visits and mean value, the playouts, the tree's size, the nodes
generated, and the most-visited line of Pacman's moves where the others show the principal
variation. `pv_paths(state, pv)` plays the principal variation (or the most-visited line) from
the state before the move and returns each agent's cells; `draw_panel` and `draw_pv` draw them
with pygame.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pacman.display.scene import Color
from pacman.maze import Point
from pacman.rules import Direction

if TYPE_CHECKING:
    import pygame

    from pacman.display.render import Renderer
    from pacman.state import GameState

PANEL_BACKGROUND: Color = (18, 18, 44)
PANEL_BORDER: Color = (0, 51, 255)
PANEL_TITLE: Color = (230, 230, 51)
PANEL_TEXT: Color = (200, 200, 200)
PANEL_CHOSEN: Color = (255, 255, 61)
PANEL_CHOSEN_BACKGROUND: Color = (70, 70, 20)
PANEL_ROWS = 16            # the panel has room for this many lines (the window grows for it)
CHOSEN = "> "              # the chosen root move's line starts with this
NO_TRACE = "play with --trace and a minimax, alphabeta, expectimax or mcts agent"
KEYS_LINE = "t: hide panel    v: tree view"


def trace_data(trace: Any) -> dict[str, Any] | None:
    """A trace's summary as a dict: from a `SearchTrace` (its `summary()`), a summary or
    `to_json()` dict, or None."""
    if trace is None:
        return None
    if isinstance(trace, Mapping):
        return dict(trace)
    summary = getattr(trace, "summary", None)
    if callable(summary):
        data = summary()
        return data if isinstance(data, dict) else None
    return None


def value_text(value: Any) -> str:
    """A search value as text: `12.5`, `-1000375.5` (two decimals at most), `-inf`, `?` for
    none."""
    if value is None:
        return "?"
    if isinstance(value, str):
        return value
    number = float(value)
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    text = f"{number:.2f}".rstrip("0").rstrip(".")  # -1000375.5, not -1.00038e+06
    return "0" if text == "-0" else text


def pv_rounds(pv: Sequence[Sequence[Any]]) -> list[str]:
    """The principal variation one round per line: `West / ghosts: North, East`."""
    rounds: list[list[tuple[int, str]]] = []
    for agent, action in pv:
        if int(agent) == 0 or not rounds:
            rounds.append([])
        rounds[-1].append((int(agent), str(action)))
    lines = []
    for number, moves in enumerate(rounds, 1):
        pacman = [action for agent, action in moves if agent == 0]
        ghosts = [action for agent, action in moves if agent != 0]
        text = f"{number}. {pacman[0] if pacman else '-'}"
        if ghosts:
            text += f" / ghost{'s' if len(ghosts) > 1 else ''}: {', '.join(ghosts)}"
        lines.append(text)
    return lines


def panel_lines(trace: Any, move_number: int | None = None) -> list[str]:
    """The panel's text for a trace (a `SearchTrace`, its summary or `to_json()` dict) or
    None (the move was not traced: the line says how to get a trace)."""
    data = trace_data(trace)
    title = "Search of the last move" if move_number is None else \
        f"Search of Pacman move {move_number}"
    if data is None:
        return [title, "no search trace for this move:", NO_TRACE, "", KEYS_LINE]
    if data.get("method") == "mcts":
        return [title, *mcts_lines(data), KEYS_LINE]
    lines = [title, f"{data.get('method', '?')}, depth {data.get('depth', '?')}",
             f"chosen: {data.get('action')} (value {value_text(data.get('value'))})",
             "root moves:"]
    chosen = data.get("action")
    for action, value in data.get("root_values", []):
        mark = CHOSEN if action == chosen else "  "
        lines.append(f"{mark}{action}: {value_text(value)}")
    lines += [f"nodes generated: {data.get('nodes_generated', 0):,}",
              f"evaluations: {data.get('evaluations', 0):,}",
              f"cuts: {data.get('cuts', 0):,}, pruned moves: {data.get('pruned', 0):,}",
              "principal variation:"]
    lines += ["  " + line for line in pv_rounds(data.get("principal_variation", []))]
    lines.append(KEYS_LINE)
    return lines


#: why an MCTS search stopped, as the panel says it
MCTS_STOPS = {"playouts": "its playout budget", "nodes": "its node budget",
              "time": "its time budget", "single": "one legal move: no search"}


def mcts_lines(data: Mapping[str, Any]) -> list[str]:
    """The panel's lines for an MCTS summary, between the title and the keys: the search
    (`mcts playouts=200 horizon=10 c=1`) and why it stopped, the chosen move with its mean
    value and visits, each root move's visits and mean (the chosen one marked with `> `, in
    legal order), the playouts and the tree's size, the nodes generated, and the most-visited
    line of Pacman's moves."""
    c = data.get("c")
    constant = f"{c:g}" if isinstance(c, (int, float)) and not isinstance(c, bool) else "?"
    stopped = data.get("stopped")
    why = MCTS_STOPS.get(stopped, str(stopped)) if isinstance(stopped, str) else "?"
    visits = {str(action): count for action, count in data.get("root_visits", [])}
    chosen = data.get("action")
    lines = [f"mcts {data.get('budget', '?')} horizon={data.get('depth', '?')} c={constant}",
             f"stopped by: {why}",
             f"chosen: {chosen} (mean {value_text(data.get('value'))}, "
             f"{visits.get(str(chosen), 0):,} visits)",
             "root moves: visits, mean value"]
    for action, value in data.get("root_values", []):
        mark = CHOSEN if action == chosen else "  "
        lines.append(f"{mark}{action}: {visits.get(str(action), 0):,}, {value_text(value)}")
    line = [str(action) for _, action in data.get("principal_variation", [])]
    lines += [f"playouts: {data.get('playouts', 0):,}, tree size: {data.get('tree_size', 0):,}",
              f"nodes generated: {data.get('nodes_generated', 0):,}",
              "most-visited line:", "  " + (", ".join(line) if line else "-")]
    return lines


def pv_paths(state: GameState, pv: Sequence[Sequence[Any]]) -> list[list[Point]]:
    """Each agent's positions along the principal variation played from `state` (the state
    before the move): index 0 is Pacman's path, i the ghost i's; each starts where the agent
    stands. Stops at the end of the game or at a move the state does not allow."""
    paths: list[list[Point]] = [[state.agent_position(agent)]
                                for agent in range(state.num_agents)]
    for agent, action in pv:
        agent = int(agent)
        if state.is_terminal() or not 0 <= agent < state.num_agents:
            break
        try:
            direction = Direction(str(action))
        except ValueError:
            break
        if direction not in state.legal_actions(agent):
            break
        state = state.successor(agent, direction)
        for index in range(state.num_agents):  # an eaten ghost goes home: its path jumps
            position = state.agent_position(index)
            if position != paths[index][-1]:
                paths[index].append(position)
    return paths


def panel_width(cell: int) -> int:
    """The panel's width in pixels at a cell size."""
    return max(220, cell * 10)


def panel_height(line_height: int) -> int:
    """The panel's least height in pixels: PANEL_ROWS lines."""
    return PANEL_ROWS * line_height + 12


def draw_panel(target: pygame.Surface, rect: pygame.Rect, lines: Sequence[str],
               font: pygame.font.Font) -> None:
    """Draw the panel's lines in `rect`: the title first, the chosen move highlighted, long
    lines wrapped; what does not fit ends in '...'."""
    import pygame

    from pacman.display.status import wrap_text

    target.fill(PANEL_BACKGROUND, rect)
    pygame.draw.line(target, PANEL_BORDER, rect.topleft, rect.bottomleft, 2)
    pad = 10
    width = rect.width - 2 * pad
    height = font.get_linesize()
    y = rect.top + 6
    rows: list[tuple[str, Color, bool]] = []
    for index, line in enumerate(lines):
        chosen = line.startswith(CHOSEN)
        color = PANEL_TITLE if index == 0 else PANEL_CHOSEN if chosen else PANEL_TEXT
        for row in wrap_text(line, width, lambda t: font.size(t)[0]) if line else [""]:
            rows.append((row, color, chosen))
    room = max(1, (rect.bottom - y) // height)
    if len(rows) > room:
        rows = rows[:room - 1] + [("...", PANEL_TEXT, False)]
    for text, color, chosen in rows:
        if chosen:
            target.fill(PANEL_CHOSEN_BACKGROUND, (rect.left + 4, y, rect.width - 8, height))
        if text:
            target.blit(font.render(text, True, color), (rect.left + pad, y))
        y += height


def draw_pv(target: pygame.Surface, renderer: Renderer, paths: Sequence[Sequence[Point]],
            origin: tuple[int, int] = (0, 0)) -> None:
    """Draw the principal variation on the board: each agent's path in its colour, a dot per
    cell and a ring where it ends."""
    import pygame

    from pacman.display.scene import GHOST_COLORS, PACMAN_COLOR

    cell = renderer.cell
    width = max(2, cell // 8)
    for agent, path in enumerate(paths):
        if len(path) < 2:
            continue
        color = PACMAN_COLOR if agent == 0 else GHOST_COLORS[(agent - 1) % len(GHOST_COLORS)]
        shift = (agent - (len(paths) - 1) / 2) * max(1.0, cell * 0.08)  # side by side

        def pixel(point: Point, shift: float = shift) -> tuple[float, float]:
            x, y = renderer.to_pixels(point)
            return origin[0] + x + shift, origin[1] + y + shift

        for a, b in itertools.pairwise(path):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) <= 1.01:  # not an eaten ghost's jump home
                pygame.draw.line(target, color, pixel(a), pixel(b), width)
        for point in path[1:-1]:
            pygame.draw.circle(target, color, pixel(point), max(2, cell // 10))
        pygame.draw.circle(target, color, pixel(path[-1]), max(4, cell // 4), width)
