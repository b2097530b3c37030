"""The Pacman environment: layouts, exact classic rules, game loop, displays, batch, CLI.

This package knows nothing about search; policies live in the `agents` package.
"""

from pacman.game import Agent, run_game
from pacman.layout import Layout, LayoutError, load_layout, parse_layout
from pacman.record import GameRecord, Outcome
from pacman.rules import Direction
from pacman.state import GameState, IllegalMoveError

__version__ = "0.1.0"

__all__ = [
    "Agent", "Direction", "GameRecord", "GameState", "IllegalMoveError", "Layout", "LayoutError",
    "Outcome", "__version__", "load_layout", "parse_layout", "run_game",
]
