"""`KeyboardAgent`: you play Pacman with the arrow keys or WASD in the window.

The last direction repeats while it is legal. A key for a direction that is blocked right now
is remembered and taken at the first opening (arcade-style cornering). `x` stops Pacman (Stop
then repeats, and the ghosts keep moving). When Pacman has nowhere to go -- at the start, or
after running into a wall -- the game waits for a key, the window staying responsive.
This module does not import pygame: the window reads the keys.
"""

from __future__ import annotations

from typing import Any, Protocol

from pacman.rules import STOP, Direction
from pacman.state import GameState


class KeyboardSource(Protocol):
    """What the agent needs from a display: the window implements it."""

    def enable_keyboard(self) -> None:
        """Let direction keys steer Pacman."""

    def take_direction(self) -> Direction | None:
        """The direction pressed since the last call, if any (raises GameStopped on quit)."""

    def wait_for_direction(self) -> Direction | None:
        """Block until a direction key; None when the user asked for a restart."""


class KeyboardAgent:
    """Pacman steered by a person through the window (`-p keyboard`)."""

    def __init__(self, index: int = 0) -> None:
        self.index = index
        self.source: KeyboardSource | None = None
        self.wanted: Direction | None = None    # the last key pressed
        self.current: Direction | None = None   # the direction Pacman is going

    def attach(self, display: Any) -> None:
        """Read keys from `display` (the window); a display without keys is a ValueError."""
        if not all(callable(getattr(display, name, None))
                   for name in ("enable_keyboard", "take_direction", "wait_for_direction")):
            raise ValueError("the keyboard agent needs the window (no keys without it)")
        display.enable_keyboard()
        self.source = display

    def describe(self) -> str:
        """'KeyboardAgent'."""
        return "KeyboardAgent"

    def get_action(self, state: GameState) -> Direction:
        """The wanted direction if legal, else the current one, else wait for a key."""
        if self.source is None:
            raise ValueError("the keyboard agent is not attached to a window")
        legal = state.legal_actions(self.index)
        pressed = self.source.take_direction()
        while True:
            if pressed is not None:
                self.wanted = pressed
            for choice in (self.wanted, self.current):
                if choice is not None and choice in legal:
                    self.current = choice
                    if choice is STOP:
                        self.wanted = None
                    return choice
            pressed = self.source.wait_for_direction()
            if pressed is None:  # restart asked: any legal move; the window then restarts
                return STOP
