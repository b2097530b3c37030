"""Ghost policies: `RandomGhost`, `DirectionalGhost` (RULES.md 20-21), `AdversarialGhost`."""

from __future__ import annotations

from collections.abc import Sequence

from agents.base import BaseAgent
from pacman import Direction, GameState
from pacman.rules import DIRECTIONAL_PROB_ATTACK, DIRECTIONAL_PROB_SCARED_FLEE, SCARED_SPEED


class GhostAgent(BaseAgent):
    """A ghost: agent index >= 1, picks by sampling its distribution with the game's rng."""

    def __init__(self, index: int = 1) -> None:
        if index < 1:
            raise ValueError(f"a ghost's agent index must be >= 1, got {index}")
        super().__init__(index)

    def distribution(self, state: GameState) -> list[tuple[Direction, float]]:
        """(action, probability) for every legal action, in canonical order."""
        raise NotImplementedError

    def get_action(self, state: GameState) -> Direction:
        """Sample the distribution with the game's generator."""
        choices = self.distribution(state)
        draw = self.rng.random()
        total = 0.0
        for action, probability in choices:
            total += probability
            if draw < total:
                return action
        return choices[-1][0]


class RandomGhost(GhostAgent):
    """RULES.md 20: uniform over the legal actions."""

    def distribution(self, state: GameState) -> list[tuple[Direction, float]]:
        """Uniform over the legal actions."""
        actions = state.legal_actions(self.index)
        return [(action, 1.0 / len(actions)) for action in actions]

    def get_action(self, state: GameState) -> Direction:
        """A uniformly random legal action."""
        return self.rng.choice(state.legal_actions(self.index))


def directional_distribution(state: GameState, agent: int, actions: Sequence[Direction],
                             prob_attack: float = DIRECTIONAL_PROB_ATTACK,
                             prob_scared_flee: float = DIRECTIONAL_PROB_SCARED_FLEE,
                             ) -> list[float]:
    """RULES.md 21: probabilities of `actions` for the directional ghost `agent`."""
    x, y = state.agent_position(agent)
    scared = state.scared_timers[agent - 1] > 0
    speed = SCARED_SPEED if scared else 1.0
    px, py = state.pacman_position
    distances = [abs(x + a.vector[0] * speed - px) + abs(y + a.vector[1] * speed - py)
                 for a in map(Direction, actions)]
    best = max(distances) if scared else min(distances)
    p = prob_scared_flee if scared else prob_attack
    n_best = distances.count(best)
    weights = [(p / n_best if d == best else 0.0) + (1 - p) / len(actions) for d in distances]
    total = sum(weights)
    return [w / total for w in weights]


class DirectionalGhost(GhostAgent):
    """RULES.md 21: heads for Pacman with `prob_attack`, flees with `prob_scared_flee`."""

    def __init__(self, index: int = 1, prob_attack: float = DIRECTIONAL_PROB_ATTACK,
                 prob_scared_flee: float = DIRECTIONAL_PROB_SCARED_FLEE) -> None:
        super().__init__(index)
        for name, value in (("prob_attack", prob_attack), ("prob_scared_flee",
                                                           prob_scared_flee)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {value}")
        self.prob_attack, self.prob_scared_flee = prob_attack, prob_scared_flee

    def settings(self) -> str:
        """Shown only when not the classic 0.8 / 0.8."""
        if (self.prob_attack, self.prob_scared_flee) == (DIRECTIONAL_PROB_ATTACK,
                                                         DIRECTIONAL_PROB_SCARED_FLEE):
            return ""
        return f"prob_attack={self.prob_attack:g} prob_scared_flee={self.prob_scared_flee:g}"

    def distribution(self, state: GameState) -> list[tuple[Direction, float]]:
        """The directional distribution over the legal actions."""
        actions = state.legal_actions(self.index)
        probs = directional_distribution(state, self.index, actions, self.prob_attack,
                                         self.prob_scared_flee)
        return list(zip(actions, probs))
