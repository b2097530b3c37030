"""Time limits that interrupt agent code, and a guard against agent code ending the process.

`TimeLimits` is what a game's time is limited by, one frozen value checked once where it is
made: every command, file and process carries it as it is.

`MoveTimer` raises `MoveTimeLimit` inside whatever runs when a move's time is up (a timer
signal, so only in the main thread of a POSIX process; elsewhere the caller measures after the
fact). It is the soft half of a limit: code that catches `BaseException`, or loops in C, is
stopped by the hard half, a child process the parent kills (`pacman.hosting.isolation`,
`pacman.hosting.watched`).

`guard_process_exit()` turns `os._exit` from agent code into an `AgentExit` exception for the
duration of a game, so an agent that calls it crashes its game instead of silently ending the
whole program with status 0.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

from pacman.errors import LimitError, shown_value

__all__ = ["LOAD_SECONDS", "LOAD_SECONDS_MIN", "MAX_SECONDS", "NO_LIMITS", "AgentExit",
           "MoveTimeLimit", "MoveTimer", "TimeLimits", "guard_process_exit", "load_limit",
           "seconds"]

MAX_SECONDS = 1_000_000.0
"""The longest time limit there is, about 11.6 days: a larger one is a mistake, not a wish."""


@dataclass(frozen=True)
class TimeLimits:
    """What a game's time is limited by, in seconds; None: no limit of that kind.

    Made once from the command line, an experiment file, a notebook call or a test case, and
    checked once, here: each limit is a real number (not a bool) above 0 and at most
    `MAX_SECONDS`, else `LimitError` names the limit and the value. An `int` is kept as the
    `float` it means, so equal limits are equal values. `run_game` keeps them all:

    - a move over `move` ends the game with outcome `timeout` for the agent that made it;
    - an agent whose own thinking over the game sums to more than `agent_game` times out;
    - a game still running `game` seconds after its first agent's start-up began times out.

    An agent's start-up (`register_initial_state`) counts as one of its moves.
    """

    move: float | None = None
    """Seconds for one move of one agent (its start-up included)."""
    game: float | None = None
    """Seconds for the whole game on the wall clock: every agent's thinking and the rules."""
    agent_game: float | None = None
    """Seconds each agent may think over the whole game, its moves summed (the classic CS188
    autograder's per-game limit, which it gives as the same number as the move limit)."""

    def __post_init__(self) -> None:
        for name in ("move", "game", "agent_game"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, seconds(value, f"the {name} time limit"))

    @property
    def limited(self) -> bool:
        """True if any limit is set."""
        return self.move is not None or self.game is not None or self.agent_game is not None

    @property
    def load(self) -> float:
        """Seconds an agent's code may take to load in its host (`load_limit` of `game`)."""
        return load_limit(self.game)

    @classmethod
    def classic(cls, seconds: float | None) -> TimeLimits:
        """The classic autograder's limit of `seconds` (None: none): each move and each
        agent's whole game."""
        return cls(move=seconds, agent_game=seconds)


#: how long loading an agent (starting its host, importing the user's code, building the
#: agent) may take before it is given up, when no game time limit shortens it (`load_limit`)
LOAD_SECONDS = 60.0
#: the least a game time limit shortens it to: imports of big libraries take seconds
LOAD_SECONDS_MIN = 10.0


def load_limit(game_time_limit: float | None) -> float:
    """The time an agent's code may take to load (`LOAD_SECONDS`), shortened to the game's time
    limit when there is one, but to no less than `LOAD_SECONDS_MIN`.

    Args:
        game_time_limit: the games' limit in seconds, or None.

    Returns:
        Seconds.
    """
    if game_time_limit is None:
        return LOAD_SECONDS
    return min(LOAD_SECONDS, max(LOAD_SECONDS_MIN, game_time_limit))


NO_LIMITS = TimeLimits()
"""No time limit at all (the default of a game)."""


def seconds(value: object, what: str) -> float:
    """`value` as a time limit in seconds: a real number (not a bool) above 0 and at most
    `MAX_SECONDS`, as a float; else `LimitError` naming `what` (`"--move-timeout"`, `"the move
    time limit"`). The one check of a time limit, wherever one is given."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not 0 < value <= MAX_SECONDS:  # NaN and infinity too
        raise LimitError(f"{what}: expected seconds > 0 and at most {MAX_SECONDS:,.0f}, "
                         f"got {shown_value(value)}")
    return float(value)


class MoveTimeLimit(BaseException):
    """Raised inside an agent's code when its time is up (a BaseException, so that an agent's
    `except Exception` does not swallow it). `where`: where the code was, when the agent plays
    in a host that could say (`pacman.grading.running.stalls`), else ""."""

    where = ""


class AgentExit(SystemExit):
    """`os._exit` called by agent code while it was guarded."""


class MoveTimer:
    """Interrupts moves with `MoveTimeLimit`: the signal handler is installed once (for a whole
    game) and each move only arms and disarms the timer. Does nothing outside the main thread
    or without timer signals."""

    def __init__(self) -> None:
        self.usable = (hasattr(signal, "setitimer")
                       and threading.current_thread() is threading.main_thread())
        self._previous: Any = None

    def __enter__(self) -> MoveTimer:
        if self.usable:
            self._previous = signal.signal(signal.SIGALRM, _expire)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.usable:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)

    def arm(self, seconds: float) -> None:
        """Interrupt the code that runs next after `seconds`."""
        if self.usable:
            signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3))

    def disarm(self) -> None:
        """No interrupt (the move ended in time)."""
        if self.usable:
            signal.setitimer(signal.ITIMER_REAL, 0)


def _expire(signum: int, frame: Any) -> None:
    raise MoveTimeLimit


def _refuse_exit(status: int = 0) -> NoReturn:
    raise AgentExit(f"os._exit({status}) called by agent code")


@contextmanager
def guard_process_exit() -> Iterator[None]:
    """While the block runs, `os._exit` raises `AgentExit` instead of ending the process."""
    original = os._exit
    os._exit = _refuse_exit
    try:
        yield
    finally:
        os._exit = original
