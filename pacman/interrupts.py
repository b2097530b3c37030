"""Tell the user's Ctrl-C from a `KeyboardInterrupt` that agent code raised itself.

Python turns SIGINT into `KeyboardInterrupt`, and agent code can raise the same exception (or
catch and re-raise it). The command line installs `mark_user_interrupts()`: its SIGINT handler
notes that the user pressed Ctrl-C before raising. Code that guards agent calls then asks
`is_user_interrupt(error)`: only the user's interrupt stops the run; any other exception, a
`KeyboardInterrupt` or `SystemExit` from agent code included, is that agent's crash.

Without the handler installed (a library user), every `KeyboardInterrupt` counts as the
user's, which is Python's usual meaning. The flag is process-wide because signals are.

Python runs the handler at the next point of the main thread's Python code, which may be a
destructor or a garbage collector's callback: there an exception cannot propagate, and Python
prints it and drops it. With the handler installed, such a Ctrl-C is delivered again a moment
later instead, silently (`sys.unraisablehook`).
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from types import TracebackType
from typing import Any

__all__ = ["held_interrupts", "is_user_interrupt", "mark_user_interrupts", "sigint_masked"]

_state = {"installed": False, "pressed": False, "redelivering": False}


def _on_sigint(signum: int, frame: Any) -> None:
    _state["pressed"] = True
    if _state["redelivering"]:  # (inside `_unraisable`: raised there, it would be lost again)
        _redeliver()
        return
    raise KeyboardInterrupt


def _unraisable(unraisable: Any) -> None:
    """`sys.unraisablehook` while the handler is installed. A Ctrl-C whose handler ran where
    Python cannot raise (a destructor, a garbage collector's callback such as Dask's) would
    be printed as a traceback and lost: it is delivered again instead, silently, by a timer
    thread (`_thread.interrupt_main`), so that it lands after this hook has returned (and if
    it lands in such a place again, it comes back here). Anything else goes to the hook that
    was there before."""
    if not _raised_by_handler(unraisable.exc_traceback):
        _previous_hook[0](unraisable)
        return
    _state["redelivering"] = True
    _redeliver()
    _state["redelivering"] = False


def _redeliver() -> None:
    """SIGINT again for the main thread, from a timer thread (none at interpreter exit)."""
    timer = threading.Timer(_REDELIVER_SECONDS, _thread.interrupt_main, (signal.SIGINT,))
    timer.daemon = True
    with suppress(RuntimeError):  # (the interpreter is exiting: no new thread)
        timer.start()


def _raised_by_handler(trace: TracebackType | None) -> bool:
    """True if the traceback ends in `_on_sigint` (the user's Ctrl-C, not agent code's)."""
    while trace is not None and trace.tb_next is not None:
        trace = trace.tb_next
    return trace is not None and trace.tb_frame.f_code is _on_sigint.__code__


#: how soon a Ctrl-C that landed where Python could not raise it is delivered again
_REDELIVER_SECONDS = 0.01
_previous_hook: list[Callable[[Any], object]] = []


def mark_user_interrupts() -> None:
    """Install the SIGINT handler that marks the user's Ctrl-C (main thread only); from then
    on, a `KeyboardInterrupt` without a Ctrl-C is an agent's fault."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, _on_sigint)
        if sys.unraisablehook is not _unraisable:
            _previous_hook[:] = [sys.unraisablehook]
            sys.unraisablehook = _unraisable
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
