"""Informed probabilities: a ghost that mostly hunts, and a Pacman that knows exactly how.

`NoisyHunterGhost` runs the hunting search of `AdversarialGhost` (alpha-beta from its own side,
depth 2 by default) with probability `prob_search`, and otherwise moves uniformly at random.
`InformedExpectimaxAgent` is expectimax whose chance nodes use that true model: at every ghost
node of its tree it *simulates* the ghost's search to learn which moves the ghost would pick
(`noisy_hunter_distribution`). It is the lecture's "expectimax with a simulated opponent",
and it shows the cost: a whole ghost search per chance node.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pacman import Direction, GameState
from pacman.agents.ghosts import GhostAgent, GhostView, hunt_evaluation
from pacman.agents.pacman_agents import SearchAgent, SearchSettings
from pacman.agents.search import Decision, SearchState, alphabeta, expectimax
from pacman.agents.settings import AgentSettings, at_least_one, probability, setting

__all__ = ["InformedExpectimaxAgent", "NoisyHunterGhost", "hunting_choices",
           "noisy_hunter_distribution"]

DEFAULT_PROB_SEARCH = 0.8
DEFAULT_GHOST_DEPTH = 2


def hunting_choices(state: GameState, ghost: int, depth: int) -> tuple[tuple[Direction, ...], int]:
    """The best actions of ghost `ghost`'s hunting search (exactly `AdversarialGhost`'s), in
    legal order, and the nodes that search generated."""
    decision = alphabeta(GhostView(state, ghost), depth, hunt_evaluation)
    return tuple(decision.best_actions), decision.nodes_generated


def mix(actions: Sequence[Any], best: Sequence[Any], prob_search: float) -> list[float]:
    """`prob_search` split evenly over `best`, plus `1 - prob_search` split over `actions`."""
    share = prob_search / len(best)
    rest = (1.0 - prob_search) / len(actions)
    return [(share if a in best else 0.0) + rest for a in actions]


def noisy_hunter_distribution(state: GameState, ghost: int, actions: Sequence[Direction],
                              prob_search: float = DEFAULT_PROB_SEARCH,
                              depth: int = DEFAULT_GHOST_DEPTH) -> list[float]:
    """The probabilities `NoisyHunterGhost` gives `actions` (its legal actions) in `state`."""
    best, _ = hunting_choices(state, ghost, depth)
    return mix(actions, best, prob_search)


@dataclass(frozen=True)
class NoisyHunterSettings(AgentSettings):
    """The noisy hunter's search depth and how often it searches."""

    depth: int = setting(DEFAULT_GHOST_DEPTH, "plies of its hunting search",
                         check=at_least_one)
    prob_search: float = setting(
        DEFAULT_PROB_SEARCH, "the probability it plays its search's move; otherwise a "
        "uniformly random one", check=probability)


@dataclass(frozen=True)
class InformedSettings(SearchSettings):
    """Expectimax's settings, and the noisy hunters' true model at its chance nodes."""

    ghost_depth: int = setting(DEFAULT_GHOST_DEPTH, "the depth of the hunters' search it "
                               "simulates", check=at_least_one)
    prob_search: float = setting(DEFAULT_PROB_SEARCH, "how often the hunters search",
                                 check=probability)


class NoisyHunterGhost(GhostAgent[NoisyHunterSettings]):
    """Hunts like `AdversarialGhost` (its depth-`depth` search) with probability `prob_search`,
    moves uniformly at random otherwise; every draw comes from the game's generator."""

    Settings = NoisyHunterSettings

    def __init__(self, index: int = 1, settings: NoisyHunterSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        self.depth, self.prob_search = self.settings.depth, self.settings.prob_search

    def settings_text(self) -> str:
        """Its search depth and how often it searches."""
        return f"depth={self.depth} prob_search={self.prob_search:g}"

    def distribution(self, state: GameState) -> list[tuple[Direction, float]]:
        """`prob_search` over its search's best actions, the rest uniform over all."""
        actions = state.legal_actions(self.index)
        return list(zip(actions, noisy_hunter_distribution(state, self.index, actions,
                                                           self.prob_search, self.depth)))

    def get_action(self, state: GameState) -> Direction:
        """Search (and break ties at random) with probability `prob_search`, else a random
        legal action."""
        if self.rng.random() < self.prob_search:
            best, _ = hunting_choices(state, self.index, self.depth)
            return best[0] if len(best) == 1 else self.rng.choice(best)
        return self.rng.choice(state.legal_actions(self.index))


class InformedExpectimaxAgent(SearchAgent[InformedSettings]):
    """Expectimax against `NoisyHunterGhost`s, with their true probabilities at chance nodes.

    At each ghost node it simulates that ghost's depth-`ghost_depth` hunting search and gives
    `prob_search` to its best actions (split evenly) and `1 - prob_search` uniformly to its
    legal actions. Simulations are cached per move (one per distinct state and ghost).
    `last_decision.nodes_generated` counts the nodes of Pacman's own tree *and* of every
    simulated ghost search; `last_simulated_nodes` is the simulations' share.
    """

    Settings = InformedSettings

    def __init__(self, index: int = 0, settings: InformedSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        self.ghost_depth = self.settings.ghost_depth
        self.prob_search = self.settings.prob_search
        self.last_simulated_nodes = 0

    def _extra_settings(self) -> list[str]:
        return [f"ghost_depth={self.ghost_depth}", f"prob_search={self.prob_search:g}"]

    def _search(self, state: SearchState) -> Decision:
        cache: dict[tuple[GameState, int], tuple[Direction, ...]] = {}
        simulated = 0

        def chance(node: GameState, ghost: int, actions: Sequence[Direction]) -> list[float]:
            nonlocal simulated
            key = (node, ghost)
            best = cache.get(key)
            if best is None:
                best, nodes = hunting_choices(node, ghost, self.ghost_depth)
                cache[key] = best
                simulated += nodes
            return mix(actions, best, self.prob_search)

        tree = expectimax(state, self.depth, self.evaluation, actions=self._actions,
                          chance=chance)
        self.last_simulated_nodes = simulated
        return Decision(tree.action, tree.value, tree.nodes_generated + simulated,
                        tree.best_actions)
