"""Ghost policies: `RandomGhost`, `DirectionalGhost` (docs/rules.md 20-21), `AdversarialGhost`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pacman import Direction, GameState
from pacman.agents.base import BaseAgent
from pacman.agents.settings import AgentSettings, at_least_one, probability, setting
from pacman.rules import DIRECTIONAL_PROB_ATTACK, DIRECTIONAL_PROB_SCARED_FLEE, SCARED_SPEED

GS = TypeVar("GS", bound=AgentSettings)


class GhostAgent(BaseAgent[GS], Generic[GS]):
    """A ghost: agent index >= 1, picks by sampling its distribution with the game's rng."""

    def __init__(self, index: int = 1, settings: GS | None = None, **values: Any) -> None:
        if index < 1:
            raise ValueError(f"a ghost's agent index must be >= 1, got {index}")
        super().__init__(index, settings, **values)

    def distribution(self, state: GameState) -> list[tuple[Direction, float]]:
        """(action, probability) for every legal action, in canonical order."""
        raise NotImplementedError

    def get_action(self, state: GameState) -> Direction:
        """Sample the distribution with the game's generator."""
        choices = self.distribution(state)
        draw = self.rng.random()
        total = 0.0
        for action, chance in choices:
            total += chance
            if draw < total:
                return action
        return choices[-1][0]


class RandomGhost(GhostAgent[AgentSettings]):
    """docs/rules.md 20: uniform over the legal actions."""

    def distribution(self, state: GameState) -> list[tuple[Direction, float]]:
        """Uniform over the legal actions."""
        actions = state.legal_actions(self.index)
        return [(action, 1.0 / len(actions)) for action in actions]

    def get_action(self, state: GameState) -> Direction:
        """A uniformly random legal action."""
        return self.rng.choice(state.legal_actions(self.index))


#: each direction's (dx, dy), by the direction or its name (a `Direction` hashes as its name)
_VECTORS: dict[object, tuple[int, int]] = {d: d.vector for d in Direction}


def directional_distribution(state: GameState, agent: int, actions: Sequence[Direction],
                             prob_attack: float = DIRECTIONAL_PROB_ATTACK,
                             prob_scared_flee: float = DIRECTIONAL_PROB_SCARED_FLEE,
                             ) -> list[float]:
    """docs/rules.md 21: probabilities of `actions` for the directional ghost `agent`."""
    x, y = state.agent_position(agent)
    scared = state.scared_timers[agent - 1] > 0
    speed = SCARED_SPEED if scared else 1.0
    px, py = state.pacman_position
    vectors = [_VECTORS[a] for a in actions]
    distances = [abs(x + vx * speed - px) + abs(y + vy * speed - py) for vx, vy in vectors]
    return directional_weights(distances, prob_scared_flee if scared else prob_attack, scared)


def directional_weights(distances: Sequence[float], p: float, scared: bool) -> list[float]:
    """docs/rules.md 21 from the distances alone: the probabilities of the legal moves whose
    next positions lie `distances` (Manhattan) from Pacman, in the same order.

    The best moves (the nearest ones, the farthest while `scared`) share `p` equally; every
    move also gets `(1 - p) / len(distances)`; the weights are then divided by their sum. Only
    which distances are equal matters, not their type: `directional_distribution` calls this,
    and so does `pacman.chase`, so that its tables hold the very same numbers.
    """
    best = max(distances) if scared else min(distances)
    n_best = list(distances).count(best)
    weights = [(p / n_best if d == best else 0.0) + (1 - p) / len(distances) for d in distances]
    total = sum(weights)
    return [w / total for w in weights]


@dataclass(frozen=True)
class DirectionalSettings(AgentSettings):
    """How strongly the directional ghost heads for Pacman, and flees him while scared."""

    prob_attack: float = setting(
        DIRECTIONAL_PROB_ATTACK, "the probability of a move that brings it closest to Pacman "
        "(shared among ties); the rest is uniform over its legal moves", check=probability)
    prob_scared_flee: float = setting(
        DIRECTIONAL_PROB_SCARED_FLEE, "while scared, the probability of a move that takes it "
        "farthest from Pacman", check=probability)


@dataclass(frozen=True)
class HunterSettings(AgentSettings):
    """A searching ghost's depth."""

    depth: int = setting(2, "plies of its search (its move and Pacman's)", check=at_least_one)


class DirectionalGhost(GhostAgent[DirectionalSettings]):
    """docs/rules.md 21: heads for Pacman with `prob_attack`, flees with `prob_scared_flee`."""

    Settings = DirectionalSettings

    def __init__(self, index: int = 1, settings: DirectionalSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        self.prob_attack = self.settings.prob_attack
        self.prob_scared_flee = self.settings.prob_scared_flee

    def settings_text(self) -> str:
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


CATCH_VALUE = 1_000_000.0


class GhostsSide:
    """The game from the ghosts' side, for a view whose `state` is the game: the ghosts win
    when Pacman loses, and the score is negated (what Pacman gains, the ghosts lose)."""

    __slots__ = ()
    state: GameState

    def is_win(self) -> bool:
        """The ghosts won: Pacman was caught."""
        return self.state.is_lose()

    def is_lose(self) -> bool:
        """Pacman won."""
        return self.state.is_win()

    @property
    def score(self) -> float:
        """The game score, negated."""
        return -float(self.state.score)


class GhostView(GhostsSide):
    """The game seen by one hunting ghost, as a two-player `SearchState`.

    Agent 0 is the ghost (MAX), agent 1 is Pacman (MIN, its opponent). The other ghosts are
    its allies: they move in their real turn order with the greedy chase move (the first action
    that brings them closest to Pacman, the best action of docs/rules.md 21), folded into the
    transitions.
    """

    __slots__ = ("ghost", "state")

    def __init__(self, state: GameState, ghost: int) -> None:
        self.state, self.ghost = state, ghost

    num_agents = 2

    def legal_actions(self, agent: int) -> tuple[Direction, ...]:
        """The ghost's actions (agent 0) or Pacman's (agent 1)."""
        return self.state.legal_actions(self.ghost if agent == 0 else 0)

    def successor(self, agent: int, action: Direction) -> GhostView:
        """Play `action`, then the allies that move before the next player's turn."""
        state = self.state
        if agent == 0:
            state = state.successor(self.ghost, action)
            allies = range(self.ghost + 1, state.num_agents)
        else:
            state = state.successor(0, action)
            allies = range(1, self.ghost)
        for ally in allies:
            if state.is_terminal():
                break
            state = state.successor(ally, chase_action(state, ally))
        return GhostView(state, self.ghost)


def chase_action(state: GameState, agent: int) -> Direction:
    """The first legal action of ghost `agent` that minimises (maximises if scared) its
    Manhattan distance to Pacman, as the directional ghost's best action."""
    actions = state.legal_actions(agent)
    x, y = state.agent_position(agent)
    scared = state.scared_timers[agent - 1] > 0
    speed = SCARED_SPEED if scared else 1.0
    px, py = state.pacman_position
    sign = -1.0 if scared else 1.0
    return min(actions, key=lambda a: sign * (abs(x + a.vector[0] * speed - px)
                                               + abs(y + a.vector[1] * speed - py)))


def hunt_evaluation(view: GhostView) -> float:
    """The hunting ghost's evaluation: close in on Pacman (flee while scared), a large reward
    for catching Pacman, a large penalty if Pacman wins."""
    state = view.state
    if state.is_lose():
        return CATCH_VALUE - state.score
    if state.is_win():
        return -CATCH_VALUE - state.score
    distance = state.ghost_distances()[view.ghost - 1]
    if state.scared_timers[view.ghost - 1] > 0:
        return distance
    return -distance


class AdversarialGhost(GhostAgent[HunterSettings]):
    """A ghost that hunts: alpha-beta from its own side with Pacman as its opponent.

    It searches `depth` plies (ghost move + Pacman move) with `hunt_evaluation`, obeys the ghost
    move rules (its actions are the legal ghost actions), and breaks ties with the game's
    generator. Several adversarial ghosts in one game each search for themselves.
    """

    Settings = HunterSettings

    def __init__(self, index: int = 1, settings: HunterSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        self.depth = self.settings.depth
        self.last_decision: object = None

    def settings_text(self) -> str:
        """Its search depth."""
        return f"depth={self.depth}"

    def distribution(self, state: GameState) -> list[tuple[Direction, float]]:
        """Uniform over the best actions of its search."""
        best = self._best_actions(state)
        return [(a, 1.0 / len(best) if a in best else 0.0) for a in state.legal_actions(
            self.index)]

    def _best_actions(self, state: GameState) -> tuple[Direction, ...]:
        from pacman.agents.search import alphabeta

        decision = alphabeta(GhostView(state, self.index), self.depth, hunt_evaluation)
        self.last_decision = decision
        return tuple(decision.best_actions)

    def get_action(self, state: GameState) -> Direction:
        """One of the best actions of its search, chosen with the game's generator."""
        best = self._best_actions(state)
        return best[0] if len(best) == 1 else self.rng.choice(best)
