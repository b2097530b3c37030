"""One registry: names -> agent classes and evaluation functions.

`-p` and `-g` accept CS188 class names (`AlphaBetaAgent`, `DirectionalGhost`), short names
(`alphabeta`, `directional`) and `module:Class` for a user's own agent.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AgentEntry:
    """A registered agent: where its class lives and whether it plays Pacman or a ghost."""

    class_name: str
    module: str
    short: str
    role: str  # "pacman" or "ghost"
    summary: str

    def load(self) -> type:
        """Import and return the class."""
        return getattr(importlib.import_module(self.module), self.class_name)  # type: ignore[no-any-return]


AGENTS: tuple[AgentEntry, ...] = (
    AgentEntry("RandomAgent", "agents.simple", "random", "pacman", "uniformly random moves"),
    AgentEntry("GreedyAgent", "agents.simple", "greedy", "pacman",
               "best one-step successor by score"),
    AgentEntry("ReflexAgent", "agents.simple", "reflex", "pacman",
               "best one-step successor by an evaluation"),
    AgentEntry("MinimaxAgent", "agents.pacman_agents", "minimax", "pacman",
               "minimax search"),
    AgentEntry("AlphaBetaAgent", "agents.pacman_agents", "alphabeta", "pacman",
               "minimax with alpha-beta pruning"),
    AgentEntry("ExpectimaxAgent", "agents.pacman_agents", "expectimax", "pacman",
               "expectimax search (ghosts as chance nodes)"),
    AgentEntry("KeyboardAgent", "pacman.display.keyboard", "keyboard", "pacman",
               "you, with the arrow keys or WASD (window only)"),
    AgentEntry("RandomGhost", "agents.ghosts", "random", "ghost", "uniformly random moves"),
    AgentEntry("DirectionalGhost", "agents.ghosts", "directional", "ghost",
               "heads for Pacman with probability 0.8"),
    AgentEntry("AdversarialGhost", "agents.ghosts", "adversarial", "ghost",
               "searches for Pacman (minimax from the ghost's side)"),
)


class RegistryError(ValueError):
    """An agent name, or its settings, that cannot be used."""


def find_agent(name: str, role: str) -> AgentEntry | type:
    """The entry for a registered name (class or short), or the class of `module:Class`."""
    for entry in AGENTS:
        if entry.role == role and name in (entry.class_name, entry.short):
            return entry
    for entry in AGENTS:
        if name.lower() in (entry.class_name.lower(), entry.short) and entry.role == role:
            return entry
    if ":" in name:
        module_name, _, class_name = name.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            raise RegistryError(f"cannot import agent module {module_name!r}: {error}") from None
        cls = getattr(module, class_name, None)
        if not inspect.isclass(cls):
            raise RegistryError(f"module {module_name!r} has no class {class_name!r}")
        return cls
    names = ", ".join(f"{e.class_name} ({e.short})" for e in AGENTS if e.role == role)
    raise RegistryError(f"unknown {role} agent {name!r}; known: {names}; or module:Class")


def agent_names(role: str) -> list[str]:
    """The registered class names for a role."""
    return [entry.class_name for entry in AGENTS if entry.role == role]


def make_agent(name: str, role: str, settings: Mapping[str, Any] | None = None,
               index: int | None = None) -> Any:
    """Build an agent by name with keyword settings; bad names/settings raise RegistryError."""
    found = find_agent(name, role)
    cls = found.load() if isinstance(found, AgentEntry) else found
    kwargs = dict(settings or {})
    if index is not None and _accepts(cls, "index"):
        kwargs["index"] = index
    try:
        agent = cls(**kwargs)
    except TypeError as error:
        accepted = _parameters(cls)
        raise RegistryError(f"bad settings for {cls.__name__}: {error} (it accepts: "
                            f"{', '.join(accepted) or 'no settings'})") from None
    except ValueError as error:
        message = str(error).removeprefix(f"{cls.__name__}: ")
        raise RegistryError(f"bad settings for {cls.__name__}: {message}") from None
    if index is not None and not _accepts(cls, "index"):
        agent.index = index
    return agent


def _parameters(cls: type) -> list[str]:
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return []
    return [p for p in signature.parameters if p not in ("self", "index")]


def _accepts(cls: type, parameter: str) -> bool:
    try:
        return parameter in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
