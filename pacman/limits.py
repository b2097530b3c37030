"""Time limits that interrupt agent code, and a guard against agent code ending the process.

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
from typing import Any, NoReturn

__all__ = ["AgentExit", "MoveTimeLimit", "MoveTimer", "guard_process_exit"]


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
