"""The window's search panel and tree view for an MCTS Pacman (issue 28, item 4): the panel's
text for an MCTS summary (its budget, why it stopped, each root move's visits and mean value,
playouts, tree size, nodes, the most-visited line), the same text for a live `MCTSTrace` and
for what a replay keeps, the panel drawn in a window nobody sees (SDL's dummy driver), and a
tree view that says in one line that MCTS has no node list to draw."""

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
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.mcts import MCTSAgent
from pacman.cli import main
from pacman.display import search_panel
from pacman.display.search_panel import (
    PANEL_BACKGROUND,
    PANEL_ROWS,
    panel_lines,
    pv_paths,
    value_text,
)
from pacman.display.tree_view import MCTS_NO_TREE, TreeView
from pacman.display.window import PygameWindow, open_window
from pacman.layout import load_layout
from pacman.record import GameRecord
from pacman.replay import load_replay, scripted_agents
from pacman.rules import Direction

SMALL = load_layout("smallClassic")
KEYS = "t: hide panel    v: tree view"

#: an MCTS summary as a replay keeps it (`MCTSTrace.summary()`), made by hand
SUMMARY: dict[str, Any] = {
    "method": "mcts", "action": "West", "value": 12.345, "depth": 10,
    "nodes_generated": 12345, "evaluations": 200, "cuts": 0, "pruned": 0,
    "root_values": [["West", 12.345], ["Stop", -3.0], ["East", "nan"]],
    "root_visits": [["West", 150], ["Stop", 50], ["East", 0]],
    "principal_variation": [[0, "West"], [0, "West"], [0, "North"]],
    "playouts": 200, "tree_size": 57, "stopped": "playouts", "budget": "playouts=200",
    "c": 1.0,
}


def test_the_panel_of_an_mcts_summary() -> None:
    assert panel_lines(SUMMARY, 3) == [
        "Search of Pacman move 3",
        "mcts playouts=200 horizon=10 c=1",
        "stopped by: its playout budget",
        "chosen: West (mean 12.35, 150 visits)",
        "root moves: visits, mean value",
        "> West: 150, 12.35",
        "  Stop: 50, -3",
        "  East: 0, nan",
        "playouts: 200, tree size: 57",
        "nodes generated: 12,345",
        "most-visited line:",
        "  West, West, North",
        KEYS,
    ]


@pytest.mark.parametrize(("stopped", "budget", "c", "line", "why"), [
    ("nodes", "nodes=5000", 0.5, "mcts nodes=5000 horizon=10 c=0.5", "its node budget"),
    ("time", "time=0.1", 1.4, "mcts time=0.1 horizon=10 c=1.4", "its time budget"),
])
def test_the_panel_names_the_budget_and_why_it_stopped(stopped: str, budget: str, c: float,
                                                      line: str, why: str) -> None:
    lines = panel_lines({**SUMMARY, "stopped": stopped, "budget": budget, "c": c})
    assert lines[:3] == ["Search of the last move", line, f"stopped by: {why}"]


def test_a_single_legal_move_is_no_search() -> None:
    single = {**SUMMARY, "action": "East", "value": "nan", "nodes_generated": 1,
              "evaluations": 0, "root_values": [["East", "nan"]], "root_visits": [["East", 0]],
              "principal_variation": [[0, "East"]], "playouts": 0, "tree_size": 1,
              "stopped": "single"}
    assert panel_lines(single, 9)[1:-1] == [
        "mcts playouts=200 horizon=10 c=1", "stopped by: one legal move: no search",
        "chosen: East (mean nan, 0 visits)", "root moves: visits, mean value",
        "> East: 0, nan", "playouts: 0, tree size: 1", "nodes generated: 1",
        "most-visited line:", "  East"]


def traced_move(playouts: int = 60) -> Any:
    """The trace of a real MCTS search of smallClassic's start (seeded: the same each run)."""
    agent = MCTSAgent(tree="move", playouts=playouts, trace=True)
    agent.get_action(GameState.initial(SMALL))
    assert agent.last_decision is not None and agent.last_decision.trace is not None
    return agent.last_decision.trace


def test_the_panel_of_a_real_search_shows_its_own_counts() -> None:
    trace = traced_move()
    summary = trace.summary()
    lines = panel_lines(trace, 1)
    # a live trace, its summary and its to_json() (no node list) give the same lines
    assert lines == panel_lines(summary, 1) == panel_lines(trace.to_json(), 1)
    visits = dict(trace.root_visits)
    assert sum(visits.values()) == trace.playouts == 60
    assert lines[3] == f"chosen: {trace.action} (mean {value_text(trace.value)}, " \
                       f"{visits[trace.action]} visits)"
    chosen = [line for line in lines if line.startswith("> ")]
    assert chosen == [f"> {trace.action}: {visits[trace.action]}, {value_text(trace.value)}"]
    for action, mean in trace.root_values:
        assert f"{'> ' if action == trace.action else '  '}{action}: {visits[action]}, " \
               f"{value_text(mean)}" in lines
    assert f"playouts: 60, tree size: {trace.tree_size:,}" in lines
    assert f"nodes generated: {trace.nodes_generated:,}" in lines
    assert lines[-2] == "  " + ", ".join(trace.principal_variation)
    assert trace.principal_variation[0] == trace.action
    assert len(lines) <= PANEL_ROWS


def test_the_most_visited_line_is_pacmans_path_on_the_maze() -> None:
    # Pacman starts at (9, 1) on smallClassic's bottom row; (6, 2) is the first way up
    paths = pv_paths(GameState.initial(SMALL), [[0, "West"], [0, "West"], [0, "West"],
                                                [0, "North"]])
    # the ghosts do not move in an MCTS line: each path is where the ghost stands
    assert paths == [[(9, 1), (8, 1), (7, 1), (6, 1), (6, 2)], [(8, 5)], [(11, 5)]]


def test_the_tree_view_says_mcts_has_no_node_list() -> None:
    for trace in (traced_move(), SUMMARY):
        view = TreeView(trace, 4)
        assert view.items == [] and view.current is None
        assert view.lines()[0] == MCTS_NO_TREE
        assert not view.key(pygame.K_RIGHT) and not view.open_group()


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
    pixels: np.ndarray[Any, Any] = np.array(pygame.surfarray.array3d(surface)).transpose(1, 0, 2)
    return pixels


def test_t_shows_an_mcts_moves_panel_and_v_says_there_is_no_tree(
        window: PygameWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    drawn: list[list[str]] = []
    real = search_panel.draw_panel

    def spy(target: Any, rect: Any, lines: Any, font: Any) -> None:
        drawn.append(list(lines))
        real(target, rect, lines, font)

    monkeypatch.setattr(search_panel, "draw_panel", spy)
    record = run_game(SMALL, MCTSAgent(tree="move", playouts=80, trace=True),
                      [DirectionalGhost(1), DirectionalGhost(2)], seed=3, max_moves=4,
                      display=window)
    assert record.pacman_moves == 4 and len(record.pacman_traces) == 4
    surface = pygame.display.get_surface()
    assert surface is not None
    width = surface.get_width()
    key(pygame.K_t)
    window.take_direction()
    move = window._move
    assert move is not None and move.pacman_moves == 4
    assert drawn[-1] == panel_lines(move.trace, 4)
    assert drawn[-1][1] == "mcts playouts=80 horizon=10 c=1"
    assert search_panel.trace_data(move.trace) == record.pacman_traces[3]
    pixels = screen_pixels()
    assert int((pixels[:, width:] == PANEL_BACKGROUND).all(axis=2).sum()) > 20_000
    seen: dict[str, Any] = {}

    def script() -> None:
        try:
            if wait_until(lambda: window.blocked == "tree" and window.tree_frames > 0):
                assert window.tree is not None
                seen["lines"] = window.tree.lines()
        finally:
            key(pygame.K_ESCAPE)

    thread = threading.Thread(target=script, daemon=True)
    thread.start()
    key(pygame.K_v)
    window.take_direction()  # opens the view; returns once Escape closes it
    thread.join(10)
    assert seen["lines"][0] == MCTS_NO_TREE
    assert window.blocked is None and window.paused and not window.quit_requested


def test_a_replay_of_an_mcts_game_shows_each_recorded_search(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    assert main(["play", "-p", "mcts", "-a", "tree=move,playouts=50", "--trace", "-l",
                 "smallClassic", "-q", "--seed", "3", "--max-moves", "6", "--record",
                 str(game)]) == 0
    replay = load_replay(game)
    assert replay.ignored == ()
    record = replay.record
    shown: list[Any] = []

    class Recording:
        def start(self, state: GameState, agents: tuple[str, ...]) -> None:
            pass

        def update(self, state: GameState, move: Any) -> None:
            if move.agent == 0:
                shown.append(move)

        def finish(self, state: GameState, record: GameRecord) -> None:
            pass

    agents = scripted_agents(replay)
    run_game(replay.layout, agents[0], agents[1:], seed=record.seed,
             max_moves=record.pacman_moves, display=Recording())
    assert [search_panel.trace_data(move.trace) for move in shown] == list(record.pacman_traces)
    first = record.pacman_traces[0]
    assert first is not None and first["method"] == "mcts" and first["playouts"] == 50
    assert panel_lines(shown[0].trace, 1)[5:-5] == [
        f"{'> ' if action == first['action'] else '  '}{action}: {visits}, "
        f"{value_text(mean)}"
        for (action, mean), (_, visits) in zip(first["root_values"], first["root_visits"],
                                               strict=True)]
    assert TreeView(shown[0].trace, 1).lines()[0] == MCTS_NO_TREE
    assert Direction(record.actions[0]).value == first["action"]


# --------------------------------------------------------------------- the docs' picture
def docs_picture(out: Path) -> None:
    """Play 7 moves of MCTS against two directional ghosts in a window nobody sees, show the
    panel and save the window (by hand only: the tests never write into docs/)."""
    display = open_window(frame_time=0.0, end_wait=0, allow_dummy=True)
    try:
        pygame.event.clear()
        run_game(SMALL, MCTSAgent(tree="move", playouts=200, trace=True),
                 [DirectionalGhost(1), DirectionalGhost(2)], seed=3, max_moves=7,
                 display=display)
        key(pygame.K_t)
        display.take_direction()
        display._present()
        surface = pygame.display.get_surface()
        assert surface is not None
        pygame.image.save(surface, str(out))
    finally:
        display.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    import sys

    docs_picture(Path(sys.argv[1]) if len(sys.argv) > 1 else
                 Path(__file__).resolve().parents[2] / "docs" / "window-mcts-panel.png")
