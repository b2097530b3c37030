"""Simple Pacman agents: `RandomAgent`, `GreedyAgent` (one step by score), `ReflexAgent`."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pacman import Direction, GameState
from pacman.agents.base import BaseAgent
from pacman.agents.settings import AgentSettings, evaluation_spec, setting, switch

__all__ = ["GreedyAgent", "RandomAgent", "ReflexAgent", "ReflexSettings"]


class RandomAgent(BaseAgent[AgentSettings]):
    """Pacman playing a uniformly random legal action (Stop included)."""

    def get_action(self, state: GameState) -> Direction:
        """A random legal action, drawn with the game's generator."""
        return self.rng.choice(state.legal_actions(0))


@dataclass(frozen=True)
class ReflexSettings(AgentSettings):
    """The reflex agent's settings: what it values, and whether it may stand still."""

    evaluation: str | Callable[[GameState], float] = setting(
        "better", "how a successor is valued: an evaluation's name, name:weight,..., "
        "@weights.json, module:function, or a Python function", check=evaluation_spec)
    allow_stop: bool = setting(True, "false never plays Stop (unless it is the only action)",
                               check=switch)


class ReflexAgent(BaseAgent[ReflexSettings]):
    """One step of lookahead: the action whose successor evaluates best.

    Ties are broken with the game's generator (as CS188's ReflexAgent does), so a greedy
    Pacman does not get stuck oscillating.
    """

    Settings = ReflexSettings

    def __init__(self, index: int = 0, settings: ReflexSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        evaluation = self.settings.evaluation
        if callable(evaluation):
            self.evaluation_name = getattr(evaluation, "__name__", "custom")
            self.evaluate = evaluation
        else:
            from pacman.agents.evaluation import resolve_evaluation
            self.evaluation_name = str(evaluation)
            self.evaluate = resolve_evaluation(evaluation)
        self.allow_stop = self.settings.allow_stop

    def settings_text(self) -> str:
        """The evaluation's name."""
        return self.evaluation_name + ("" if self.allow_stop else " no-stop")

    def get_action(self, state: GameState) -> Direction:
        """The best one-step action; random among ties."""
        actions = [a for a in state.legal_actions(0) if self.allow_stop or a != Direction.STOP]
        if not actions:
            actions = list(state.legal_actions(0))
        values = [self.evaluate(state.successor(0, a)) for a in actions]
        best = max(values)
        return self.rng.choice([a for a, v in zip(actions, values) if v == best])


class GreedyAgent(BaseAgent[AgentSettings]):
    """CS188's GreedyAgent: the successor with the best score, random among ties, no Stop."""

    def __init__(self, index: int = 0, settings: AgentSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        self._reflex = ReflexAgent(index, evaluation="score", allow_stop=False)

    def set_rng(self, rng: random.Random) -> None:
        """Use the game's generator (for its ties) too."""
        super().set_rng(rng)
        self._reflex.set_rng(rng)

    def get_action(self, state: GameState) -> Direction:
        """The successor with the best score; random among ties."""
        return self._reflex.get_action(state)

    def settings_text(self) -> str:
        """Nothing to show."""
        return ""
