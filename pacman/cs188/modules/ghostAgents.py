"""The `ghostAgents` module of CS188: `GhostAgent`, `RandomGhost` and `DirectionalGhost`.

These ghosts draw from the global `random` module, one `random.random()` per move (through
`util.chooseFromDistribution`), with CS188's distributions to the last float operation, so the
classic recorded games replay exactly. They need only this much of a state: `getGhostState(i)`
(with `scaredTimer` and `getPosition()`), `getLegalActions(i)` and `getPacmanPosition()`.
"""

from __future__ import annotations

from typing import Any

from pacman.cs188.modules import util
from pacman.cs188.modules.game import Actions, Agent, Directions


class GhostAgent(Agent):
    """A ghost that moves by sampling the distribution its subclass gives."""

    def __init__(self, index: int) -> None:
        super().__init__(index)

    def getAction(self, state: Any) -> str:
        """A move drawn from `getDistribution(state)`; Stop when it is empty."""
        distribution = self.getDistribution(state)
        if len(distribution) == 0:
            return Directions.STOP
        action: str = util.chooseFromDistribution(distribution)
        return action

    def getDistribution(self, state: Any) -> util.Counter:
        """The probability of each legal move; subclasses write it."""
        util.raiseNotDefined()


class RandomGhost(GhostAgent):
    """A ghost that picks uniformly among its legal moves."""

    def getDistribution(self, state: Any) -> util.Counter:
        """Every legal move with the same probability."""
        distribution = util.Counter()
        for action in state.getLegalActions(self.index):
            distribution[action] = 1.0
        distribution.normalize()
        return distribution


class DirectionalGhost(GhostAgent):
    """A ghost that prefers the moves that bring it closest to Pacman (farthest when scared).

    The best moves share `prob_attack` (`prob_scaredFlee` when scared); the rest of the
    probability is spread evenly over every legal move, the best ones included.
    """

    def __init__(self, index: int, prob_attack: float = 0.8,
                 prob_scaredFlee: float = 0.8) -> None:
        super().__init__(index)
        self.prob_attack = prob_attack
        self.prob_scaredFlee = prob_scaredFlee

    def getDistribution(self, state: Any) -> util.Counter:
        """The directional distribution over the legal moves, by Manhattan distance to Pacman."""
        ghost_state = state.getGhostState(self.index)
        legal_actions = state.getLegalActions(self.index)
        if not legal_actions:
            return util.Counter()
        x, y = ghost_state.getPosition()
        scared = ghost_state.scaredTimer > 0
        speed = 0.5 if scared else 1
        pacman_position = state.getPacmanPosition()
        distances = []
        for action in legal_actions:
            dx, dy = Actions.directionToVector(action, speed)
            distances.append(util.manhattanDistance((x + dx, y + dy), pacman_position))
        if scared:
            best_distance, best_probability = max(distances), self.prob_scaredFlee
        else:
            best_distance, best_probability = min(distances), self.prob_attack
        best_actions = [action for action, distance in zip(legal_actions, distances)
                        if distance == best_distance]
        # The order of these updates fixes the Counter's insertion order and so the order of
        # the float sum in `normalize`: it must stay best moves first, then every legal move.
        distribution = util.Counter()
        for action in best_actions:
            distribution[action] = best_probability / len(best_actions)
        for action in legal_actions:
            distribution[action] += (1 - best_probability) / len(legal_actions)
        distribution.normalize()
        return distribution
