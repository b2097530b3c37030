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
