"""One game played the way the classic autograder plays it (its `Game.run` with caught errors).

The autograder's game tests and agent tests need the classic loop, not ours: every agent's
`registerInitialState`, then turns from Pacman on; the game ends at once on a win or a loss; an
agent that raises (anything) or plays an illegal move *crashes* the game; an agent whose single
move, or whose total time in the game, goes over `time_limit_seconds` *times out*. Ghost
randomness is whatever the agents draw from the global `random` module, which the caller seeds.

A move over the limit is interrupted where the platform allows (a timer signal in the main
thread), so an endless loop ends as a timeout; the grader's process-level limit is the
backstop for code that swallows the interruption.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pacman.interrupts import is_user_interrupt
from pacman.layout import Layout
from pacman.limits import MoveTimeLimit, MoveTimer
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
    `register_initial_state(state)`) on `layout` with the classic rules of the game loop."""
    with MoveTimer() as timer:
        return _play(layout, agents, time_limit_seconds, describe, timer)


def _play(layout: Layout, agents: Sequence[Any], time_limit_seconds: float | None,
          describe: Callable[[BaseException], str], timer: MoveTimer) -> ClassicGame:
    state = GameState.initial(layout, len(agents) - 1)
    limit = time_limit_seconds
    used = [0.0] * len(agents)
    moves = 0

    def call(index: int, method: Callable[[GameState], Any]) -> tuple[Any, ClassicGame | None]:
        budget = None if limit is None else max(1e-3, limit - used[index])
        started = time.perf_counter()
        try:
            if budget is not None:
                timer.arm(budget)
            try:
                result = method(state)
            finally:
                timer.disarm()
        except MoveTimeLimit as stopped:
            where = f" ({stopped.where})" if stopped.where else ""
            return None, ClassicGame(state, moves, timed_out=True, crashed=True,
                                     fault_agent=index, fault=_over(limit, index) + where)
        except BaseException as error:
            if is_user_interrupt(error):
                raise
            return None, ClassicGame(state, moves, crashed=True, fault_agent=index,
                                     fault=describe(error))
        elapsed = time.perf_counter() - started
        used[index] += elapsed
        if limit is not None and (elapsed > limit or used[index] > limit):
            return None, ClassicGame(state, moves, timed_out=True, crashed=True,
                                     fault_agent=index, fault=_over(limit, index))
        return result, None

    for index, agent in enumerate(agents):
        register = getattr(agent, "register_initial_state", None)
        if callable(register):
            _, ended = call(index, register)
            if ended is not None:
                return ended
    index = 0
    while True:
        action, ended = call(index, agents[index].get_action)
        if ended is not None:
            return ended
        try:
            state = state.successor(index, action)
        except Exception as error:  # an illegal move crashes the game, as in the classic loop
            return ClassicGame(state, moves, crashed=True, fault_agent=index,
                               fault=f"illegal action {action!r}: {error}")
        if index == 0:
            moves += 1
        if state.is_terminal():
            return ClassicGame(state, moves)
        index = (index + 1) % len(agents)


def _over(limit: float | None, index: int) -> str:
    who = "Pacman" if index == 0 else f"ghost {index}"
    return f"{who} went over the time limit of {limit:g}s (per move and per game)"
