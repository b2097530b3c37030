"""Tell the user's Ctrl-C from a `KeyboardInterrupt` that agent code raised itself.

Python turns SIGINT into `KeyboardInterrupt`, and agent code can raise the same exception (or
catch and re-raise it). The command line installs `mark_user_interrupts()`: its SIGINT handler
notes that the user pressed Ctrl-C before raising. Code that guards agent calls then asks
`is_user_interrupt(error)`: only the user's interrupt stops the run; any other exception, a
`KeyboardInterrupt` or `SystemExit` from agent code included, is that agent's crash.

Without the handler installed (a library user), every `KeyboardInterrupt` counts as the
user's, which is Python's usual meaning. The flag is process-wide because signals are.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["held_interrupts", "is_user_interrupt", "mark_user_interrupts", "sigint_masked"]

_state = {"installed": False, "pressed": False}


def _on_sigint(signum: int, frame: Any) -> None:
    _state["pressed"] = True
    raise KeyboardInterrupt


def mark_user_interrupts() -> None:
    """Install the SIGINT handler that marks the user's Ctrl-C (main thread only); from then
    on, a `KeyboardInterrupt` without a Ctrl-C is an agent's fault."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, _on_sigint)
    # (a child process that ignores SIGINT keeps ignoring it: there, every
    # KeyboardInterrupt comes from agent code)
    _state["installed"] = True
    _state["pressed"] = False


def is_user_interrupt(error: BaseException) -> bool:
    """True if `error` is the user's Ctrl-C (as opposed to something agent code raised)."""
    if not isinstance(error, KeyboardInterrupt):
        return False
    return _state["pressed"] or not _state["installed"]


@contextmanager
def held_interrupts() -> Iterator[None]:
    """Hold a Ctrl-C that arrives during the block and deliver it when the block ends.

    For steps that must not be cut in two, such as starting a worker process (between its
    start and the hand-over of its start-up data, an interrupt would leave it reading a closed
    pipe and printing a traceback). Blocking the signal is not enough: a Ctrl-C taken just
    before, or by another thread, still runs Python's handler inside the block. Outside the
    main thread (where handlers cannot be changed) the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[bool] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held and callable(previous):
        previous(signal.SIGINT, None)  # ours or Python's: raises KeyboardInterrupt


@contextmanager
def sigint_masked() -> Iterator[None]:
    """Block SIGINT in this thread for the block: the threads and processes it starts inherit
    the mask, so a Ctrl-C reaches only this process's own handler (where signal masks exist)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
