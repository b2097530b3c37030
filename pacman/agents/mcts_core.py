"""What the two Monte Carlo tree searches share: the budget, UCB1's choice and the decision.

`pacman.agents.mcts` (Pacman's search: open-loop, one value per playout) and
`pacman.agents.mcts_ghosts` (a ghost's search: every agent in the tree, a value per agent) grow
different trees, but spend their budget, choose a move in the tree and decide at the root in
the same way, here:

- **the budget** (`check_budget`, `PlayoutBudget`, `budget_text`, `default_playouts`,
  `one_budget`): one of `playouts` (iterations), `nodes` (the search's `nodes_generated`) and
  `time` (seconds on the search's clock), each looked at after a playout, in that order, so at
  least one playout runs and the last one may pass a node budget by its length; none given
  means `DEFAULT_PLAYOUTS`. The clock is read once when the budget is made (the deadline) and
  once after each playout, and only with a time budget.
- **selection** (`select_ucb`): UCB1 over min-max normalised means, an untried move first, ties
  broken by one draw (`tie_draw`), so no direction is favoured by the order moves are listed in.
- **a chance model's draw** (`sample_index`): where one draw falls among a model's
  probabilities. (The playouts' loops stay in each search, inline: a shared call per sampled
  move cost a search 2 to 7% more instructions.)
- **the decision** (`root_statistics`, `most_visited`): each root move's visits and mean, and
  the most visited move, ties broken by one more draw; and what a Pacman search returns,
  `MCTSDecision` with its `MCTSTrace` (the move-level and the junction-level searches,
  `pacman.agents.mcts` and `pacman.agents.mcts_junction`, return the same record; `mcts`
  exports them as before).

Every draw comes from the `draw` callable a search passes (its generator's `random`), in the
order the searches' docstrings give; nothing here keeps state between searches.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pacman.agents.search_core import action_name, json_number
from pacman.agents.settings import AgentSettings, optional_count
from pacman.errors import SettingsError

__all__ = ["DEFAULT_PLAYOUTS", "MCTSDecision", "MCTSTrace", "PlayoutPolicy", "RootMove",
           "PlayoutBudget", "check_budget", "one_budget", "default_playouts", "budget_text",
           "select_ucb", "tie_draw",
           "sample_index", "root_statistics", "most_visited"]

T = TypeVar("T")

#: the budget of a search or an agent given none
DEFAULT_PLAYOUTS = 200

#: a playout policy: `policy(state, moves, draw)` returns (Pacman's move among `moves`, the
#: successor after it, the `successor()` calls it made); `draw()` is uniform in [0, 1)
PlayoutPolicy = Callable[[Any, Sequence[Any], Callable[[], float]], tuple[Any, Any, int]]


@dataclass(frozen=True)
class RootMove:
    """One root move's statistics: how often it was played first, and its mean leaf value."""

    action: Any
    visits: int
    mean: float


@dataclass(frozen=True)
class MCTSDecision:
    """What one MCTS search chose and how it went.

    `action` is the most visited root move (ties: one draw, uniformly), `value` its mean leaf
    value, `best_actions` every root move with that many visits (legal order). `root` has each
    root move's visits and mean (visits sum to `playouts`, plus `carried`). `stopped` says why
    the search ended:
    "playouts", "nodes", "time", or "single" (one legal move: no search). `trace` is the
    search's `MCTSTrace` when it was asked for, else None. `carried` counts the root's visits
    that a reused tree brought in from earlier moves (0 without reuse): the root's visits sum
    to `playouts + carried`.
    """

    action: Any
    value: float
    nodes_generated: int
    best_actions: tuple[Any, ...]
    playouts: int
    tree_size: int
    root: tuple[RootMove, ...]
    stopped: str
    trace: MCTSTrace | None = None
    carried: int = 0


@dataclass(frozen=True)
class MCTSTrace:
    """One MCTS search as a game record keeps it (`trace=True`): the root's statistics.

    `action` is the chosen root move's name, `value` its mean leaf value (NaN when there was no
    search), `depth` the horizon, `nodes_generated` the search's own count, `evaluations` the
    evaluation's calls in this search (one per playout; more with `leaf_depth`, one per leaf
    of each leaf search), `root_values` and `root_visits` every root move's mean and visits in
    legal order (an unvisited move's mean is NaN), `playouts` the playouts behind them (their
    sum: this search's, plus the visits a reused tree carried in), `principal_variation` the
    most visited line of Pacman's moves down the tree (from the root, at each node the move
    with the most visits, ties to the first tried (a display, no decision); as deep as
    the tree has a visited move), `stopped` why the search ended, `budget` the budget it was
    given (`playouts=200`, `nodes=5000`, `time=0.1`) and `c` UCB1's constant.
    """

    action: str
    value: float
    depth: int
    nodes_generated: int
    evaluations: int
    root_values: tuple[tuple[str, float], ...]
    root_visits: tuple[tuple[str, int], ...]
    principal_variation: tuple[str, ...]
    playouts: int
    tree_size: int
    stopped: str
    budget: str
    c: float

    @property
    def method(self) -> str:
        """Always "mcts"."""
        return "mcts"

    def summary(self) -> dict[str, Any]:
        """What a game record keeps for the move (JSON-ready; NaN as the string "nan"). MCTS
        prunes nothing: `cuts` and `pruned` are 0; the principal variation is Pacman's
        moves only, as `[0, move]` pairs."""
        return {
            "method": "mcts", "action": self.action, "value": json_number(self.value),
            "depth": self.depth, "nodes_generated": self.nodes_generated,
            "evaluations": self.evaluations, "cuts": 0, "pruned": 0,
            "root_values": [[action, json_number(mean)] for action, mean in self.root_values],
            "root_visits": [[action, visits] for action, visits in self.root_visits],
            "principal_variation": [[0, action] for action in self.principal_variation],
            "playouts": self.playouts, "tree_size": self.tree_size, "stopped": self.stopped,
            "budget": self.budget, "c": self.c,
        }

    def to_json(self) -> dict[str, Any]:
        """The same as `summary()`: an MCTS trace keeps no node list."""
        return self.summary()


def _single_move(only: Any, horizon: int, budget: str, c: float, trace: bool) -> MCTSDecision:
    """The decision for a root with one move: played without a search (one node, no
    playout, no draw), its value NaN; with `trace`, a trace that says so."""
    name = action_name(only)
    single = MCTSTrace(name, math.nan, horizon, 1, 0, ((name, math.nan),), ((name, 0),),
                       (name,), 0, 1, "single", budget, c) if trace else None
    return MCTSDecision(only, float("nan"), 1, (only,), 0, 1,
                        (RootMove(only, 0, float("nan")),), "single", single)


# --------------------------------------------------------------------------- the budget

def check_budget(playouts: int | None, node_limit: int | None, time_limit: float | None,
                 horizon: int, c: float) -> int | None:
    """Check an MCTS search's budget, horizon and exploration constant (the Pacman and the
    ghosts' searches share it).

    Returns:
        `playouts`, or `DEFAULT_PLAYOUTS` when no budget is given.

    Raises:
        ValueError: more than one budget, or a budget, horizon or constant out of range.
    """
    budgets = [b for b in (playouts, node_limit, time_limit) if b is not None]
    if len(budgets) > 1:
        raise ValueError("give one budget: playouts, node_limit or time_limit")
    if not budgets:
        playouts = DEFAULT_PLAYOUTS
    for name, count in (("playouts", playouts), ("node_limit", node_limit),
                        ("horizon", horizon)):
        reason = optional_count(name, count)
        if reason is not None:
            raise ValueError(reason)
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a number of seconds > 0, got {time_limit!r}")
    if not c >= 0:
        raise ValueError(f"c must be a number >= 0, got {c!r}")
    return playouts


def one_budget(settings: AgentSettings) -> None:
    """Refuse settings that give more than one of `playouts`, `nodes` and `time`.

    Raises:
        SettingsError: two or three of them are given.
    """
    given = [name for name in ("playouts", "nodes", "time")
             if getattr(settings, name) is not None]
    if len(given) > 1:
        raise SettingsError(f"give one budget, not {' and '.join(given)} (playouts, nodes "
                            "or time)")


def default_playouts(playouts: int | None, nodes: int | None,
                     time: float | None) -> int | None:
    """An agent's playout budget: `playouts`, or `DEFAULT_PLAYOUTS` when none of the three
    budgets is given."""
    if playouts is None and nodes is None and time is None:
        return DEFAULT_PLAYOUTS
    return playouts


def budget_text(playouts: int | None, nodes: int | None, time: float | None) -> str:
    """The one budget given, as a trace and a description show it: `playouts=200`,
    `nodes=5000` or `time=0.1` (the first of the three that is not None; `time` when none)."""
    if playouts is not None:
        return f"playouts={playouts}"
    if nodes is not None:
        return f"nodes={nodes}"
    return f"time={time:g}"


class PlayoutBudget:
    """One search's budget, looked at after every playout (`spent`).

    Made when the search starts: with a time budget the clock is read then, for the deadline
    (`clock() + time_limit`), and once after every playout; without one, never.
    """

    __slots__ = ("clock", "deadline", "node_limit", "playouts")

    def __init__(self, playouts: int | None, node_limit: int | None,
                 time_limit: float | None, clock: Callable[[], float]) -> None:
        self.playouts, self.node_limit, self.clock = playouts, node_limit, clock
        self.deadline = None if time_limit is None else clock() + time_limit

    def spent(self, done: int, generated: int) -> str | None:
        """Why the search stops after `done` playouts and `generated` nodes: "playouts",
        "nodes" or "time" (looked at in that order), or None while the budget lasts."""
        if self.playouts is not None and done >= self.playouts:
            return "playouts"
        if self.node_limit is not None and generated >= self.node_limit:
            return "nodes"
        if self.deadline is not None and self.clock() >= self.deadline:
            return "time"
        return None


# --------------------------------------------------------------------------- selection

def tie_draw(candidates: Sequence[T], draw: Callable[[], float]) -> T:
    """One of equally good `candidates` (not empty): the only one without a draw, else one
    draw of `draw` (uniform in [0, 1)) picks uniformly, so no candidate is favoured by the
    order it is listed in."""
    return candidates[0] if len(candidates) == 1 else candidates[int(draw() * len(candidates))]


def select_ucb(moves: Sequence[T], counts: Mapping[T, int], totals: Mapping[T, Any],
               visits: int, c: float, lo: float, hi: float, draw: Callable[[], float],
               agent: int | None = None) -> T:
    """UCB1's move among `moves` (not empty) at a node visited `visits` times.

    A move not in `counts` (untried) comes first: among several, one draw picks uniformly.
    When every move is tried, each scores `q + c * sqrt(ln visits / n)`, `n` its count and `q`
    its mean, its summed value over `n` (`totals[move]`, or with `agent` the `agent`-th entry
    of the summed vector `totals[move]`), normalised by the range of values the search has
    seen, `(mean - lo) / (hi - lo)` (0.5 while `hi <= lo`); the largest score wins, ties
    broken by one draw (none for one move), and every move is tied when every score is NaN (an
    infinite value made the normalisation 0/0).
    """
    for move in moves:
        if move not in counts:  # a list only while the node still has untried moves
            untried = [move for move in moves if move not in counts]
            return tie_draw(untried, draw)
    spread = hi - lo
    log_visits = math.log(visits) if visits > 0 else 0.0
    best: list[T] = []
    best_score = -math.inf
    for move in moves:
        n = counts[move]
        total = totals[move] if agent is None else totals[move][agent]
        q = (total / n - lo) / spread if spread > 0 else 0.5
        score = q + c * math.sqrt(log_visits / n)
        if score > best_score:
            best, best_score = [move], score
        elif score == best_score:
            best.append(move)
    return tie_draw(best or moves, draw)


# --------------------------------------------------------------------------- sampled moves

def sample_index(probabilities: Sequence[float], draw: float) -> int:
    """The index `draw` (uniform in [0, 1)) falls on in the cumulative `probabilities`."""
    total = 0.0
    for index, weight in enumerate(probabilities):
        total += weight
        if draw < total:
            return index
    return len(probabilities) - 1


# --------------------------------------------------------------------------- the decision

def root_statistics(moves: Sequence[Any], counts: Mapping[Any, int],
                    totals: Mapping[Any, Any], agent: int | None = None) -> tuple[RootMove, ...]:
    """Each root move's visits and mean value, its summed value over its visits (`totals`
    and `agent` as for `select_ucb`; NaN for a move never played), in the order of `moves`."""
    if agent is not None:
        return tuple(RootMove(move, counts.get(move, 0), totals[move][agent] / counts[move]
                              if counts.get(move) else math.nan) for move in moves)
    return tuple(RootMove(move, counts.get(move, 0),
                          totals[move] / counts[move] if counts.get(move) else math.nan)
                 for move in moves)


def most_visited(stats: Sequence[RootMove],
                 draw: Callable[[], float]) -> tuple[RootMove, tuple[RootMove, ...]]:
    """The decision: the most visited root move (ties: one draw, uniformly; none for one) and
    every root move with that many visits, in the order of `stats`."""
    most = max(move.visits for move in stats)
    best = tuple(move for move in stats if move.visits == most)
    return tie_draw(best, draw), best
