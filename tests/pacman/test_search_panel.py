"""The window's search panel and tree view: the panel's text for a real traced search, the
trace handed to the display by the game, the principal variation's cells on the maze, and the
panel and tree view drawn in a window nobody sees (SDL's dummy driver)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame starts: no window on screen

import numpy as np
import pygame
from pygame_events import key, wait_until

from pacman import GameState, run_game
from pacman.agents.evaluation import NAMED
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.pacman_agents import AlphaBetaAgent
from pacman.agents.search import alphabeta, expectimax
from pacman.agents.trace import SearchTrace, traced_search
from pacman.cli import main
from pacman.display import search_panel
from pacman.display.protocol import MoveInfo
from pacman.display.scene import GHOST_COLORS, PACMAN_COLOR
from pacman.display.search_panel import (
    NO_TRACE,
    PANEL_BACKGROUND,
    panel_lines,
    panel_width,
    pv_paths,
    pv_rounds,
    value_text,
)
from pacman.display.tree_view import (
    CHANCE_COLOR,
    MAX_COLOR,
    MIN_COLOR,
    PV_COLOR,
    SUMMARY_ONLY,
    TreeView,
    node_line,
    tree_title,
)
from pacman.display.window import PygameWindow, open_window
from pacman.layout import load_layout
from pacman.record import GameRecord
from pacman.replay import load_replay, scripted_agents
from pacman.rules import Direction
from pacman.tree_placement import Placed

SMALL = load_layout("smallClassic")


def traced_decision(state: GameState, depth: int = 2) -> SearchTrace:
    decision = alphabeta(state, depth, NAMED["better"], trace=True)
    assert decision.trace is not None
    return decision.trace


class Recording:
    """A display that keeps every MoveInfo."""

    def __init__(self) -> None:
        self.moves: list[MoveInfo] = []
        self.states: list[GameState] = []

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        self.states.append(state)

    def update(self, state: GameState, move: MoveInfo) -> None:
        self.moves.append(move)
        self.states.append(state)

    def finish(self, state: GameState, record: GameRecord) -> None:
        pass


# --------------------------------------------------------------------- the panel's text
def test_panel_lines_of_a_real_alphabeta_search() -> None:
    trace = traced_decision(GameState.initial(SMALL))
    assert (trace.action, trace.nodes_generated, trace.evaluations, trace.cuts,
            trace.pruned) == ("West", 41, 12, 16, 16)
    assert panel_lines(trace, 1) == [
        "Search of Pacman move 1",
        "alphabeta, depth 2",
        "chosen: West (value -1553.5)",
        "root moves:",
        "> West: -1553.5",
        "  Stop: -1594.5",
        "  East: -1554.5",
        "nodes generated: 41",
        "evaluations: 12",
        "cuts: 16, pruned moves: 16",
        "principal variation:",
        "  1. West / ghosts: East, West",
        "  2. West / ghosts: East, West",
        "t: hide panel    v: tree view",
    ]
    # a summary (what a replay keeps) and the whole JSON give the same lines
    assert panel_lines(trace.summary(), 1) == panel_lines(trace.to_json(), 1) \
        == panel_lines(trace, 1)


def test_panel_lines_follow_the_trace_they_show() -> None:
    state = GameState.initial(SMALL).successor(0, Direction.WEST)
    state = state.successor(1, state.legal_actions(1)[0]).successor(2, state.legal_actions(2)[0])
    trace = traced_decision(state, depth=3)
    lines = panel_lines(trace)
    assert lines[0] == "Search of the last move"
    assert f"chosen: {trace.action} (value {value_text(trace.value)})" in lines
    assert [line for line in lines if line.startswith("> ")] == [
        f"> {trace.action}: {value_text(trace.value)}"]
    for action, value in trace.root_values:
        assert f"{'> ' if action == trace.action else '  '}{action}: {value_text(value)}" \
            in lines
    assert f"cuts: {trace.cuts:,}, pruned moves: {trace.pruned:,}" in lines
    assert f"nodes generated: {trace.nodes_generated:,}" in lines
    assert trace.pruned > 0


def test_without_a_trace_the_panel_says_how_to_get_one() -> None:
    assert panel_lines(None, 7) == ["Search of Pacman move 7", "no search trace for this move:",
                                    NO_TRACE, "", "t: hide panel    v: tree view"]
    assert NO_TRACE == "play with --trace and a minimax, alphabeta, expectimax or mcts agent"


def test_values_read_without_exponents() -> None:
    assert [value_text(v) for v in (-1553.5, -1000375.5, 12, 0.125, 1 / 3, "-inf", None,
                                    float("inf"))] == [
        "-1553.5", "-1000375.5", "12", "0.12", "0.33", "-inf", "?", "inf"]


def test_pv_rounds_and_infinite_values() -> None:
    assert pv_rounds([[0, "West"], [1, "North"], [0, "East"]]) == [
        "1. West / ghost: North", "2. East"]
    summary = {"method": "minimax", "depth": 1, "action": "Stop", "value": "-inf",
               "nodes_generated": 3, "evaluations": 2, "cuts": 0, "pruned": 0,
               "root_values": [["Stop", "-inf"], ["East", "-inf"]],
               "principal_variation": []}
    lines = panel_lines(summary)
    assert "chosen: Stop (value -inf)" in lines and "> Stop: -inf" in lines
    assert "  East: -inf" in lines


# --------------------------------------------------------------------- the game and the PV
def test_the_game_hands_each_pacman_moves_trace_to_the_display() -> None:
    display = Recording()
    agent = AlphaBetaAgent(depth=2, evaluation="better", trace=True)
    record = run_game(SMALL, agent, [DirectionalGhost(1), DirectionalGhost(2)], seed=3,
                      max_moves=4, display=display)
    pacman_moves = [move for move in display.moves if move.agent == 0]
    assert len(pacman_moves) == 4 and len(display.moves) == 12
    assert all(isinstance(move.trace, SearchTrace) for move in pacman_moves)
    assert [move.trace.summary() for move in pacman_moves] == list(record.pacman_traces)
    assert [move.trace.action for move in pacman_moves] == [
        move.action for move in pacman_moves]
    assert [move.trace for move in display.moves if move.agent != 0] == [None] * 8


def test_an_untraced_search_hands_no_trace() -> None:
    display = Recording()
    record = run_game(SMALL, AlphaBetaAgent(depth=1), [DirectionalGhost(1)], seed=1,
                      max_moves=2, display=display)
    assert [move.trace for move in display.moves] == [None] * 4
    assert record.pacman_nodes[0] is not None and record.pacman_traces == ()


def test_pv_paths_are_the_simulated_principal_variation() -> None:
    state = GameState.initial(SMALL)
    trace = traced_decision(state, depth=3)
    paths = pv_paths(state, trace.principal_variation)
    expected: list[list[tuple[float, float]]] = [[state.agent_position(i)]
                                                 for i in range(state.num_agents)]
    simulated = state
    for agent, action in trace.principal_variation:
        simulated = simulated.successor(agent, Direction(action))
        expected[agent].append(simulated.agent_position(agent))
    assert len(trace.principal_variation) == 9
    assert paths[0] == expected[0] and len(paths[0]) == 4  # three Pacman moves, all moving
    for ghost in (1, 2):  # a ghost never stops: one cell per move
        assert paths[ghost] == expected[ghost]


def test_pv_paths_stop_at_an_illegal_move() -> None:
    state = GameState.initial(SMALL)
    wall = next(d for d in Direction if d not in state.legal_actions(0))
    assert pv_paths(state, [[0, wall.value], [1, "North"]]) == [
        [state.agent_position(i)] for i in range(state.num_agents)]


# --------------------------------------------------------------------- the window

@pytest.fixture
def window() -> Any:
    display = open_window(frame_time=0.0, end_wait=0, allow_dummy=True)
    pygame.event.clear()
    yield display
    display.close()


def screen_pixels() -> np.ndarray[Any, Any]:
    surface = pygame.display.get_surface()
    assert surface is not None
    return np.array(pygame.surfarray.array3d(surface)).transpose(1, 0, 2)


def count(pixels: np.ndarray[Any, Any], color: tuple[int, int, int]) -> int:
    return int((pixels == color).all(axis=2).sum())


def played(window: PygameWindow, moves: int = 3) -> GameRecord:
    agent = AlphaBetaAgent(depth=2, evaluation="better", trace=True)
    return run_game(SMALL, agent, [DirectionalGhost(1), DirectionalGhost(2)], seed=3,
                    max_moves=moves, display=window)


def test_t_shows_the_panel_beside_the_maze_with_the_panel_lines(
        window: PygameWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[list[str]] = []
    real = search_panel.draw_panel

    def spy(target: Any, rect: Any, lines: Any, font: Any) -> None:
        drawn.append(list(lines))
        real(target, rect, lines, font)

    monkeypatch.setattr(search_panel, "draw_panel", spy)
    played(window)
    width = pygame.display.get_surface().get_width()
    assert drawn == []  # hidden by default
    key(pygame.K_t)
    window.take_direction()  # any call that reads the events
    assert window.show_panel
    assert pygame.display.get_surface().get_width() == width + panel_width(30)
    move = window._move
    assert move is not None and move.pacman_moves == 3
    assert drawn[-1] == panel_lines(move.trace, 3)
    pixels = screen_pixels()
    assert count(pixels[:, width:], PANEL_BACKGROUND) > 20_000
    assert count(pixels[:, :width], PANEL_BACKGROUND) == 0
    # the principal variation on the maze: Pacman's path in yellow beyond where he stands
    assert window._before is not None
    paths = pv_paths(window._before, move.trace.principal_variation)
    renderer = window._renderer
    assert renderer is not None
    for cell in paths[0][2:]:
        x, y = renderer.to_pixels(cell)
        around = pixels[int(y) - 5:int(y) + 6, int(x) - 5:int(x) + 6]
        assert count(around, PACMAN_COLOR) > 0, cell
    for ghost in (1, 2):
        x, y = renderer.to_pixels(paths[ghost][-1])  # the ring where the ghost's line ends
        ring = pixels[int(y) - 10:int(y) + 11, int(x) - 10:int(x) + 11]
        assert count(ring, GHOST_COLORS[ghost - 1]) > 0
    key(pygame.K_t)
    window.take_direction()
    assert not window.show_panel
    assert pygame.display.get_surface().get_width() == width


def test_the_panel_without_a_trace_says_how_to_get_one(
        window: PygameWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[list[str]] = []
    monkeypatch.setattr(search_panel, "draw_panel",
                        lambda target, rect, lines, font: drawn.append(list(lines)))
    run_game(SMALL, AlphaBetaAgent(depth=1), [], seed=3, max_moves=2, display=window)
    key(pygame.K_t)
    window.take_direction()
    assert drawn[-1] == panel_lines(None, 2)
    assert NO_TRACE in drawn[-1]


def test_the_panel_resizes_with_the_window(window: PygameWindow) -> None:
    played(window, 1)
    key(pygame.K_t)
    window.take_direction()
    renderer = window._renderer
    assert renderer is not None and renderer.cell == 30
    pygame.display.set_mode((700, 500), pygame.RESIZABLE)
    window._resize()
    renderer = window._renderer
    assert renderer is not None
    assert renderer.size[0] + panel_width(renderer.cell) <= 700 and renderer.cell < 30
    window._present()
    assert count(screen_pixels(), PANEL_BACKGROUND) > 10_000


def test_v_opens_the_tree_view_which_steps_and_returns_paused(
        window: PygameWindow, tmp_path: Path) -> None:
    played(window)
    size = pygame.display.get_surface().get_size()
    failures: list[str] = []
    seen: dict[str, Any] = {}

    def script() -> None:
        try:
            if not wait_until(lambda: window.blocked == "tree" and window.tree_frames > 0):
                failures.append("v did not open the tree view")
                return
            shot = tmp_path / "tree.png"
            pygame.image.save(pygame.display.get_surface(), str(shot))
            seen["pixels"] = np.array(pygame.surfarray.array3d(pygame.image.load(str(shot)))
                                      ).transpose(1, 0, 2)
            key(pygame.K_RIGHT)
            key(pygame.K_RIGHT)
            if not wait_until(lambda: window.tree is not None and window.tree.selected == 2):
                failures.append("Right did not step")
            assert window.tree is not None and window.tree.current is not None
            seen["line"] = window.tree.lines()[1]
            seen["current"] = window.tree.current
        finally:
            key(pygame.K_ESCAPE)

    thread = threading.Thread(target=script, daemon=True)
    thread.start()
    key(pygame.K_v)
    window.take_direction()  # opens the view; returns once Escape closes it
    thread.join(10)
    assert not failures
    assert window.blocked is None and window.paused and not window.quit_requested
    assert pygame.display.get_surface().get_size() == size  # and back to its size after
    pixels = seen["pixels"]
    for color in (MAX_COLOR, MIN_COLOR, PV_COLOR):
        assert count(pixels, color) > 30, color
    assert pixels.shape[:2] == (500, 800)  # a small window grows while the tree is open
    assert count(pixels[:-40], CHANCE_COLOR) == 0  # alpha-beta has no chance nodes (above
    # the bottom line, whose legend shows every shape)
    current = seen["current"]
    assert current.node is not None and current.node["id"] == 2  # generation order: 0, 1, 2
    assert seen["line"] == node_line(current)


def test_the_tree_view_of_an_untraced_move_says_how_to_get_one() -> None:
    view = TreeView(None, 3)
    assert view.items == [] and view.current is None
    assert view.lines()[0].startswith("no search tree for the last move: play with --trace")
    assert not view.key(pygame.K_RIGHT)


def test_tree_view_groups_open_with_enter() -> None:
    trace = traced_decision(GameState.initial(SMALL), depth=3)
    view = TreeView(trace, 1, max_shown=10)
    groups = [i for i, item in enumerate(view.items) if item.node is None]
    assert groups
    view.selected = view.order.index(groups[0])
    group = view.items[groups[0]]
    hidden_before = sum(item.hidden for item in view.items)
    assert view.key(pygame.K_RETURN)
    assert group.id in view.expanded
    assert sum(item.hidden for item in view.items) < hidden_before
    assert node_line(group) == f"a group of {group.hidden:,} nodes under node #{group.id} " \
                               "(Enter: open it)"


# --------------------------------------------------------------------- pacman play --trace
@pytest.mark.parametrize("view", ["-q", "-t"])
def test_trace_with_nothing_to_show_it_is_a_one_line_error(
        view: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", view, "-p", "alphabeta", "--trace", "-l", "smallClassic"]) == 2
    err = capsys.readouterr().err
    assert err == ("pacman: error: --trace keeps each move's search in the replay: add --record "
                   "FILE.json (or --record-dir DIR), or drop -q/-t to see it in the window "
                   "(key t)\n")


def test_trace_needs_no_record_with_the_window(capsys: pytest.CaptureFixture[str]) -> None:
    # the dummy driver is no window: the game falls back to the text display, but --trace
    # alone is accepted (a real window under Xvfb: test_window_xvfb.py)
    assert main(["play", "-p", "alphabeta", "-a", "depth=1", "--trace", "-l", "smallClassic",
                 "--seed", "1", "--max-moves", "2", "--frame-time", "0"]) == 0
    captured = capsys.readouterr()
    assert "pacman: error" not in captured.err and "Outcomes:      capped 1" in captured.out


def test_trace_with_an_agent_that_cannot_trace_is_a_one_line_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "-p", "random", "--trace", "-l", "smallClassic"]) == 2
    assert capsys.readouterr().err == ("pacman: error: --trace: RandomAgent does not trace its "
                                       "search (the minimax, alphabeta, expectimax and mcts "
                                       "agents do)\n")


def test_t_works_on_the_end_screen_and_another_key_goes_on() -> None:
    window = open_window(frame_time=0.0, end_wait=None, allow_dummy=True)  # waits for a key
    failures: list[str] = []

    def script() -> None:
        try:
            if not wait_until(lambda: window.blocked == "end"):
                failures.append("the end screen did not wait")
                return
            key(pygame.K_t)
            if not wait_until(lambda: window.show_panel):
                failures.append("t did nothing on the end screen")
            if window.blocked != "end":
                failures.append("t ended the end screen")
        finally:
            key(pygame.K_SPACE)

    try:
        pygame.event.clear()
        thread = threading.Thread(target=script, daemon=True)
        thread.start()
        played(window, 2)
        thread.join(10)
        assert not failures
        assert window.show_panel and not window.quit_requested
    finally:
        window.close()


def test_an_expectimax_tree_has_chance_circles_and_no_min_triangles() -> None:
    state = GameState.initial(SMALL, 1)
    decision = expectimax(state, 2, NAMED["better"], trace=True)
    view = TreeView(decision.trace, 1, max_shown=60)
    assert [item.node["kind"] for item in view.items[:2] if item.node] == ["max", "chance"]
    assert node_line(view.items[1]) == ("#1 West: ply 1, chance (ghost 1 to move), value "
                                        "-1553.5, outcome probabilities 1; on the principal "
                                        "variation")  # the ghost's only move at the start
    pygame.font.init()
    surface = pygame.Surface((800, 500))
    view.draw(surface, surface.get_rect(), pygame.font.Font(None, 17),
              pygame.font.Font(None, 14))
    pixels = np.array(pygame.surfarray.array3d(surface)).transpose(1, 0, 2)[:-40]
    assert count(pixels, CHANCE_COLOR) > 300 and count(pixels, MAX_COLOR) > 100
    assert count(pixels, MIN_COLOR) == 0


def test_node_line_names_the_window_and_the_cut() -> None:
    node = {"id": 7, "parent": 3, "action": "East", "ply": 2, "agent": 2, "kind": "min",
            "value": -12.5, "alpha": 3, "beta": "inf",
            "cut": {"after": 0, "by": "alpha", "bound": 3, "skipped": ["North", "South"]}}
    item = Placed(7, 1.0, 2, 0, 0, False, node)
    assert node_line(item) == ("#7 East: ply 2, min (ghost 2 to move), value -12.5, alpha 3, "
                               "beta inf; cut by alpha 3, never generated: North, South")


def test_the_tree_title_counts_what_is_drawn_and_what_was_not_recorded() -> None:
    state = GameState.initial(SMALL)
    decision = traced_search("alphabeta", state, 2, NAMED["better"], max_nodes=10)
    view = TreeView(decision.trace, 4, max_shown=5)
    drawn = sum(1 for item in view.items if item.node is not None)
    # the principal variation is always drawn: 7 nodes, past the 5 asked for
    assert drawn == 7 and decision.trace is not None and decision.trace.unrecorded == 31
    assert tree_title(view.data, view.items, 4) == (
        "Search of Pacman move 4: alphabeta, depth 2, chose West (value -1553.5); 41 nodes "
        "generated, 7 drawn, 16 cuts pruning 16 moves; 31 past the trace's budget, not "
        "recorded")


def test_a_replay_shows_each_moves_recorded_search(tmp_path: Path) -> None:
    """`pacman replay` of a --trace game: the display gets each Pacman move's recorded nodes
    and summary (the panel shows them); the tree view says the replay keeps summaries only."""

    game = tmp_path / "game.json"
    assert main(["play", "-p", "alphabeta", "-a", "depth=2,evaluation=better", "-l",
                 "smallClassic", "-q", "--seed", "3", "--max-moves", "12", "--record",
                 str(game), "--trace"]) == 0
    replay = load_replay(game)
    record = replay.record
    shown = Recording()
    agents = scripted_agents(replay)
    run_game(replay.layout, agents[0], agents[1:], seed=record.seed,
             max_moves=record.pacman_moves, display=shown)
    pacman = [move for move in shown.moves if move.agent == 0]
    assert len(pacman) == record.pacman_moves == len(record.pacman_traces) == 12
    assert [move.nodes for move in pacman] == list(record.pacman_nodes)
    assert [search_panel.trace_data(move.trace) for move in pacman] == list(
        record.pacman_traces)
    assert all(move.trace is None for move in shown.moves if move.agent != 0)
    first = record.pacman_traces[0]
    assert panel_lines(pacman[0].trace, 1)[2] == (
        f"chosen: {first['action']} (value {search_panel.value_text(first['value'])})")
    assert TreeView(pacman[0].trace, 1).lines()[0] == SUMMARY_ONLY
