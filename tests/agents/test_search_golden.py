"""Search and simulator pinned together: seeded smallClassic games whose every Pacman move
(action and generated-node count) must match a golden file, for each search agent at depth 2.

Regenerate after an intended rule or search change with `PACMAN_UPDATE_GOLDEN=1 pytest ...`
and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pacman import load_layout, run_game
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.pacman_agents import AlphaBetaAgent, ExpectimaxAgent, MinimaxAgent

GOLDEN = Path(__file__).parent / "golden"
# An explicit weighted sum, so that retuning the named evaluations does not move these files.
EVALUATION = ("score:1,food:-1,food_left:-10,ghost:4,radius:3,capsule:-2,capsules_left:-40,"
              "scared:200")
AGENTS = {"minimax": MinimaxAgent, "alphabeta": AlphaBetaAgent, "expectimax": ExpectimaxAgent}
SEED = 2
MAX_MOVES = 120


def transcript(name: str) -> str:
    """The game of agent `name` as text: a header, then one line per Pacman move."""
    agent = AGENTS[name](depth=2, evaluation=EVALUATION)
    record = run_game(load_layout("smallClassic"), agent,
                      [DirectionalGhost(1), DirectionalGhost(2)], seed=SEED,
                      max_moves=MAX_MOVES)
    lines = [f"# {record.agents[0]} vs 2 DirectionalGhost, smallClassic, seed {SEED}",
             f"outcome {record.outcome.value} score {record.score} "
             f"moves {record.pacman_moves}"]
    pacman_actions = record.actions[0::len(record.agents)]
    for move, (action, nodes) in enumerate(zip(pacman_actions, record.pacman_nodes), 1):
        lines.append(f"{move} {action} {nodes}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_search_agent_game_matches_golden(name: str) -> None:
    path = GOLDEN / f"smallClassic-{name}-depth2.txt"
    text = transcript(name)
    if os.environ.get("PACMAN_UPDATE_GOLDEN") == "1":
        path.write_text(text)
    expected = path.read_text()
    for number, (want, got) in enumerate(zip(expected.splitlines(), text.splitlines()), 1):
        assert got == want, f"{path.name} line {number}: expected {want!r}, got {got!r}"
    assert text == expected


def test_alphabeta_and_minimax_play_the_same_game() -> None:
    """Same decisions (alpha-beta only prunes), fewer or equal nodes on every move."""
    minimax_lines = transcript("minimax").splitlines()[1:]
    alphabeta_lines = transcript("alphabeta").splitlines()[1:]
    assert minimax_lines[0] == alphabeta_lines[0]
    for mm, ab in zip(minimax_lines[1:], alphabeta_lines[1:]):
        _, mm_action, mm_nodes = mm.split()
        _, ab_action, ab_nodes = ab.split()
        assert ab_action == mm_action
        assert int(ab_nodes) <= int(mm_nodes)
