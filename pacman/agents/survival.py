"""The survival veto: drop the root moves whose exact chance of surviving the chase is far below
the best move's.

A pincer is decided about ten Pacman moves before it closes, past what a search completes in
40 ms. A survival table (`pacman.chase.tables`) knows, for every position of the food-free
chase, the exact probability `V_H` that Pacman survives `H` more moves under best play against
ghosts of a known kind. At the root of a search this module values each of Pacman's moves by
one round of the real game (Pacman's move, then every ghost's move with the model's
probabilities, as the rules play them) followed by the table: the chance of surviving
`H + 1` moves after that move, if he plays for survival from then on. A move whose chance is
more than `margin` below the best move's is dropped; the search chooses among the others.

What the table leaves out decides when the veto stays silent: it counts every ghost as
dangerous and knows nothing of food, so it is not used while a ghost is scared (the whole
root is then left alone), and a move that wins the game (the last dot) is worth 1. Against
more than two ghosts it counts the two nearest Pacman after the round (maze distance, ties to
the lower index); the others are left out, so it may keep a move a third ghost makes bad,
never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pacman.agents.ghosts import directional_distribution
from pacman.agents.search_core import ActionGenerator, legal_actions

__all__ = ["SurvivalAware", "move_survival", "survival_root"]


def _ghost_moves(state: Any, agent: int, model: str) -> list[tuple[Any, float]]:
    actions = state.legal_actions(agent)
    if model == "directional":
        return list(zip(actions, directional_distribution(state, agent, actions), strict=True))
    return [(action, 1 / len(actions)) for action in actions]


def _nearest_two(state: Any) -> tuple[int, ...]:
    pac = state.pacman_position
    maze = state._maze
    ghosts = range(1, state.num_agents)
    near = sorted(ghosts, key=lambda g: (maze.maze_distance(pac, state.agent_position(g)), g))
    return tuple(sorted(near[:2]))


def _after_round(state: Any, table: Any, model: str) -> float | None:
    """The chance of surviving the table's horizon from `state` (ghost 1 to move)."""
    total = 0.0
    agents = state.num_agents

    def walk(s: Any, agent: int, chance: float) -> bool:
        nonlocal total
        if s.is_lose():
            return True
        if agent == agents or s.is_win():
            if s.is_win():
                total += chance
                return True
            value = table.of_state(s, _nearest_two(s) if agents > 3 else None)
            if value is None:
                return False
            total += chance * value
            return True
        return all(walk(s.successor(agent, action), agent + 1, chance * p)
                   for action, p in _ghost_moves(s, agent, model) if p > 0)

    return total if walk(state, 1, 1.0) else None


def move_survival(state: Any, actions: Sequence[Any], table: Any,
                  model: str = "directional") -> list[float] | None:
    """For each of Pacman's `actions` in `state`, the chance of surviving `table.horizon + 1`
    of his moves (this one first) if he then plays for survival; None when the table does not
    apply (a ghost is scared, or a position is not in it)."""
    if any(state.scared_timers):
        return None
    values = []
    for action in actions:
        after = state.successor(0, action)
        if after.is_win():
            values.append(1.0)
        elif after.is_lose():
            values.append(0.0)
        else:
            value = _after_round(after, table, model)
            if value is None:
                return None
            values.append(value)
    return values


def survival_root(state: Any, legal: ActionGenerator | None, table: Any, margin: float,
                  model: str = "directional") -> tuple[ActionGenerator | None, list[float] | None]:
    """`legal` (None: the state's legal actions) with Pacman's moves at `state`, the root of a
    search, cut down to those whose survival (`move_survival`) is within `margin` of the best;
    `legal` itself when the table does not apply or nothing is dropped. Also returns the
    survival of each legal move (None when the table does not apply)."""
    base = legal if legal is not None else legal_actions
    actions = base(state, 0)
    values = move_survival(state, actions, table, model)
    if values is None:
        return legal, None
    best = max(values)
    kept = [action for action, value in zip(actions, values, strict=True)
            if value >= best - margin]
    if len(kept) == len(actions):
        return legal, values

    def root_cut(s: Any, agent: int) -> Sequence[Any]:
        return kept if s is state and agent == 0 else base(s, agent)

    return root_cut, values



class SurvivalAware:
    """An evaluation that takes `weight x (1 - V_H)` points off a leaf, `V_H` being the leaf's
    survival chance in the table `table()` returns (the agent's, built at the game's start).
    A won leaf, a leaf the table does not apply to (a ghost scared) and a search without a
    table yet lose nothing. Its bounds, for exact pruning, are the evaluation's own, widened
    downwards by `weight`."""

    def __init__(self, evaluation: Any, weight: float, table: Callable[[], Any]) -> None:
        self.evaluation, self.weight, self.table = evaluation, weight, table
        if getattr(evaluation, "bounds", None) is not None:
            self.bounds = self._bounds
        self.__name__ = getattr(evaluation, "__name__", type(evaluation).__name__)

    def __call__(self, state: Any) -> float:
        value: float = self.evaluation(state)
        table = self.table()
        if table is None or state.is_win():
            return value
        survival = table.of_state(state) if state.num_agents > 1 else None
        return value if survival is None else value - self.weight * (1.0 - survival)

    def _bounds(self, state: Any, plies: int) -> tuple[float, float]:
        low, high = self.evaluation.bounds(state, plies)
        return low - self.weight, high
