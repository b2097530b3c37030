"""One game played the way the classic autograder plays it, through the package's one game loop.

The autograder's game tests and agent tests play `run_game` with `classic=True`: every agent's
`registerInitialState`, then turns from Pacman on; the game ends at once on a win or a loss; an
agent that raises (anything) or plays an illegal move *crashes* the game; an agent whose single
move, or whose total time in the game, goes over `time_limit_seconds` *times out*
(`TimeLimits.classic`). Ghost randomness is whatever the agents draw from the global `random`
module, which the caller seeds.

A move over the limit is interrupted where the platform allows (a timer signal in the main
thread), so an endless loop ends as a timeout; the grader's process-level limit is the
backstop for code that swallows the interruption.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pacman.display.protocol import NullDisplay
from pacman.game import run_game
from pacman.layout import Layout
from pacman.limits import TimeLimits
from pacman.record import GameRecord, Outcome
from pacman.state import GameState

__all__ = ["ClassicGame", "play_classic_game"]


@dataclass(frozen=True)
class ClassicGame:
    """How a classic game ended: the final state, and whether an agent crashed or timed out."""

    state: GameState
    pacman_moves: int
    timed_out: bool = False
    crashed: bool = False
    fault_agent: int | None = None
    fault: str = ""

    @property
    def won(self) -> bool:
        """True if Pacman ate the last food."""
        return self.state.is_win()

    @property
    def score(self) -> float:
        """The final score, as the classic code reports it (a float)."""
        return float(self.state.score)


def play_classic_game(layout: Layout, agents: Sequence[Any], time_limit_seconds: float | None,
                      describe: Callable[[BaseException], str] = repr) -> ClassicGame:
    """Play `agents` (Pacman first; each has `get_action(state)` and optionally
    `register_initial_state(state)`) on `layout` with the classic rules of the game loop;
    `describe` writes what an agent raised."""
    final = _FinalState()
    record = run_game(layout, agents[0], agents[1:], limits=TimeLimits.classic(
        time_limit_seconds), display=final, classic=True, describe_fault=describe)
    return classic_game(record, final.state)


def classic_game(record: GameRecord, state: GameState) -> ClassicGame:
    """A game's record and final state as the classic grader sees the game: a timeout is also
    a crash."""
    timed_out = record.outcome is Outcome.TIMEOUT
    return ClassicGame(state, record.pacman_moves, timed_out=timed_out,
                       crashed=timed_out or record.outcome is Outcome.CRASH,
                       fault_agent=record.fault_agent, fault=record.fault or "")


class _FinalState(NullDisplay):
    """Shows nothing; keeps the game's last state."""

    state: GameState

    def finish(self, state: GameState, record: GameRecord) -> None:
        self.state = state
