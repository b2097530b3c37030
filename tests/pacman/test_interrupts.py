"""The user's Ctrl-C: told from an agent's own KeyboardInterrupt, and held over steps that must
not be cut in two."""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from pacman import interrupts
from pacman.experiments.backends import _sigint_blocked
from pacman.interrupts import held_interrupts, is_user_interrupt, mark_user_interrupts


@pytest.fixture(autouse=True)
def _restore_sigint() -> Iterator[None]:
    handler = signal.getsignal(signal.SIGINT)
    state = dict(interrupts._state)
    hook = sys.unraisablehook
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        interrupts._state.update(state)
        sys.unraisablehook = hook


def test_an_agents_own_keyboard_interrupt_is_not_the_users() -> None:
    mark_user_interrupts()
    assert not is_user_interrupt(KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt) as caught:
        os.kill(os.getpid(), signal.SIGINT)
    assert is_user_interrupt(caught.value)


@pytest.mark.parametrize("block", [held_interrupts, _sigint_blocked])
def test_a_ctrl_c_inside_the_block_is_raised_when_it_ends(block: object) -> None:
    """Even when another thread takes the signal: blocking it in this thread is not enough."""
    mark_user_interrupts()
    finished = []
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)  # SIGINT not blocked there
    other.start()
    with pytest.raises(KeyboardInterrupt) as caught, block():  # type: ignore[operator]
        os.kill(os.getpid(), signal.SIGINT)
        end = time.monotonic() + 0.2
        while time.monotonic() < end:  # a call that runs pending handlers: one raises here
            signal.pthread_sigmask(signal.SIG_BLOCK, set())
        finished.append(True)
    stop.set()
    other.join()
    assert finished and is_user_interrupt(caught.value)
    assert signal.getsignal(signal.SIGINT) is interrupts._on_sigint


class _Landing:
    """Where the Ctrl-C lands: its `place` runs `signal.raise_signal` there (once)."""

    def __init__(self) -> None:
        self.landed: list[bool] = []

    def ctrl_c(self) -> None:
        if not self.landed:
            self.landed.append(True)
            signal.raise_signal(signal.SIGINT)


def _in_a_collector_callback(landing: _Landing) -> None:
    def callback(phase: str, info: object) -> None:
        if phase == "start":
            landing.ctrl_c()
    gc.callbacks.append(callback)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(callback)


def _in_a_destructor(landing: _Landing) -> None:
    class Dropped:
        def __del__(self) -> None:
            landing.ctrl_c()
    Dropped()


@pytest.mark.parametrize("place", [_in_a_collector_callback, _in_a_destructor])
def test_a_ctrl_c_that_lands_where_python_cannot_raise_it_comes_again(
        place: Callable[[_Landing], None]) -> None:
    """Python prints a KeyboardInterrupt raised in a garbage collector's callback (Dask has
    one) or a destructor, and drops it: the batch then played on, its Ctrl-C lost. It is
    raised again, at the next point that can raise, and nothing is printed."""
    mark_user_interrupts()
    printed: list[object] = []
    interrupts._previous_hook[:] = [printed.append]
    landing = _Landing()
    with pytest.raises(KeyboardInterrupt) as caught:
        place(landing)
        deadline = time.monotonic() + 60  # (it comes in a moment, or never)
        while time.monotonic() < deadline:
            time.sleep(0.01)
    assert landing.landed and is_user_interrupt(caught.value) and printed == []


def test_an_agents_keyboard_interrupt_in_a_destructor_goes_to_the_hook_before() -> None:
    """Only the handler's own KeyboardInterrupt is delivered again: agent code's is printed
    as Python prints it (by the hook that was there before)."""
    mark_user_interrupts()
    printed: list[object] = []
    interrupts._previous_hook[:] = [printed.append]

    class Agents:
        def __del__(self) -> None:
            raise KeyboardInterrupt
    Agents()
    assert [getattr(item, "exc_type", None) for item in printed] == [KeyboardInterrupt]


def test_a_block_without_a_ctrl_c_changes_nothing() -> None:
    mark_user_interrupts()
    with held_interrupts():
        pass
    assert signal.getsignal(signal.SIGINT) is interrupts._on_sigint
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # an ignored Ctrl-C stays ignored
    with held_interrupts():
        os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
