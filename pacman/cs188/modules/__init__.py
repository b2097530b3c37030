"""The modules CS188 student code imports under their CS188 names (`util`, `game`, ...).

A student's `multiAgents.py` says `import util` or `from game import Directions, Agent, Actions`;
the loader (`pacman.cs188.loader`) answers those imports with these modules, so the code runs
unmodified and nothing named `util` or `game` ever enters `sys.modules`. They keep CS188's
camelCase API (with the rest of `pacman.cs188`, the only place in the project that does) and its
exact sampling, so recorded classic games replay move for move.
"""

from __future__ import annotations

#: The name student code imports -> the module of ours it gets.
STUDENT_MODULES: dict[str, str] = {
    "util": "pacman.cs188.modules.util",
    "game": "pacman.cs188.modules.game",
    "ghostAgents": "pacman.cs188.modules.ghostAgents",
    "pacman": "pacman.cs188.modules.pacman",
}
