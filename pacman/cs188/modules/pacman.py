"""The `pacman` module as student code sees it: `GameState` is the CS188 state class.

Student files write `from pacman import GameState` (for annotations) or use a few of the
classic module's constants. Any other name falls through to our own `pacman` package, so a
file written against this project's API keeps working when it is loaded the same way.
"""

from __future__ import annotations

import importlib
from typing import Any

from pacman.cs188.state import CS188GameState as GameState
from pacman.rules import (
    COLLISION_TOLERANCE,
    SCARED_TIME,
    TIME_PENALTY,
)

__all__ = ["COLLISION_TOLERANCE", "SCARED_TIME", "TIME_PENALTY", "GameState"]


def __getattr__(name: str) -> Any:
    """Names this module lacks come from our `pacman` package (e.g. `run_game`)."""
    package = importlib.import_module("pacman")
    try:
        return getattr(package, name)
    except AttributeError:
        raise AttributeError(f"the CS188 'pacman' module has no attribute {name!r}") from None
