"""A CS188 agent (a class with `getAction`) playing in our game loop, and how to build one.

`StudentAgent` is our `Agent` protocol on the outside and the classic interface on the inside:
each state is handed over as a `CS188GameState`, the student's direction string comes back as
the action. Student code that draws from the global `random` module (a `random.choice` among
ties, the classic ghosts) is seeded from the game's own generator when the game starts, so the
same seed plays the same game.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping
from typing import Any

from pacman.cs188.state import CS188GameState, GameContext
from pacman.stack import call_with_room
from pacman.state import GameState

__all__ = ["StudentAgent", "build_student_agent", "cs188_arguments"]


def cs188_arguments(settings: Mapping[str, Any]) -> dict[str, str]:
    """Settings as the classic command line hands them over: every value a string.

    `-a depth=3,evalFn=better` reaches a classic constructor as `depth='3'`; settings typed by
    our parser are turned back into their text (`True` -> `'True'`, `3` -> `'3'`).
    """
    return {key: value if isinstance(value, str) else repr(value) if isinstance(value, float)
            else str(value) for key, value in settings.items()}


def build_student_agent(cls: type, settings: Mapping[str, Any], index: int,
                        description: str | None = None) -> StudentAgent:
    """Build a classic agent class as the classic game does and wrap it.

    Pacman agents get the settings as keyword strings (`cls(depth='3', evalFn='better')`);
    ghosts get their index first (`cls(1)`), as `pacman.py` builds them.
    """
    arguments = cs188_arguments(settings)
    if index == 0:
        agent = cls(**arguments)
        if getattr(agent, "index", 0) != 0:
            agent.index = 0
    else:
        agent = cls(index, **arguments)
    if description is None:
        shown = " ".join(f"{key}={value}" for key, value in arguments.items())
        description = f"{cls.__name__} {shown}".strip()
    return StudentAgent(agent, description)


class StudentAgent:
    """Plays a classic agent object in `run_game`.

    `context` is shared by the states handed to the agent during one game; a grader can switch
    on `context.explored.counting` to count explored states the classic way.
    """

    def __init__(self, agent: Any, description: str | None = None) -> None:
        self.agent = agent
        self.index: int = getattr(agent, "index", 0)
        self.description = description or type(agent).__name__
        self.context = GameContext()

    def describe(self) -> str:
        """The class name and the settings it was built with."""
        return self.description

    def set_rng(self, rng: random.Random) -> None:
        """A new game: a fresh context, and the global `random` seeded from the game's seed."""
        self.context = GameContext()
        random.seed(rng.getrandbits(64))

    def wrap(self, state: GameState) -> CS188GameState:
        """`state` as the classic interface, in this game's context."""
        return self.context.wrap(state)

    def register_initial_state(self, state: GameState) -> None:
        """Call the agent's `registerInitialState` if it has one."""
        register = getattr(self.agent, "registerInitialState", None)
        if callable(register):
            register(self.wrap(state))

    def get_action(self, state: GameState) -> Any:
        """The agent's `getAction` on the classic view of `state`, with room on the frame stack
        for a deep recursive search (`pacman.stack`)."""
        return call_with_room(self.agent.getAction, self.wrap(state))

    def final(self, state: GameState) -> None:
        """Call the agent's `final` if it has one."""
        final = getattr(self.agent, "final", None)
        if callable(final) and _takes_one_argument(final):
            final(self.wrap(state))


def _takes_one_argument(method: Any) -> bool:
    try:
        inspect.signature(method).bind(None)
    except (TypeError, ValueError):
        return False
    return True
