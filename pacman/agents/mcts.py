"""Monte Carlo tree search for Pacman: UCT over Pacman's moves, the ghosts' replies sampled.

`mcts_search` runs playouts from a state until its budget is spent and returns an
`MCTSDecision`. One playout (one iteration) is:

1. **selection**, down the tree: at each tree node Pacman's move is chosen by UCB1 among the
   node's actions (every action not yet tried first, in legal-action order; then the largest
   `q + c * sqrt(ln N / n)`, ties to the first in legal order), and played; then every ghost
   (agents 1, 2, ...) plays a move drawn from the ghost model (`uniform`, or the directional
   ghost's own distribution, `pacman.agents.ghosts.directional_distribution`);
2. **expansion**: the first move that leaves the tree adds one node (the position after it);
3. **playout**: from there Pacman plays the playout policy's moves (below) and the ghosts
   play the model's, until the game is won or lost or `horizon` Pacman moves have been played
   *from the root* (the tree's moves included);
4. **backup**: the last position is valued by the evaluation (a won or lost position too, by
   the same evaluation), and the value is added to the statistics of every (node, move) on the
   path.

The tree is **open-loop**: a node is a sequence of Pacman's moves from the root, not a game
state. The ghosts' replies are sampled afresh in every playout, so the statistics of a move are
an average over the ghost model, and a node stands for every position its moves lead to. In
Pacman this is exact for Pacman's own options: where Pacman stands (so his legal moves) depends
only on his own moves, and a playout in which a ghost caught him ends there. (With a generic
`SearchState` whose legal moves change with chance, a node keeps statistics per action and
chooses among the moves legal in the position at hand.)

**Values for UCB** are the evaluation's, normalised by min-max over every leaf value seen in
this search: `q = (mean - lo) / (hi - lo)` (0.5 for all while `hi == lo`), so `c` means the same
for any evaluation's scale. An evaluation that gives a lost game a huge penalty (`better`,
`wary`: minus a million) squeezes every other value near 1; the plain `score` (the default)
keeps the differences.

**Playout policies** (`playout`). Both choose among Pacman's legal moves without Stop (Stop
only when it is the only move), in legal-action order, with the search's generator:

- `random` (the default): one draw picks a move uniformly; one `successor()` call per move.
- `greedy` (`greedy_playout(epsilon)`, for a Pacman `GameState`): one draw decides; below
  `epsilon` a second draw picks a move uniformly, as `random` does (one successor). Otherwise
  the successor of *every* move is generated (each counted in `nodes_generated`, so a greedy
  playout generates more nodes per move than a random one) and a move is *dangerous* when
  Pacman is caught by it or, unless it wins the game (the last dot), ends it at maze distance
  1 or less from a ghost whose scared timer is 0 (`ghost_distances`, `scared_timers`: where
  the ghosts stand before they reply). Among
  the safe moves, or among all of them when every move is dangerous, the moves that eat a dot
  come first (distance 0), then the smallest `nearest_food_distance()` after the move; a tie
  is broken by a second draw, uniformly (no draw when one move is best). The chosen move's
  successor is the playout's next position.

**The decision** is the root's most visited move, ties to the first in legal-action order; its
value is that move's mean leaf value (in the evaluation's units). **Nodes**: `nodes_generated`
counts the root plus every `successor()` call (Pacman's and the ghosts' moves, in the tree and
in the playouts), as the other searches count theirs, so batches compare them; `tree_size`
counts the tree's nodes (the root included) and `playouts` the iterations.

**Budgets**: `playouts` (iterations), `nodes` (the `nodes_generated` count: looked at between
playouts, so the last playout may pass it by its length) and `time` (seconds, looked at between
playouts). With `playouts` or `nodes` the search is deterministic for a given generator. At
least one playout is always run.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pacman.agents.base import BaseAgent
from pacman.agents.pacman_agents import GHOST_MODELS, chance_model, score_evaluation
from pacman.agents.search_core import (
    ActionGenerator,
    ChanceModel,
    SearchState,
    actions_without_stop,
    legal_actions,
)
from pacman.agents.settings import (
    AgentSettings,
    evaluation_spec,
    one_of,
    positive_int,
    probability,
    setting,
    switch,
)
from pacman.errors import SettingsError

__all__ = ["MCTSAgent", "MCTSSettings", "MCTSDecision", "RootMove", "mcts_search",
           "greedy_playout", "PlayoutPolicy", "DEFAULT_PLAYOUTS", "DEFAULT_EPSILON",
           "GHOST_MODELS", "PLAYOUT_POLICIES"]

#: the budget of an agent given none
DEFAULT_PLAYOUTS = 200

#: the greedy playouts' chance of a random move, unless told
DEFAULT_EPSILON = 0.1

#: the names of the `playout` setting
PLAYOUT_POLICIES = ("random", "greedy")

Evaluation = Callable[[Any], float]

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

    `action` is the most visited root move (ties: first in legal order), `value` its mean leaf
    value, `best_actions` every root move with that many visits (legal order). `root` has each
    root move's visits and mean (visits sum to `playouts`). `stopped` says why the search ended:
    "playouts", "nodes", "time", or "single" (one legal move: no search).
    """

    action: Any
    value: float
    nodes_generated: int
    best_actions: tuple[Any, ...]
    playouts: int
    tree_size: int
    root: tuple[RootMove, ...]
    stopped: str


class _Node:
    """An open-loop tree node: per action, visits, summed leaf values and the child node."""

    __slots__ = ("children", "counts", "totals", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.counts: dict[Any, int] = {}
        self.totals: dict[Any, float] = {}
        self.children: dict[Any, _Node] = {}


def mcts_search(state: SearchState, evaluate: Evaluation, rng: random.Random, *,
                playouts: int | None = None, node_limit: int | None = None,
                time_limit: float | None = None, horizon: int = 10, c: float = 1.0,
                chance: ChanceModel | None = None, actions: ActionGenerator | None = None,
                playout: PlayoutPolicy | None = None,
                clock: Callable[[], float] = _time.perf_counter) -> MCTSDecision:
    """UCT from `state` (Pacman, agent 0, to move) until the budget is spent.

    Args:
        state: the position to search; not won or lost, with a legal move for agent 0.
        evaluate: values the last position of each playout (higher is better for Pacman).
        rng: every random draw of the search (ghost replies, playout moves) comes from it.
        playouts: the number of iterations; with none of the three budgets given, 200.
        node_limit: stop once `nodes_generated` reaches it (looked at between playouts).
        time_limit: seconds; stop at the first playout's end past it.
        horizon: Pacman moves from the root after which a playout is cut off and evaluated.
        c: UCB1's exploration constant (values normalised to [0, 1]); 0 is greedy.
        chance: the ghosts' move probabilities, `chance(state, agent, actions)`; None: uniform.
        actions: Pacman's moves in the tree (default: the legal ones); the playouts' own
            Pacman moves are the legal ones without Stop (Stop when it is the only one).
        playout: chooses Pacman's playout moves among those (e.g. `greedy_playout(0.1)`);
            None: uniformly at random.
        clock: the clock `time_limit` is measured on.

    Returns:
        The decision: the root's most visited move, with the root's statistics and counts.

    Raises:
        ValueError: a bad budget, horizon or constant, or a terminal or stuck root.
    """
    budgets = [b for b in (playouts, node_limit, time_limit) if b is not None]
    if len(budgets) > 1:
        raise ValueError("give one budget: playouts, node_limit or time_limit")
    if not budgets:
        playouts = DEFAULT_PLAYOUTS
    for name, count in (("playouts", playouts), ("node_limit", node_limit),
                        ("horizon", horizon)):
        if count is not None and (isinstance(count, bool) or not isinstance(count, int)
                                  or count < 1):
            raise ValueError(f"{name} must be a positive integer, got {count!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a number of seconds > 0, got {time_limit!r}")
    if not c >= 0:
        raise ValueError(f"c must be a number >= 0, got {c!r}")
    if state.is_win() or state.is_lose():
        raise ValueError("cannot search from a terminal state: the game is already won or lost")
    legal: ActionGenerator = actions or legal_actions
    root_actions = tuple(legal(state, 0))
    if not root_actions:
        raise ValueError("cannot search from a state where agent 0 has no legal action")
    if len(root_actions) == 1:
        return MCTSDecision(root_actions[0], float("nan"), 1, root_actions, 0, 1,
                            (RootMove(root_actions[0], 0, float("nan")),), "single")
    deadline = None if time_limit is None else clock() + time_limit
    num_agents = state.num_agents
    draw = rng.random
    root = _Node()
    generated = 1
    tree_size = 1
    done = 0
    lo, hi = math.inf, -math.inf
    path: list[tuple[_Node, Any]] = []

    def reply(s: Any) -> Any:
        """The ghosts' sampled moves after Pacman's: each in turn, until the game ends."""
        nonlocal generated
        for agent in range(1, num_agents):
            if s.is_win() or s.is_lose():
                return s
            moves = s.legal_actions(agent)
            if not moves:
                continue
            if chance is None:
                move = moves[int(draw() * len(moves))]
            else:
                move = moves[_sample(chance(s, agent, moves), draw())]
            s = s.successor(agent, move)
            generated += 1
        return s

    stopped = "playouts"
    while True:
        # selection and expansion
        s: Any = state
        node = root
        depth = 0
        path.clear()
        ended = False
        while True:
            moves = root_actions if node is root else legal(s, 0)
            if not moves:
                ended = True
                break
            move = _select(node, moves, c, lo, hi)
            path.append((node, move))
            s = s.successor(0, move)
            generated += 1
            s = reply(s)
            depth += 1
            if s.is_win() or s.is_lose():
                ended = True
                break
            if depth >= horizon:
                break
            child = node.children.get(move)
            if child is None:
                node.children[move] = _Node()
                tree_size += 1
                break
            node = child
        # the playout: the policy's Pacman moves without Stop, the ghosts' moves from the model
        if not ended:
            while depth < horizon:
                moves = actions_without_stop(s, 0)
                if not moves:
                    break
                if playout is None:
                    s = s.successor(0, moves[int(draw() * len(moves))])
                    generated += 1
                else:
                    _, s, made = playout(s, moves, draw)
                    generated += made
                s = reply(s)
                depth += 1
                if s.is_win() or s.is_lose():
                    break
        value = float(evaluate(s))
        if value < lo:
            lo = value
        if value > hi:
            hi = value
        for visited, move in path:
            visited.visits += 1
            visited.counts[move] = visited.counts.get(move, 0) + 1
            visited.totals[move] = visited.totals.get(move, 0.0) + value
        done += 1
        if playouts is not None and done >= playouts:
            break
        if node_limit is not None and generated >= node_limit:
            stopped = "nodes"
            break
        if deadline is not None and clock() >= deadline:
            stopped = "time"
            break
    stats = tuple(RootMove(a, root.counts.get(a, 0),
                           root.totals[a] / root.counts[a] if root.counts.get(a) else math.nan)
                  for a in root_actions)
    most = max(move.visits for move in stats)
    best = tuple(move for move in stats if move.visits == most)
    return MCTSDecision(best[0].action, best[0].mean, generated,
                        tuple(move.action for move in best), done, tree_size, stats, stopped)


def _select(node: _Node, moves: Sequence[Any], c: float, lo: float, hi: float) -> Any:
    """UCB1: the first untried move (legal order), else the largest normalised mean plus
    exploration (ties to the first)."""
    counts, totals = node.counts, node.totals
    for move in moves:
        if move not in counts:
            return move
    spread = hi - lo
    log_visits = math.log(node.visits) if node.visits > 0 else 0.0
    best_move, best_score = moves[0], -math.inf
    for move in moves:
        n = counts[move]
        q = (totals[move] / n - lo) / spread if spread > 0 else 0.5
        score = q + c * math.sqrt(log_visits / n)
        if score > best_score:
            best_move, best_score = move, score
    return best_move


def greedy_playout(epsilon: float = DEFAULT_EPSILON) -> PlayoutPolicy:
    """The `greedy` playout policy (see the module docstring) for a Pacman `GameState`: with
    probability `epsilon` a uniformly random move, else the safe move nearest the food.

    Raises:
        ValueError: `epsilon` is not a number from 0 to 1.
    """
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not (
            0.0 <= epsilon <= 1.0):
        raise ValueError(f"epsilon must be a number between 0 and 1, got {epsilon!r}")

    def greedy(state: Any, moves: Sequence[Any], draw: Callable[[], float]) -> tuple[Any, Any, int]:
        if draw() < epsilon:
            move = moves[int(draw() * len(moves))]
            return move, state.successor(0, move), 1
        food = state.food_count
        best: list[tuple[Any, Any]] = []
        best_key = (2, 0)
        for move in moves:
            child = state.successor(0, move)
            danger = child.is_lose() or (not child.is_win() and any(
                distance <= 1 and timer == 0
                for distance, timer in zip(child.ghost_distances(), child.scared_timers)))
            key = (int(danger), 0 if child.food_count < food else child.nearest_food_distance())
            if key < best_key:
                best, best_key = [(move, child)], key
            elif key == best_key:
                best.append((move, child))
        move, child = best[int(draw() * len(best))] if len(best) > 1 else best[0]
        return move, child, len(moves)

    return greedy


def _sample(probabilities: Sequence[float], draw: float) -> int:
    """The index `draw` (uniform in [0, 1)) falls on in the cumulative `probabilities`."""
    total = 0.0
    for index, weight in enumerate(probabilities):
        total += weight
        if draw < total:
            return index
    return len(probabilities) - 1


def _evaluation(spec: str | Evaluation) -> tuple[Evaluation, str]:
    """The evaluation function a setting names, and the name `describe` shows for it."""
    if callable(spec):
        return spec, getattr(spec, "__name__", type(spec).__name__)
    if spec == "score":
        return score_evaluation, spec
    from pacman.agents.evaluation import resolve_evaluation  # lazy: it loads weights files

    return resolve_evaluation(spec), spec


def _optional_positive_int(name: str, value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return f"{name} must be a positive integer, got {value!r}"
    return None


def _optional_seconds(name: str, value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0 < value < math.inf):
        return f"{name} must be a number of seconds > 0, got {value!r}"
    return None


def _exploration(name: str, value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0 <= value < math.inf):
        return f"{name} must be a number >= 0, got {value!r}"
    return None


@dataclass(frozen=True)
class MCTSSettings(AgentSettings):
    """MCTS's settings: one budget (playouts, nodes or time), the playouts' horizon and
    evaluation, UCB's constant and the ghosts' model."""

    playouts: int | None = setting(
        None, f"playouts per move (deterministic); with no budget given, {DEFAULT_PLAYOUTS}",
        check=_optional_positive_int)
    nodes: int | None = setting(
        None, "nodes per move (root plus every successor, tree and playouts; looked at between "
        "playouts); deterministic", check=_optional_positive_int)
    time: float | None = setting(
        None, "seconds per move (looked at between playouts); give only one of playouts, "
        "nodes, time", check=_optional_seconds)
    horizon: int = setting(
        10, "Pacman moves from the root after which a playout stops and is evaluated",
        check=positive_int)
    evaluation: str | Evaluation = setting(
        "score", "how a playout's last position is valued (as for the plain searches); values "
        "are min-max normalised for UCB", check=evaluation_spec)
    c: float = setting(1.0, "UCB1's exploration constant (values in [0, 1]); 0: greedy",
                       check=_exploration)
    ghost_model: str = setting(
        "uniform", "how the ghosts' replies are sampled: uniform, or directional (the "
        "directional ghost's own distribution)", check=one_of(*GHOST_MODELS))
    allow_stop: bool = setting(
        True, "false removes Stop from Pacman's moves in the tree (playouts never Stop unless "
        "it is the only move)", check=switch)
    playout: str = setting(
        "random", "Pacman's moves in the playouts: random (uniform), or greedy: with "
        "probability epsilon a random move, else among the moves that do not catch him or end "
        "within 1 maze step of a ghost that is not scared (all moves, when none is such), one "
        "that eats a dot, else one that leaves him nearest a dot (maze distance); ties by the "
        "search's generator. A greedy move generates every move's successor (counted in nodes)",
        check=one_of(*PLAYOUT_POLICIES), late=True)
    epsilon: float = setting(
        DEFAULT_EPSILON, "playout=greedy only: the chance of a uniformly random playout move",
        check=probability, late=True)

    def __post_init__(self) -> None:
        super().__post_init__()
        given = [name for name in ("playouts", "nodes", "time") if getattr(self, name) is not None]
        if len(given) > 1:
            raise SettingsError(f"give one budget, not {' and '.join(given)} (playouts, nodes "
                                "or time)")
        if self.playout != "greedy" and self.epsilon != DEFAULT_EPSILON:
            raise SettingsError(f"epsilon applies only to playout=greedy, not to playout="
                                f"{self.playout}")


class MCTSAgent(BaseAgent[MCTSSettings]):
    """Monte Carlo tree search (UCT, open-loop, ghosts sampled from a model) under a playout,
    node or time budget; see `pacman.agents.mcts`."""

    Settings = MCTSSettings

    def __init__(self, index: int = 0, settings: MCTSSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        chosen = self.settings
        if chosen.playouts is None and chosen.nodes is None and chosen.time is None:
            self.playouts: int | None = DEFAULT_PLAYOUTS
        else:
            self.playouts = chosen.playouts
        self.nodes, self.time = chosen.nodes, chosen.time
        self.horizon, self.c = chosen.horizon, float(chosen.c)
        self.evaluation, self._evaluation_name = _evaluation(chosen.evaluation)
        self.ghost_model = chosen.ghost_model
        self._chance = chance_model(self.ghost_model)
        self._actions: ActionGenerator | None = None if chosen.allow_stop else (
            actions_without_stop)
        self.playout, self.epsilon = chosen.playout, float(chosen.epsilon)
        self._playout = greedy_playout(self.epsilon) if self.playout == "greedy" else None
        self.last_decision: MCTSDecision | None = None

    def settings_text(self) -> str:
        """E.g. `playouts=200 score horizon=10 c=1`."""
        if self.playouts is not None:
            budget = f"playouts={self.playouts}"
        elif self.nodes is not None:
            budget = f"nodes={self.nodes}"
        else:
            budget = f"time={self.time:g}"
        parts = [budget, self._evaluation_name, f"horizon={self.horizon}", f"c={self.c:g}"]
        if self.ghost_model != "uniform":
            parts.append(f"ghost_model={self.ghost_model}")
        if not self.settings.allow_stop:
            parts.append("allow_stop=False")
        if self.playout != "random":
            parts.append(f"playout={self.playout} epsilon={self.epsilon:g}")
        return " ".join(parts)

    def get_action(self, state: SearchState) -> Any:
        """Search from `state` and return the most visited root move (also kept, with the
        search's statistics, in `last_decision`).

        The search draws from its own generator, seeded by one draw of the game's: the game's
        generator moves by one draw a move, whatever the budget.
        """
        search_rng = random.Random(self.rng.getrandbits(64))
        decision = mcts_search(state, self.evaluation, search_rng, playouts=self.playouts,
                               node_limit=self.nodes,
                               time_limit=None if self.time is None else float(self.time),
                               horizon=self.horizon, c=self.c, chance=self._chance,
                               actions=self._actions, playout=self._playout)
        self.last_decision = decision
        return decision.action
