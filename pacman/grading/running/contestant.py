"""Who is graded: a student's file (classic CS188 or our API) or our own agents.

The test classes ask a contestant for an agent class by name (`MinimaxAgent`), for an agent that
plays a game while its explored states are counted the classic way, and for an agent built from
a test's `agentArgs`. Classic classes (`getAction`) play through the compatibility layer; our
classes play our states directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from pacman.agents import pacman_agents
from pacman.agents.registry import AgentEntry, build_agent, find_agent
from pacman.cs188.agent import StudentAgent, build_student_agent
from pacman.cs188.loader import is_cs188_agent_class
from pacman.cs188.randomness import agent_stream, drawing_from
from pacman.errors import GradingError, RegistryError
from pacman.grading.running.tree_run import load_agents_module
from pacman.settings_text import typed
from pacman.state import GameState

__all__ = ["Contestant", "CountingAgent", "Graded"]


class Graded(Protocol):
    """What the test classes ask of the code under test, wherever it runs: this process
    (`Contestant`) or a host process of its own (`pacman.grading.running.hosted`)."""

    @property
    def name(self) -> str:
        """How reports name the code under test."""

    @property
    def module_name(self) -> str:
        """The name of the module whose classes are graded."""

    def tree_agent(self, name: str) -> Any:
        """The class a tree test runs (or a stand-in for it), or None if there is none."""

    def game_agent(self, name: str, depth: int) -> Any:
        """An agent along a game test: `register_initial_state`, and `move(state)` returning
        the action and the explored count."""

    def eval_agent(self, name: str, arguments: Mapping[str, str], seed: int) -> Any:
        """An agent test's agent (`get_action`, optionally `register_initial_state`), for a
        test seeded with `seed`."""

    def close(self) -> str:
        """Done: end what runs the code; returns what it printed."""


class Contestant:
    """The code under test. `source` is a `.py` file, a module name, or None for our agents;
    `StudentCodeError` if it cannot be loaded."""

    def __init__(self, source: str | Path | ModuleType | None = None,
                 agent_random: str = "shared") -> None:
        self.source = source
        #: "own": an agent test's agent draws from a stream of its own; "shared": from the
        #: ghosts' (`pacman.cs188.randomness`)
        self.agent_random = agent_random
        self.module: ModuleType | None = None
        if isinstance(source, ModuleType):
            self.module = source
        elif source is not None:
            self.module = load_agents_module(str(source))

    @property
    def agents_module(self) -> ModuleType:
        """The module whose classes a tree test runs: the code under test, or our agents."""
        return self.module if self.module is not None else pacman_agents

    @property
    def name(self) -> str:
        """How reports name the code under test."""
        if self.module is None:
            return "the built-in agents"
        return str(self.source) if not isinstance(self.source, ModuleType) else (
            self.module.__name__)

    @property
    def module_name(self) -> str:
        """The name of the module whose classes are graded."""
        return self.agents_module.__name__

    def tree_agent(self, name: str) -> type | None:
        """The class `name` that a tree test runs, or None if the code under test has none."""
        value = getattr(self.agents_module, name, None)
        return value if isinstance(value, type) else None

    def close(self) -> str:
        """Nothing to end in this process (a hosted contestant ends its host)."""
        return ""

    def agent_class(self, name: str) -> type:
        """The class `name` of the code under test; GradingError if it has none."""
        if self.module is None:
            try:
                found = find_agent(name, "pacman")
            except RegistryError as error:
                raise GradingError(str(error)) from None
            return found.load() if isinstance(found, AgentEntry) else found
        value = getattr(self.module, name, None)
        if not isinstance(value, type):
            raise GradingError(f"{self.name} has no class {name}")
        return value

    def game_agent(self, name: str, depth: int) -> CountingAgent:
        """An agent of class `name` at `depth`, counting the states it explores per move."""
        cls = self.agent_class(name)
        if is_cs188_agent_class(cls):
            student = StudentAgent(cls(depth=depth))
            student.context.explored.counting = True
            return CountingAgent(student, classic=True)
        return CountingAgent(cls(depth=depth), classic=False)

    def eval_agent(self, name: str, arguments: Mapping[str, str], seed: int) -> Any:
        """An agent of class `name` built from a test's `agentArgs` (strings), as Pacman, for
        a test seeded with `seed`: drawing from a stream of its own (`agent_random`), or from
        the ghosts'. (In this process, a module that took `random`'s functions at import,
        `from random import choice`, keeps drawing from the ghosts' stream.)"""
        cls = self.agent_class(name)
        if is_cs188_agent_class(cls):
            agent = build_student_agent(cls, arguments, 0)
        else:
            agent = build_agent(cls, {key: typed(value) for key, value in arguments.items()}, 0)
        return _OwnStream(agent, seed) if self.agent_random == "own" else agent


class _OwnStream:
    """An agent test's agent whose calls draw from a stream of their own."""

    def __init__(self, agent: Any, seed: int) -> None:
        self.agent = agent
        self.stream = agent_stream(seed)

    def register_initial_state(self, state: GameState) -> None:
        """The agent's own, if it has one."""
        register = getattr(self.agent, "register_initial_state", None)
        if callable(register):
            with drawing_from(self.stream):
                register(state)

    def get_action(self, state: GameState) -> Any:
        """The agent's action."""
        with drawing_from(self.stream):
            return self.agent.get_action(state)


class CountingAgent:
    """A Pacman agent whose every move reports how many distinct states it explored: the
    parents and children of the successors it generated (the classic count)."""

    def __init__(self, agent: Any, classic: bool) -> None:
        self.agent = agent
        self.classic = classic
        self._explored: set[Any] = set()

    def register_initial_state(self, state: GameState) -> None:
        """Pass the start on to the agent."""
        register = getattr(self.agent, "register_initial_state", None)
        if callable(register):
            register(state)

    def move(self, state: GameState) -> tuple[Any, int]:
        """The agent's action in `state` and the number of states it explored to choose it."""
        if self.classic:
            explored = self.agent.context.explored
            explored.reset()
            action = self.agent.get_action(state)
            return action, explored.reset()
        self._explored = set()
        action = self.agent.get_action(_Counted(state, self._explored))
        return action, len(self._explored)


class _Counted:
    """Our state, recording the parent and child of every `successor` call (by value)."""

    __slots__ = ("_explored", "_state")

    def __init__(self, state: GameState, explored: set[Any]) -> None:
        self._state = state
        self._explored = explored

    def successor(self, agent: int, action: Any) -> _Counted:
        child = self._state.successor(agent, action)
        self._explored.add(self._state)
        self._explored.add(child)
        return _Counted(child, self._explored)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)
