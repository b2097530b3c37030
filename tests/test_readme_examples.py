"""Every `pacman play` example of the README ends in a sensible number of moves.

The examples are read from the README itself, run headless on a few seeds with a move cap of
1,000, and each game must be won or lost (never capped): an example that stalls, as a weighted
evaluation without `food_left` can beside the last dots, fails here.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
SEEDS = ("1", "2", "3")


def play_examples() -> list[list[str]]:
    """The `pacman play` lines of the README's code blocks that a machine can run alone."""
    examples = []
    in_block = False
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_block = not in_block
            continue
        if in_block and line.startswith("pacman play"):
            words = shlex.split(line.split("#", 1)[0])
            if "-p" not in words and "--pacman" not in words:
                continue  # the keyboard: a person plays
            if "--agents" in words:
                continue  # a student's file, which the README does not ship
            examples.append(words[2:])
    return examples


def test_the_readme_has_play_examples() -> None:
    assert len(play_examples()) >= 3


@pytest.mark.parametrize("example", play_examples(), ids=" ".join)
def test_a_readme_example_ends_in_a_sensible_number_of_moves(example: list[str]) -> None:
    words = [w for w in example if w not in ("-t", "-q")]
    if "--seed" in words:
        at = words.index("--seed")
        del words[at:at + 2]
    if "-n" in words:
        at = words.index("-n")
        del words[at:at + 2]
    for seed in SEEDS:
        done = subprocess.run([sys.executable, "-m", "pacman", "play", *words, "-q", "--seed",
                               seed, "--max-moves", "1000"], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        games = re.findall(r"^game \d+: seed \d+, (\w+), score -?\d+, (\d+) moves", done.stdout,
                           re.MULTILINE)
        assert games, done.stdout
        for outcome, moves in games:
            assert outcome in ("win", "loss"), (example, seed, outcome, moves)
