"""What a lecture demo is: named matchups, games played on them, and a verdict with numbers.

A demo module defines `DEMOS`, a tuple of `Demo`s. Agents are `pacman.specs.AgentSpec`s (a
registry name and its settings), one per ghost; `Matchup.game(seed)` is the game as the one
description every process plays, and `play_matchup` plays it here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from pacman.display.protocol import Display
from pacman.hosting.local import play
from pacman.layout import load_layout
from pacman.record import GameRecord, Outcome
from pacman.specs import AgentSpec, GameSetup, GameSpec
from pacman.state import GameState


@dataclass(frozen=True)
class Matchup:
    """One side of a demo: a Pacman against its ghosts (one entry per ghost) on a layout."""

    label: str
    pacman: AgentSpec
    ghosts: tuple[AgentSpec, ...]
    layout: str
    max_moves: int = 300

    def versus(self) -> str:
        """`AlphaBetaAgent depth=2 vs 2 x RandomGhost` (`vs no ghosts` without any)."""
        groups: list[list[Any]] = []
        for ghost in self.ghosts:
            if groups and groups[-1][0] == ghost:
                groups[-1][1] += 1
            else:
                groups.append([ghost, 1])
        ghosts = ", ".join(f"{n} x {g.text()}" if n > 1 else g.text() for g, n in groups)
        return f"{self.pacman.text()} vs {ghosts or 'no ghosts'}"

    def setup(self) -> GameSetup:
        """This matchup's games but their seeds."""
        return GameSetup(load_layout(self.layout), self.pacman, self.ghosts, self.max_moves)

    def game(self, seed: int) -> GameSpec:
        """Game `seed` of this matchup, as the one description any process plays."""
        return self.setup().game(seed)


@dataclass(frozen=True)
class Finding:
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
    judge: Callable[[Results], Finding]
    games: int = 10


def play_matchup(matchup: Matchup, seed: int, display: Display | None = None) -> GameRecord:
    """Play one game of `matchup` with `seed` (same seed, same game), optionally shown."""
    return play(matchup.game(seed), display)


@dataclass(frozen=True)
class Summary:
    """What a matchup's games add up to: wins (with a 95% Wilson interval), means, outcomes."""

    games: int
    wins: int
    win_low: float
    win_high: float
    mean_score: float
    mean_moves: float
    outcomes: Mapping[str, int]

    def wins_text(self) -> str:
        """`3/10`."""
        return f"{self.wins}/{self.games}"

    def interval_text(self) -> str:
        """`[7%, 65%]`: the 95% Wilson interval of the win rate."""
        return f"[{self.win_low:.0%}, {self.win_high:.0%}]"

    def outcomes_text(self) -> str:
        """`win 3, loss 7`, in the order of `Outcome`."""
        return ", ".join(f"{name} {count}" for name, count in self.outcomes.items())


def summarize(records: Sequence[GameRecord]) -> Summary:
    """Count and average a matchup's games (means are 0.0 when there are none)."""
    from pacman.experiments.table import wilson_interval

    count = len(records)
    wins = sum(record.won for record in records)
    low, high = wilson_interval(wins, count)
    outcomes = {outcome.value: n for outcome in Outcome
                if (n := sum(record.outcome is outcome for record in records))}
    return Summary(games=count, wins=wins, win_low=low, win_high=high,
                   mean_score=sum(r.score for r in records) / count if count else 0.0,
                   mean_moves=sum(r.pacman_moves for r in records) / count if count else 0.0,
                   outcomes=outcomes)


def game_states(matchup: Matchup, record: GameRecord) -> list[GameState]:
    """The states a game of `matchup` went through: the first, then one after every move.

    Games are seeded, so the record's actions replay it exactly; a judge uses this to measure
    what the record does not keep (food eaten per move, distances, ...).
    """
    state = GameState.initial(load_layout(matchup.layout), len(matchup.ghosts))
    states = [state]
    for turn, action in enumerate(record.actions):
        state = state.successor(turn % state.num_agents, action)
        states.append(state)
    return states


_REVERSE = {"West": "East", "East": "West", "North": "South", "South": "North"}


def reversals(matchup: Matchup, record: GameRecord) -> int:
    """Pacman's moves in a game of `matchup` that undo its move before (East after West, ...;
    Stop is skipped): a Pacman that dithers back and forth makes many."""
    moves = [str(a) for a in record.actions[::1 + len(matchup.ghosts)] if str(a) != "Stop"]
    return sum(_REVERSE.get(a) == b for a, b in pairwise(moves))
