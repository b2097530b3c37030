"""`BaseAgent`: the settings, generator and description every shipped agent shares."""

from __future__ import annotations

import random
from typing import Any

from pacman import GameState


class BaseAgent:
    """An agent with an index, the game's generator, and a one-line description.

    The game hands its seeded generator through `set_rng`; an agent used outside a game gets a
    fixed-seed generator, so it is deterministic too.
    """

    index: int = 0

    def __init__(self, index: int = 0) -> None:
        self.index = index
        self.rng = random.Random(0)

    def set_rng(self, rng: random.Random) -> None:
        """Use the game's generator for every random choice."""
        self.rng = rng

    def settings(self) -> str:
        """The settings shown in the description ('' for none)."""
        return ""

    def describe(self) -> str:
        """E.g. `AlphaBetaAgent depth=3 better`."""
        extra = self.settings()
        return f"{type(self).__name__} {extra}" if extra else type(self).__name__

    def get_action(self, state: GameState) -> Any:
        """The action to play in `state`."""
        raise NotImplementedError
