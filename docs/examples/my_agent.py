"""An example agent and an example evaluation function, written against this project's API.

The walk-through is in docs/agents.md. From the project's folder:

    pacman play -p docs/examples/my_agent.py:HungryAgent -l smallClassic -q -n 5 --seed 0
    pacman play -p docs/examples/my_agent.py:HungryAgent -a caution=3 -l smallClassic

and, for the evaluation function (the module must be importable, hence PYTHONPATH):

    PYTHONPATH=docs/examples pacman play -p expectimax -a evaluation=my_agent:evaluate \
        -l smallClassic -q -n 5 --seed 0
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from pacman import Direction, GameState


@dataclass(frozen=True)
class Decision:
    """What the agent decided on its last move. The game reads `nodes_generated` from it."""

    action: Direction
    value: float
    nodes_generated: int


class HungryAgent:
    """Pacman that heads for the nearest food (by maze distance), but refuses any move that
    ends within `caution` steps of a ghost that is not scared. One move of lookahead, no search.

    Settings (`-a caution=3,allow_stop=true`): `caution` (steps, default 2) and `allow_stop`
    (default false). `index` is the agent number; the game builds Pacman with index 0.
    """

    def __init__(self, caution: int = 2, allow_stop: bool = False, index: int = 0) -> None:
        if isinstance(caution, bool) or not isinstance(caution, int) or caution < 0:
            raise ValueError(f"caution must be a whole number >= 0, got {caution!r}")
        self.index = index
        self.caution = caution
        self.allow_stop = allow_stop
        self.rng = random.Random(0)  # replaced by the game's generator (set_rng)
        self.last_decision: Decision | None = None
        self.food_at_start = 0
        self.eaten = 0  # food eaten in the last game, set by `final`

    # ---------------------------------------------------------------- optional hooks
    def set_rng(self, rng: random.Random) -> None:
        """The game's seeded generator: use it for every random choice, so that the same
        seed plays the same game."""
        self.rng = rng

    def register_initial_state(self, state: GameState) -> None:
        """Called once, before the first move."""
        self.food_at_start = state.food_count

    def describe(self) -> str:
        """How the summary, the window's status bar and the records name this agent."""
        return f"HungryAgent caution={self.caution}"

    def final(self, state: GameState) -> None:
        """Called once when the game is over (won, lost, capped, ...)."""
        self.eaten = self.food_at_start - state.food_count

    # ---------------------------------------------------------------- the policy
    def get_action(self, state: GameState) -> Direction:
        """The best-looking legal action; ties are broken with the game's generator."""
        actions = list(state.legal_actions(self.index))
        if not self.allow_stop and len(actions) > 1:
            actions.remove(Direction.STOP)
        values = [self.value(state.successor(self.index, action)) for action in actions]
        best = max(values)
        choice = self.rng.choice([a for a, v in zip(actions, values) if v == best])
        self.last_decision = Decision(choice, best, len(actions))
        return choice

    def value(self, state: GameState) -> float:
        """How good a state is for Pacman: winning is best, losing or being near a normal
        ghost is bad, otherwise fewer food dots left and closer food are better."""
        if state.is_win():
            return math.inf
        if state.is_lose():
            return -math.inf
        near = [distance for distance, timer in zip(state.ghost_distances(), state.scared_timers)
                if timer == 0 and distance <= self.caution]
        if near:
            return -10_000.0 + min(near)
        return -100.0 * state.food_count - state.nearest_food_distance()


def evaluate(state: GameState) -> float:
    """An evaluation function for the search agents (`-a evaluation=my_agent:evaluate`):
    the score, minus the distance to the nearest food, minus a penalty for a close ghost."""
    if state.is_terminal():
        return state.score + (1_000_000 if state.is_win() else -1_000_000)
    close = [d for d, t in zip(state.ghost_distances(), state.scared_timers) if t == 0 and d < 3]
    return state.score - 1.5 * state.nearest_food_distance() - 100.0 * len(close)
