"""The Pacman environment: layouts, exact classic rules, game loop, displays, batch, CLI.

This package knows nothing about search; policies live in the `agents` package.
"""

import os as _os
import signal as _signal
import sys as _sys

if _sys.argv[:1] == ["-m"]:  # `python -m pacman` is starting: a Ctrl-C while the package
    # loads is one line, not a traceback (the command installs its own handler when it runs)
    def _interrupted_while_loading(signum: int, frame: object) -> None:
        _os.write(2, b"pacman: interrupted\n")
        _os._exit(130)

    _signal.signal(_signal.SIGINT, _interrupted_while_loading)

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
