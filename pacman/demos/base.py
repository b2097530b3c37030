"""What a lecture demo is: named matchups, games played on them, and a verdict with numbers.

A demo module defines `DEMOS`, a tuple of `Demo`s. Agents are named as the registry names
them (`pacman` never imports `agents` at module level), with keyword settings, one entry per
ghost. `play_matchup` plays one seeded game of a matchup.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pacman.display.base import Display
from pacman.game import run_game
from pacman.layout import load_layout
from pacman.record import GameRecord

Settings = Mapping[str, Any]


@dataclass(frozen=True)
class Agent:
    """An agent by registry name with its keyword settings."""

    name: str
    settings: Settings = field(default_factory=dict)

    def text(self) -> str:
        """`AlphaBetaAgent depth=2 evaluation=better`."""
        return " ".join([self.name, *(f"{k}={v}" for k, v in self.settings.items())])


@dataclass(frozen=True)
class Matchup:
    """One side of a demo: a Pacman against its ghosts (one entry per ghost) on a layout."""

    label: str
    pacman: Agent
    ghosts: tuple[Agent, ...]
    layout: str
    max_moves: int = 300


@dataclass(frozen=True)
class Verdict:
    """Whether the lecture's point showed, and the numbers that say so (a short paragraph)."""

    holds: bool
    text: str


Results = Mapping[str, Sequence[GameRecord]]
"""Games played, by matchup label, in seed order."""


@dataclass(frozen=True)
class Demo:
    """A lecture demo: matchups to play, and a judge of the games they gave.

    `games` is the number of games per matchup `pacman demo NAME -q` plays by default; `judge`
    reads the games (any number of them) and says whether the lecture's claim held.
    """

    name: str
    title: str
    summary: str
    matchups: tuple[Matchup, ...]
    judge: Callable[[Results], Verdict]
    games: int = 10


def play_matchup(matchup: Matchup, seed: int, display: Display | None = None) -> GameRecord:
    """Play one game of `matchup` with `seed` (same seed, same game), optionally shown."""
    from agents.registry import make_agent  # lazy: pacman never imports agents at load

    pacman = make_agent(matchup.pacman.name, "pacman", matchup.pacman.settings, index=0)
    ghosts = [make_agent(g.name, "ghost", g.settings, index=i)
              for i, g in enumerate(matchup.ghosts, start=1)]
    return run_game(load_layout(matchup.layout), pacman, ghosts, seed=seed,
                    max_moves=matchup.max_moves, display=display)
