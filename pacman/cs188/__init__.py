"""The CS188 compatibility layer: classic student code, unmodified, on this project's engine.

- `modules/`: what student code imports as `util`, `game`, `ghostAgents` and `pacman`;
- `state.CS188GameState`: the classic camelCase state API over our fast `GameState`;
- `loader`: loads a student's file so its imports get those modules (never the classic files);
- `agent.StudentAgent`: a classic agent playing in `run_game`, seeded from the game's seed;
- `tree.CS188SearchState`: the camelCase view of the grader's test trees.

CS188 camelCase lives only in this package. The Python API for a student's agent is
`load_agent`; `pacman.agents.registry.make_agent("multiAgents.py:MinimaxAgent", "pacman", ...)` does
the same by name.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pacman.lazy import lazy_exports

if TYPE_CHECKING:
    from pacman.cs188.agent import StudentAgent
    from pacman.cs188.loader import load_student_file
    from pacman.cs188.state import CS188GameState
    from pacman.errors import StudentCodeError

__all__ = ["CS188GameState", "StudentAgent", "StudentCodeError", "load_agent",
           "load_student_file"]

# each name is loaded on first use: an agent host imports `pacman.cs188.randomness` alone
__getattr__, __dir__ = lazy_exports(__name__, {
    "CS188GameState": "pacman.cs188.state", "StudentAgent": "pacman.cs188.agent",
    "StudentCodeError": "pacman.errors", "load_student_file": "pacman.cs188.loader"})


def load_agent(path: str | Path, class_name: str, index: int = 0,
               **settings: Any) -> StudentAgent:
    """A classic agent class from a student's file, built as the classic game builds it (the
    settings as strings) and ready for `run_game`: e.g.
    `load_agent("multiAgents.py", "MinimaxAgent", depth=3, evalFn="better")`."""
    from pacman.cs188.agent import build_student_agent
    from pacman.cs188.loader import find_class, load_student_file

    cls = find_class(load_student_file(path), class_name)
    return build_student_agent(cls, settings, index)
