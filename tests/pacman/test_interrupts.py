"""The user's Ctrl-C: told from an agent's own KeyboardInterrupt, and held over steps that must
not be cut in two."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator

import pytest

from pacman import interrupts
from pacman.experiments.backends import _sigint_blocked
from pacman.interrupts import held_interrupts, is_user_interrupt, mark_user_interrupts


@pytest.fixture(autouse=True)
def _restore_sigint() -> Iterator[None]:
    handler = signal.getsignal(signal.SIGINT)
    state = dict(interrupts._state)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        interrupts._state.update(state)


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


def test_a_block_without_a_ctrl_c_changes_nothing() -> None:
    mark_user_interrupts()
    with held_interrupts():
        pass
    assert signal.getsignal(signal.SIGINT) is interrupts._on_sigint
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # an ignored Ctrl-C stays ignored
    with held_interrupts():
        os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
