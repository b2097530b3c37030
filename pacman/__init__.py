"""The Pacman environment for adversarial search: exact classic rules, layouts, the game loop.

The package is built in three layers (the README's map; `tests/test_architecture.py` holds
them): the game core (this front file's names: layouts, rules, the immutable `GameState`,
`run_game` and its `GameRecord`, replays and displays), the policies in `pacman.agents`
(searches, evaluations, agents, ghosts and the registry of their names) and the applications
(`pacman.cli`, `pacman.experiments`, `pacman.grading`, ...). The core imports no policy.

The names below are loaded on first use, so that `pacman --version`, or a command that needs
none of them, does not pay for the game's modules.
"""

from __future__ import annotations

import os as _os
import signal as _signal
import sys as _sys

if _sys.argv[:1] == ["-m"]:  # `python -m pacman` is starting: a Ctrl-C while the package
    # loads is one line, not a traceback (the command installs its own handler when it runs)
    def _interrupted_while_loading(signum: int, frame: object) -> None:
        _os.write(2, b"pacman: interrupted\n")
        _os._exit(130)

    _signal.signal(_signal.SIGINT, _interrupted_while_loading)

from typing import TYPE_CHECKING

from pacman.lazy import lazy_exports

if TYPE_CHECKING:
    from pacman.errors import IllegalMoveError, LayoutError, PacmanError
    from pacman.game import Agent, run_game
    from pacman.layout import Layout, load_layout, parse_layout
    from pacman.record import GameRecord, Outcome
    from pacman.rules import Direction
    from pacman.state import GameState

from pacman.release import RELEASE as __version__

__all__ = [
    # layouts
    "Layout", "load_layout", "parse_layout",
    # the rules and the state
    "Direction", "GameState",
    # playing a game
    "Agent", "run_game", "GameRecord", "Outcome",
    # errors
    "PacmanError", "LayoutError", "IllegalMoveError",
    "__version__",
]

_HOMES = {
    "Layout": "pacman.layout", "load_layout": "pacman.layout", "parse_layout": "pacman.layout",
    "Direction": "pacman.rules", "GameState": "pacman.state",
    "Agent": "pacman.game", "run_game": "pacman.game",
    "GameRecord": "pacman.record", "Outcome": "pacman.record",
    "PacmanError": "pacman.errors", "LayoutError": "pacman.errors",
    "IllegalMoveError": "pacman.errors",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOMES)
