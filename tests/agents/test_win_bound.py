"""`scripts/win_bound.py`: the exact best chance of a win against directional ghosts, which the
strongest-Pacman table (docs/results.md) gives for trappedClassic and minimaxClassic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "win_bound.py"


def bound(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, check=True)
    return done.stdout.splitlines()


def test_trapped_classic_cannot_be_won_more_than_one_time_in_ten() -> None:
    # Pacman must pass the ghost in the one gap down to the food: he wins only if that ghost
    # steps down at its first move, which a directional ghost does with probability 0.2 x 1/2
    # (a random move, one of its two), and then he can always win; 5 moves are too few
    assert bound("trappedClassic", "--moves", "5", "10", "40") == [
        "trappedClassic: at best 0.0000 within 5 Pacman moves (61 positions)",
        "trappedClassic: at best 0.1000 within 10 Pacman moves (91 positions)",
        "trappedClassic: at best 0.1000 within 40 Pacman moves (91 positions)"]


def test_a_layout_without_ghosts_is_won_for_sure_once_there_are_moves_enough() -> None:
    lines = bound("trappedClassic", "-k", "0", "--moves", "1", "12")
    assert lines[0].startswith("trappedClassic: at best 0.0000 within 1 Pacman moves")
    assert lines[1].startswith("trappedClassic: at best 1.0000 within 12 Pacman moves")


def test_the_strongest_agent_reaches_the_bound_on_trapped_classic() -> None:
    """The anytime expectimax of the strongest-Pacman table plays trappedClassic perfectly for
    winning: it wins exactly the games in which the ghost in the gap (agent 1) steps down at
    its first move, the only games any agent can win (at 3,700 nodes a move, its 40 ms budget)."""
    from pacman import load_layout, run_game
    from pacman.agents.ghosts import DirectionalGhost
    from pacman.agents.registry import make_agent

    layout = load_layout("trappedClassic")
    won, stepped_down = [], []
    for seed in range(30):
        pacman = make_agent("iterative-expectimax", "pacman", {
            "time": 0, "nodes": 3700, "ghost_model": "directional", "evaluation": "learned"})
        record = run_game(layout, pacman, [DirectionalGhost(1), DirectionalGhost(2)], seed=seed)
        if record.outcome.value == "win":
            won.append(seed)
        if record.actions[1] == "South":
            stepped_down.append(seed)
    assert won == stepped_down
    assert 0 < len(won) < 30  # both kinds of game happen: the test can tell them apart
