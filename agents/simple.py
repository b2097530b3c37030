"""Simple Pacman agents: `RandomAgent`, `GreedyAgent` (one step by score), `ReflexAgent`."""

from __future__ import annotations

from collections.abc import Callable

from agents.base import BaseAgent
from pacman import Direction, GameState


class RandomAgent(BaseAgent):
    """Pacman playing a uniformly random legal action (Stop included)."""

    def get_action(self, state: GameState) -> Direction:
        """A random legal action, drawn with the game's generator."""
        return self.rng.choice(state.legal_actions(0))


class ReflexAgent(BaseAgent):
    """One step of lookahead: the action whose successor evaluates best.

    Ties are broken with the game's generator (as CS188's ReflexAgent does), so a greedy
    Pacman does not get stuck oscillating.
    """

    def __init__(self, evaluation: str | Callable[[GameState], float] = "better",
                 allow_stop: bool = True, index: int = 0) -> None:
        super().__init__(index)
        if not isinstance(allow_stop, bool):
            raise ValueError(f"allow_stop must be true or false, got {allow_stop!r}")
        if callable(evaluation):
            self.evaluation_name = getattr(evaluation, "__name__", "custom")
            self.evaluate = evaluation
        else:
            from agents.evaluation import resolve_evaluation
            self.evaluation_name = str(evaluation)
            self.evaluate = resolve_evaluation(evaluation)
        self.allow_stop = allow_stop

    def settings(self) -> str:
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


class GreedyAgent(ReflexAgent):
    """CS188's GreedyAgent: the successor with the best score, random among ties, no Stop."""

    def __init__(self, index: int = 0) -> None:
        super().__init__(evaluation="score", allow_stop=False, index=index)

    def settings(self) -> str:
        """Nothing to show."""
        return ""
