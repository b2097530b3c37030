"""Helpers for the window tests: post a key to pygame's queue, wait for a condition."""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame


def key(code: int) -> None:
    """Post a key press, as the keyboard would."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="",
                                         scancode=0))


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Whether `condition()` became true within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return False
