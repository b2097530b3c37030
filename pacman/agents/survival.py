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

The table knows nothing of food, capsules or scared ghosts, so after the round only the
*dangerous* ghosts are counted (`chase_value`): those not scared, the two nearest Pacman when
there are more (maze distance, ties to the lower index), in the table of one or two ghosts. A
scared ghost is left out until its timer runs out, and a scared ghost Pacman eats is back at its
start, dangerous, in the very round he eats it: so the veto sees a pincer that eating a ghost
opens. A move that wins the game (the last dot) is worth 1. A ghost left out (scared, or a
third one) can still make a kept move bad; the veto never drops a move for a ghost it leaves
out.

Food does count in one place, on request (`wins=True`, what the junction MCTS asks for): a
state from which Pacman eats every dot left before any ghost can reach his path
(`sure_win`) is worth 1, whatever the table says. Without it, the table values the last dots
at the end of a dead end as a trap, and a search that cuts by the table never goes in to eat
them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pacman.agents.escape import cut_root
from pacman.agents.ghosts import directional_distribution
from pacman.agents.search_core import ActionGenerator, legal_actions

__all__ = ["SurvivalAware", "Tables", "chase_model", "chase_value", "layout_tables",
           "move_survival", "sure_win", "survival_root", "within_margin"]

#: survival tables by the number of ghosts they chase with (1 and 2), of one layout, model and
#: horizon
Tables = dict[int, Any]


def chase_model(ghost_model: str | None) -> str:
    """The ghosts of the survival tables (and of the round before them) for a search that
    models its ghosts as `ghost_model`: the directional ghost's own probabilities
    (`directional`) when it believes them, the worst case (`adversarial`) when it searches the
    ghosts as adversaries (`adversarial`, or MCTS's `pincer`), else uniform (`random`)."""
    if ghost_model == "directional":
        return "directional"
    return "adversarial" if ghost_model in ("adversarial", "pincer") else "random"


def within_margin(actions: Sequence[Any], values: Sequence[float], margin: float) -> list[Any]:
    """The `actions` (in their order) whose `values` are at least the best value less
    `margin`: the moves a survival cut keeps."""
    best = max(values)
    return [action for action, value in zip(actions, values, strict=True)
            if value >= best - margin]


def layout_tables(layout: Any, ghosts: int, model: str, horizon: int) -> Tables:
    """The survival tables of `layout` for one and two ghosts (as many as the game's `ghosts`,
    at most 2) of `model` and `horizon`, from `pacman.chase.tables.survival_table` (built, or
    read from its caches)."""
    from pacman.chase.tables import survival_table  # the chase imports the agents' modules

    return {count: survival_table(layout, ghosts=count, model=model, horizon=horizon)
            for count in range(1, min(2, ghosts) + 1)}


def _ghost_moves(state: Any, agent: int, model: str) -> list[tuple[Any, float]]:
    actions = state.legal_actions(agent)
    if model == "directional":
        return list(zip(actions, directional_distribution(state, agent, actions), strict=True))
    return [(action, 1 / len(actions)) for action in actions]


def sure_win(state: Any) -> bool:
    """True when Pacman (to move) wins whatever the ghosts do: every dot left lies on one
    shortest path from his cell to the farthest of them, and every ghost, scared or not, is
    farther from that dot than he is (by maze distance).

    Exact, not a guess: let `d` be Pacman's distance to the farthest dot `f`, and `c_k` the
    cell of that path he reaches with his `k`-th move. A ghost `g` with `dist(g, f) > d` is more
    than `k` from `c_k` (else it would reach `f` in `k + (d - k) = d` moves), so it cannot stand
    on `c_k` when he arrives there nor step onto it in its own `k`-th move; his `d`-th move eats
    the last dot and ends the game. The dots are taken nearest first: they lie on one shortest
    path exactly when the distances between consecutive ones (from his cell) add up to `d`."""
    foods = state.food_positions
    if not foods:
        return False
    distance = state.maze_distance
    pac = state.pacman_position
    ranked = sorted(foods, key=lambda food: distance(pac, food))
    far = ranked[-1]
    length = distance(pac, far)
    if any(distance(state.agent_position(ghost), far) <= length
           for ghost in range(1, state.num_agents)):
        return False
    walked, last = 0.0, pac
    for food in ranked:
        walked += distance(last, food)
        last = food
    return bool(walked == length)


def chase_value(state: Any, tables: Tables, wins: bool = False) -> float | None:
    """`V_H` of a state (Pacman to move) in the chase by its dangerous ghosts: the ghosts that
    are not scared, the two nearest Pacman (maze distance, ties to the lower index) when there
    are more, in the table of that many ghosts. A scared ghost is left out: it cannot catch
    Pacman until its timer runs out (an optimistic reading for a timer about to end). 1.0 when
    no ghost is dangerous, and with `wins` when Pacman surely wins from here (`sure_win`);
    None when a dangerous ghost's configuration is not in the table."""
    timers = state.scared_timers
    dangerous = [agent for agent in range(1, state.num_agents) if not timers[agent - 1]]
    if not dangerous or (wins and sure_win(state)):
        return 1.0
    if len(dangerous) > 2:
        pac, maze = state.pacman_position, state._maze
        dangerous = sorted(sorted(dangerous, key=lambda g: (
            maze.maze_distance(pac, state.agent_position(g)), g))[:2])
    table = tables.get(len(dangerous))
    return None if table is None else table.of_state(state, dangerous)


def _worst_after_round(state: Any, tables: Tables, agent: int, wins: bool) -> float | None:
    """The chance of surviving the tables' horizon after the ghosts' moves from `state`
    (ghost `agent` to move, then the ones after it), each ghost making the move worst for
    Pacman (`wins` as `chase_value`'s)."""
    if state.is_lose():
        return 0.0
    if state.is_win():
        return 1.0
    if agent == state.num_agents:
        return chase_value(state, tables, wins)
    worst = 1.0
    for action in state.legal_actions(agent):
        value = _worst_after_round(state.successor(agent, action), tables, agent + 1, wins)
        if value is None:
            return None
        worst = min(worst, value)
    return worst


def _after_round(state: Any, tables: Tables, model: str, wins: bool) -> float | None:
    """The chance of surviving the tables' horizon after the ghosts' moves from `state`
    (ghost 1 to move), each ghost moving with the model's probabilities (`adversarial`: the
    move worst for Pacman; `wins` as `chase_value`'s)."""
    if model == "adversarial":
        return _worst_after_round(state, tables, 1, wins)
    total = 0.0
    agents = state.num_agents

    def walk(s: Any, agent: int, chance: float) -> bool:
        nonlocal total
        if s.is_lose():
            return True
        if s.is_win():
            total += chance
            return True
        if agent == agents:
            value = chase_value(s, tables, wins)
            if value is None:
                return False
            total += chance * value
            return True
        return all(walk(s.successor(agent, action), agent + 1, chance * p)
                   for action, p in _ghost_moves(s, agent, model) if p > 0)

    return total if walk(state, 1, 1.0) else None


def move_survival(state: Any, actions: Sequence[Any], tables: Tables,
                  model: str = "directional", wins: bool = False) -> list[float] | None:
    """For each of Pacman's `actions` in `state`, the chance of surviving the tables' horizon
    plus one of his moves (this one first) if he then plays for survival, against the ghosts
    that are dangerous after the round (`chase_value`, with `wins` as its); None when a
    position is not in the tables."""
    values = []
    for action in actions:
        after = state.successor(0, action)
        if after.is_win():
            values.append(1.0)
        elif after.is_lose():
            values.append(0.0)
        else:
            value = _after_round(after, tables, model, wins)
            if value is None:
                return None
            values.append(value)
    return values


def survival_root(state: Any, legal: ActionGenerator | None, tables: Tables, margin: float,
                  model: str = "directional") -> tuple[ActionGenerator | None, list[float] | None]:
    """`legal` (None: the state's legal actions) with Pacman's moves at `state`, the root of a
    search, cut down to those whose survival (`move_survival`) is within `margin` of the best;
    `legal` itself when the tables do not apply or nothing is dropped. Also returns the
    survival of each legal move (None when the tables do not apply)."""
    base = legal if legal is not None else legal_actions
    actions = base(state, 0)
    values = move_survival(state, actions, tables, model)
    if values is None:
        return legal, None
    kept = within_margin(actions, values, margin)
    if len(kept) == len(actions):
        return legal, values
    return cut_root(state, base, kept), values


class SurvivalAware:
    """An evaluation that takes `weight x (1 - V_H)` points off a leaf, `V_H` being the leaf's
    survival chance by its dangerous ghosts (`chase_value`) in the tables `tables()` returns
    (the agent's, built at the game's start). A won leaf, a leaf the tables do not hold and a
    search without tables yet lose nothing. Its bounds, for exact pruning, are the
    evaluation's own, widened downwards by `weight`."""

    def __init__(self, evaluation: Any, weight: float, tables: Callable[[], Tables | None]
                 ) -> None:
        self.evaluation, self.weight, self.tables = evaluation, weight, tables
        if getattr(evaluation, "bounds", None) is not None:
            self.bounds = self._bounds
        self.__name__ = getattr(evaluation, "__name__", type(evaluation).__name__)

    def __call__(self, state: Any) -> float:
        value: float = self.evaluation(state)
        tables = self.tables()
        if not tables or state.is_win():
            return value
        survival = chase_value(state, tables)
        return value if survival is None else value - self.weight * (1.0 - survival)

    def _bounds(self, state: Any, plies: int) -> tuple[float, float]:
        low, high = self.evaluation.bounds(state, plies)
        return low - self.weight, high
