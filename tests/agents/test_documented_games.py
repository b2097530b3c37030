"""The first game of each best-agent row of docs/results.md, played again: same outcome, score,
moves and nodes searched. A change to the rules, the search or an evaluation that moves the
documented games fails here, before the tables go stale (`slow`: the six games searched for
144 s when they were first played; run with `-m slow`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pacman.experiments.store import ResultStore

AGENT = "iterative-expectimax@time=0,nodes={nodes},ghost_model=directional,evaluation={evaluation}"

#: (layout, evaluation, nodes a move): game 0 of `pacman batch -p AGENT -g DirectionalGhost -k 2
#: -l LAYOUT --max-moves 1000` (batch seed 0): its seed, outcome, score, Pacman moves, and the
#: nodes its searches visited, as stored by the runs of docs/results.md.
GAMES = {
    ("mediumClassic", "learned-penned", 9400): (795529348, "win", 2108, 162, 1522998),
    ("mediumClassic", "learned-penned", 3250): (1062115064, "win", 1621, 249, 809577),
    ("capsuleClassic", "learned-penned", 9400): (700548267, "loss", 400, 70, 648694),
    ("smallClassic", "learned-wary", 9400): (1709081420, "win", 1746, 104, 977728),
    ("trickyClassic", "learned-wary", 9400): (399043708, "win", 2635, 205, 1927286),
    ("originalClassic", "learned", 9400): (1173047884, "win", 3210, 380, 3572456),
}


@pytest.mark.slow
@pytest.mark.parametrize(("layout", "evaluation", "nodes"), list(GAMES))
def test_the_first_documented_game_is_played_again(tmp_path: Path, layout: str,
                                                    evaluation: str, nodes: int) -> None:
    store = tmp_path / "games.db"
    agent = AGENT.format(nodes=nodes, evaluation=evaluation)
    subprocess.run([sys.executable, "-m", "pacman", "batch", "-p", agent, "-g", "DirectionalGhost",
                    "-k", "2", "-l", layout, "-n", "1", "--max-moves", "1000", "-j", "1",
                    "-o", str(store)], capture_output=True, text=True, timeout=600, check=True)
    with ResultStore(store, create=False) as results:
        (game,) = results.games()
    assert game.index == 0 and game.complete and game.fault is None
    played = (game.seed, game.outcome.value, game.score, game.pacman_moves, game.nodes)
    assert played == GAMES[layout, evaluation, nodes]
