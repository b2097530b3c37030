"""Monte Carlo tree search for Pacman: UCT over Pacman's moves, the ghosts' replies sampled.

This module's search is the move-level tree, `MCTSAgent`'s `tree=move`. The agent's default,
`tree=junction`, is `pacman.agents.mcts_junction`'s search (edges are corridors between
junctions); on a state without a layout (a generic `SearchState`) the agent searches by move
whatever its `tree`, with the junction tree's horizon and ghost model defaults.

`mcts_search` runs playouts from a state until its budget is spent and returns an
`MCTSDecision`. One playout (one iteration) is:

1. **selection**, down the tree: at each tree node Pacman's move is chosen by UCB1 among the
   node's actions (an action not yet tried first; then the largest `q + c * sqrt(ln N / n)`;
   among several untried actions or equal scores, one draw of the search's generator picks
   uniformly, so no direction is favoured by the order moves are listed in), and played;
   then every ghost (agents 1, 2, ...) plays a move drawn from the ghost model (below);
2. **expansion**: the first move that leaves the tree adds one node (the position after it);
3. **playout**: from there Pacman plays the playout policy's moves (below) and the ghosts
   play the model's, until the game is won or lost or `horizon` Pacman moves have been played
   *from the root* (the tree's moves included);
4. **backup**: the last position is valued by the evaluation (a won or lost position too, by
   the same evaluation; with `leaf_depth`, a cut-off position by a shallow search, below), and
   the value is added to the statistics of every (node, move) on the path.

The tree is **open-loop**: a node is a sequence of Pacman's moves from the root, not a game
state. The ghosts' replies are sampled afresh in every playout, so the statistics of a move are
an average over the ghost model, and a node stands for every position its moves lead to. In
Pacman this is exact for Pacman's own options: where Pacman stands (so his legal moves) depends
only on his own moves, and a playout in which a ghost caught him ends there. (With a generic
`SearchState` whose legal moves change with chance, a node keeps statistics per action and
chooses among the moves legal in the position at hand.)

**Values for UCB** are the evaluation's, normalised by min-max over every leaf value behind the
tree's statistics (this search's, and a reused tree's): `q = (mean - lo) / (hi - lo)` (0.5
for all while `hi == lo`), so `c` means the same for any evaluation's scale. An evaluation
that gives a lost game a huge penalty (`better`, `wary`: minus a million) squeezes every other
value near 1; the plain `score` (the default) keeps the differences.

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

**Ghost models** (`ghost_model`; `ghost_chance(name)`): each ghost's reply, in the tree and in
the playouts alike, is one draw of the search's generator over the ghost's legal moves (legal
order) with the model's probabilities:

- `uniform` (the default): every legal move alike.
- `directional`: the directional ghost's own distribution
  (`pacman.agents.ghosts.directional_distribution`: 0.8 shared by the moves that bring it
  nearest Pacman in Manhattan distance, farthest while scared, the rest uniform).
- `adversarial` (`adversarial_distribution`): only the *chasing moves*, uniformly: the moves
  after which the ghost is nearest Pacman in maze distance (`ghost_step_distances`: from the
  cell the move reaches, a scared ghost's half step snapped to the nearest cell), farthest
  from him while it is scared. The directional ghost with probability 1, but by the maze, not
  as the crow flies. It is near the ghosts minimax and alpha-beta assume (they minimise the
  evaluation; these chase Pacman): a move that a chasing ghost punishes at once is lost in
  every playout, as exact search proves it lost.

**The hybrid** (`leaf_depth`, after Baier and Winands' MCTS-minimax hybrids): a playout that
reaches the horizon without the game ending is valued by an expectimax search `leaf_depth`
plies deep from its cut-off position (`pacman.agents.search.expectimax`, the ghosts by the
same model, Pacman's moves the tree's), under the evaluation, instead of the evaluation
alone; a won or lost position is evaluated as it is. The cut-off, not the expanded node: it
is a drop-in for the evaluation (same units, so the same normalisation; the tree and the
playouts unchanged), and it is where an evaluation is least to be trusted, since the horizon
cuts a playout wherever it is, a ghost one step away or not; the leaf search resolves the
next moves of every agent there (a quiescence of sorts). Valuing the expanded node instead
(with no playout) would make each iteration a fixed-depth search from just below the tree,
blind past `leaf_depth`. The leaf searches' `successor()`
calls count in `nodes_generated` (their roots are the playouts' own last nodes), their
evaluations in the trace's `evaluations`; they draw nothing from the generator.

**Tree reuse** (`reuse`, `decay`; `MCTSTree`, `follows`): the agent keeps its tree from move to
move. When the position it is asked about follows the last search's position by the move it
chose and one move of every ghost (`follows`: generated and compared), the node after that
move becomes the root, with its statistics: the tree is open-loop, so that node already
stands for the position the ghosts' real replies led to. `decay` (1 by default) multiplies
every kept visit count, rounded down (a mean kept; a move left with 0 visits is dropped and
tried again first), after Pepels, Winands and Lanctot's MCTS Pac-Man. Any other position (a
new game, a replayed or explained move) gets a new tree. The budget is this move's: `playouts`
new playouts, `nodes` new nodes; the decision's `carried` counts the visits the root brought
in, so its root visits sum to `playouts + carried`.

**The trace** (`trace`, `MCTSTrace`): the root's statistics per move (visits and mean of each
root move, the most visited line, playouts, tree size, the budget), the summary a game record
keeps; built after the search from its counts, it changes nothing.

**The decision** is the root's most visited move, ties broken by one more draw, uniformly; its
value is that move's mean leaf value (in the evaluation's units). **Nodes**: `nodes_generated`
counts the root plus every `successor()` call (Pacman's and the ghosts' moves, in the tree and
in the playouts), as the other searches count theirs, so batches compare them; `tree_size`
counts the tree's nodes (the root included) and `playouts` the iterations.

**Budgets**: `playouts` (iterations), `nodes` (the `nodes_generated` count: looked at between
playouts, so the last playout may pass it by its length) and `time` (seconds, looked at between
playouts). With `playouts` or `nodes` the search is deterministic for a given generator. At
least one playout is always run.

One module, though over 500 lines: the search, its tree, the policies its playouts sample
(Pacman's and the ghosts') and the agent's settings are the parts of one algorithm, and none
is used apart from it. What it shares with the ghosts' search (`pacman.agents.mcts_ghosts`),
the budget, UCB1's choice and the decision at the root, is in `pacman.agents.mcts_core`; its
names are exported here too, as before.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pacman.agents.base import BaseAgent
from pacman.agents.mcts_core import (
    DEFAULT_PLAYOUTS,
    MCTSDecision,
    MCTSTrace,
    PlayoutBudget,
    PlayoutPolicy,
    RootMove,
    _single_move,
    budget_text,
    check_budget,
    default_playouts,
    most_visited,
    one_budget,
    root_statistics,
    sample_index,
    select_ucb,
    tie_draw,
)
from pacman.agents.pacman_agents import GHOST_MODELS as SEARCH_GHOST_MODELS
from pacman.agents.pacman_agents import chance_model, score_evaluation
from pacman.agents.search import expectimax
from pacman.agents.search_core import (
    ActionGenerator,
    ChanceModel,
    Decision,
    SearchState,
    action_name,
    actions_without_stop,
    check_root,
    legal_actions,
)
from pacman.agents.settings import (
    AgentSettings,
    evaluation_spec,
    finite_non_negative,
    one_of,
    optional_count,
    optional_seconds,
    positive_int,
    probability,
    setting,
    switch,
)
from pacman.agents.survival import Tables, chase_model, layout_tables
from pacman.errors import SettingsError

# RootMove, PlayoutPolicy, sample_index, tie_draw, check_budget, one_budget and
# DEFAULT_PLAYOUTS are `pacman.agents.mcts_core`'s, exported here as they always were
__all__ = ["MCTSAgent", "MCTSSettings", "MCTSDecision", "MCTSTrace", "RootMove", "mcts_search",
           "greedy_playout", "adversarial_distribution", "ghost_chance", "follows", "MCTSTree",
           "PlayoutPolicy", "named_evaluation", "sample_index", "tie_draw", "check_budget",
           "one_budget", "DEFAULT_PLAYOUTS", "DEFAULT_EPSILON", "GHOST_MODELS",
           "PLAYOUT_POLICIES"]

#: the greedy playouts' chance of a random move, unless told
DEFAULT_EPSILON = 0.1

#: the names of the `playout` setting
PLAYOUT_POLICIES = ("random", "greedy")

#: the names of the `ghost_model` setting: the expectimax agents' models, and `adversarial`
GHOST_MODELS = (*SEARCH_GHOST_MODELS, "adversarial")

Evaluation = Callable[[Any], float]

#: the hybrid's leaf search: expectimax without `with_room` (a fresh stack chunk costs some
#: 12 microseconds a call, and a leaf search is shallow and runs once a playout)
_expectimax: Callable[..., Decision] = getattr(expectimax, "__wrapped__", expectimax)


class _Node:
    """An open-loop tree node: per action, visits, summed leaf values and the child node
    (`visits` is the sum of `counts`)."""

    __slots__ = ("children", "counts", "totals", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.counts: dict[Any, int] = {}
        self.totals: dict[Any, float] = {}
        self.children: dict[Any, _Node] = {}


class MCTSTree:
    """A search tree kept from one search to the next (tree reuse).

    `mcts_search(..., tree=tree)` searches from `tree`'s root and adds its playouts to it in
    place; after the game has moved on, `tree.subtree(move, decay)` is the tree for the next
    position. `lo` and `hi` are the smallest and largest leaf values behind its statistics
    (UCB's normalisation goes on from them); `size` counts its nodes, the root included.
    """

    __slots__ = ("hi", "lo", "root", "size")

    def __init__(self) -> None:
        self.root = _Node()
        self.size = 1
        self.lo, self.hi = math.inf, -math.inf

    @property
    def visits(self) -> int:
        """The playouts behind the root's statistics."""
        return self.root.visits

    def subtree(self, action: Any, decay: float = 1.0) -> MCTSTree:
        """The tree under the root's `action`, for the position the game reached by it.

        The tree is open-loop, so the node after Pacman's `action` stands for every position
        the ghosts' replies lead to, the one the game reached among them; it becomes the root,
        with its statistics. Every visit count below it is multiplied by `decay` and rounded
        down, and each summed value scaled by the same factor as its count, so a mean stays
        what it was (Pepels et al.'s decay, in whole visits); a move left with 0 visits is
        dropped with everything under it (the search tries it again first). With nothing
        left, or no node under `action`: a new tree. This tree is not to be searched again
        (the subtree shares its nodes).

        Raises:
            ValueError: `decay` is not a number from 0 to 1.
        """
        if isinstance(decay, bool) or not isinstance(decay, (int, float)) or not (
                0.0 <= decay <= 1.0):
            raise ValueError(f"decay must be a number between 0 and 1, got {decay!r}")
        child = self.root.children.get(action)
        tree = MCTSTree()
        if child is None:
            return tree
        size = 0
        stack = [child]
        while stack:
            node = stack.pop()
            size += 1
            if decay != 1.0:
                counts, totals, children = node.counts, node.totals, node.children
                for move, count in list(counts.items()):
                    kept = int(count * decay)
                    if kept:
                        totals[move] *= kept / count
                        counts[move] = kept
                    else:
                        del counts[move], totals[move]
                        children.pop(move, None)
                node.visits = sum(counts.values())
            stack.extend(node.children.values())
        if child.visits:
            tree.root, tree.size, tree.lo, tree.hi = child, size, self.lo, self.hi
        return tree


def mcts_search(state: SearchState, evaluate: Evaluation, rng: random.Random, *,
                playouts: int | None = None, node_limit: int | None = None,
                time_limit: float | None = None, horizon: int = 10, c: float = 1.0,
                chance: ChanceModel | None = None, actions: ActionGenerator | None = None,
                playout: PlayoutPolicy | None = None, leaf_depth: int = 0,
                tree: MCTSTree | None = None, trace: bool = False,
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
        leaf_depth: 0, or the depth of the expectimax search (under `chance`, Pacman's moves
            from `actions`) that values each playout's cut-off position instead of `evaluate`
            alone (the hybrid; see the module docstring).
        tree: a tree to search from and add to (`MCTSTree`, for tree reuse); None: a new one.
            Its root must stand for `state`.
        trace: also return the root's statistics as an `MCTSTrace` (in the decision's
            `trace`); it changes no draw, move or count.
        clock: the clock `time_limit` is measured on.

    Returns:
        The decision: the root's most visited move, with the root's statistics and counts
        (the budget and `playouts` count this search's playouts; the root's visits include
        those `tree` carried in, `carried`).

    Raises:
        ValueError: a bad budget, horizon, leaf depth or constant, or a terminal or stuck root.
    """
    playouts = check_budget(playouts, node_limit, time_limit, horizon, c)
    legal: ActionGenerator = actions or legal_actions
    root_actions = _root_actions(state, legal, leaf_depth)
    budget = budget_text(playouts, node_limit, time_limit)
    if len(root_actions) == 1:
        return _single_move(root_actions[0], horizon, budget, float(c), trace)
    search = _Search(state, evaluate, rng.random, root_actions, legal, horizon, c, chance,
                     playout, leaf_depth, MCTSTree() if tree is None else tree)
    stopped = search.run(PlayoutBudget(playouts, node_limit, time_limit, clock))
    return search.decision(stopped, trace, budget)


def _root_actions(state: SearchState, legal: ActionGenerator,
                  leaf_depth: int) -> tuple[Any, ...]:
    """Pacman's moves at the root, after checking the leaf depth and the root (in this order).

    Raises:
        ValueError: a bad leaf depth, a terminal root, no legal move, or leaf searches too
            deep for the agents (`check_root`).
    """
    if isinstance(leaf_depth, bool) or not isinstance(leaf_depth, int) or leaf_depth < 0:
        raise ValueError(f"leaf_depth must be a whole number >= 0, got {leaf_depth!r}")
    if state.is_win() or state.is_lose():
        raise ValueError("cannot search from a terminal state: the game is already won or lost")
    root_actions = tuple(legal(state, 0))
    if not root_actions:
        raise ValueError("cannot search from a state where agent 0 has no legal action")
    if leaf_depth:
        check_root(state, leaf_depth, legal)  # the leaf searches' depth x agents limit
    return root_actions


class _Search:
    """One run of `mcts_search` past its checks: its settings, its counters (`generated`,
    `evaluations`, `done` playouts, the tree's size and the leaf values' range `lo`, `hi`) and
    the steps of one playout, `iterate`: `descend` (selection and expansion), `play_out`,
    `leaf_value` and `back_up`. The tree's size and range are written back to it by `run`."""

    __slots__ = ("c", "carried", "chance", "done", "draw", "evaluate", "evaluations",
                 "generated", "hi", "horizon", "leaf_depth", "legal", "lo", "num_agents",
                 "path", "playout", "root", "root_actions", "state", "tree", "tree_size")

    def __init__(self, state: SearchState, evaluate: Evaluation, draw: Callable[[], float],
                 root_actions: tuple[Any, ...], legal: ActionGenerator, horizon: int, c: float,
                 chance: ChanceModel | None, playout: PlayoutPolicy | None, leaf_depth: int,
                 tree: MCTSTree) -> None:
        self.state, self.evaluate, self.draw = state, evaluate, draw
        self.root_actions, self.legal, self.horizon, self.c = root_actions, legal, horizon, c
        self.chance, self.playout, self.leaf_depth = chance, playout, leaf_depth
        self.num_agents = state.num_agents
        self.tree, self.root = tree, tree.root
        self.carried = tree.root.visits  # what a reused tree brought in
        self.generated = 1  # the root
        self.evaluations = self.done = 0
        self.tree_size, self.lo, self.hi = tree.size, tree.lo, tree.hi
        self.path: list[tuple[_Node, Any]] = []  # this playout's (node, Pacman's move)s

    def run(self, budget: PlayoutBudget) -> str:
        """Playouts until `budget` is spent (at least one); returns why it stopped."""
        while True:
            self.iterate()
            self.done += 1
            stopped = budget.spent(self.done, self.generated)
            if stopped is not None:
                break
        self.tree.size, self.tree.lo, self.tree.hi = self.tree_size, self.lo, self.hi
        return stopped

    def iterate(self) -> None:
        """One playout: down the tree, on to the horizon unless the game ended, valued and
        backed up."""
        s, depth, ended = self.descend()
        if not ended:
            s = self.play_out(s, depth)
        self.back_up(self.leaf_value(s))

    def descend(self) -> tuple[Any, int, bool]:
        """Selection and expansion: from the root, UCB1's move at each node (`select_ucb`;
        the root's moves are `root_actions`, a node's below are the legal ones where it
        stands) and the ghosts' sampled replies, until the game ends or Pacman is stuck
        (`ended`), the horizon is reached, or a move leaves the tree (one node added).
        Returns the position reached, Pacman's moves from the root and `ended`; `path` holds
        the (node, move)s played."""
        s: Any = self.state
        root = node = self.root
        legal, c, lo, hi, draw = self.legal, self.c, self.lo, self.hi, self.draw
        reply = self.reply
        path = self.path
        path.clear()
        depth = generated = 0
        ended = False
        while True:
            moves = self.root_actions if node is root else legal(s, 0)
            if not moves:
                ended = True
                break
            move = select_ucb(moves, node.counts, node.totals, node.visits, c, lo, hi, draw)
            path.append((node, move))
            s = s.successor(0, move)
            generated += 1
            s = reply(s)
            depth += 1
            if s.is_win() or s.is_lose():
                ended = True
                break
            if depth >= self.horizon:
                break
            child = node.children.get(move)
            if child is None:
                node.children[move] = _Node()
                self.tree_size += 1
                break
            node = child
        self.generated += generated
        return s, depth, ended

    def play_out(self, s: Any, depth: int) -> Any:
        """The playout from `depth` Pacman moves: the policy's moves without Stop and the
        ghosts' sampled replies, until the horizon, the game's end, or no move. (The replies
        are `reply`'s, inline: the call and its attribute loads cost 2% of a search.)"""
        policy, draw, horizon = self.playout, self.draw, self.horizon
        chance, num_agents = self.chance, self.num_agents
        generated = 0
        while depth < horizon:
            moves = actions_without_stop(s, 0)
            if not moves:
                break
            if policy is None:
                s = s.successor(0, moves[int(draw() * len(moves))])
                generated += 1
            else:
                _, s, made = policy(s, moves, draw)
                generated += made
            for agent in range(1, num_agents):
                if s.is_win() or s.is_lose():
                    break
                moves = s.legal_actions(agent)
                if not moves:
                    continue
                if chance is None:
                    move = moves[int(draw() * len(moves))]
                else:
                    move = moves[sample_index(chance(s, agent, moves), draw())]
                s = s.successor(agent, move)
                generated += 1
            depth += 1
            if s.is_win() or s.is_lose():
                break
        self.generated += generated
        return s

    def reply(self, s: Any) -> Any:
        """The ghosts' sampled moves after Pacman's: each in turn (one with no legal move
        passes), until the game ends."""
        chance, draw = self.chance, self.draw
        generated = 0
        for agent in range(1, self.num_agents):
            if s.is_win() or s.is_lose():
                break
            moves = s.legal_actions(agent)
            if not moves:
                continue
            if chance is None:
                move = moves[int(draw() * len(moves))]
            else:
                move = moves[sample_index(chance(s, agent, moves), draw())]
            s = s.successor(agent, move)
            generated += 1
        self.generated += generated
        return s

    def leaf_value(self, s: Any) -> float:
        """The playout's value: the evaluation's, or with `leaf_depth` (and the game on, and
        Pacman a move) the leaf search's, its nodes counted but for its root."""
        if self.leaf_depth and not (s.is_win() or s.is_lose()) and self.legal(s, 0):
            searched = _expectimax(s, self.leaf_depth, self.counted, actions=self.legal,
                                   chance=self.chance)
            self.generated += searched.nodes_generated - 1  # its root is the playout's last
            return float(searched.value)
        self.evaluations += 1
        return float(self.evaluate(s))

    def counted(self, s: Any) -> float:
        """The evaluation, counted (the leaf searches call it)."""
        self.evaluations += 1
        return self.evaluate(s)

    def back_up(self, value: float) -> None:
        """Widen the range of leaf values by `value` and add it to every (node, move) of the
        playout's path."""
        if value < self.lo:
            self.lo = value
        if value > self.hi:
            self.hi = value
        for visited, move in self.path:
            visited.visits += 1
            visited.counts[move] = visited.counts.get(move, 0) + 1
            visited.totals[move] = visited.totals.get(move, 0.0) + value

    def decision(self, stopped: str, trace: bool, budget: str) -> MCTSDecision:
        """The root's most visited move (one more draw for a tie) and its statistics; with
        `trace`, the trace too (`budget` the budget's text)."""
        root = self.root
        stats = root_statistics(self.root_actions, root.counts, root.totals)
        chosen, best = most_visited(stats, self.draw)
        recorded = None
        if trace:
            recorded = MCTSTrace(
                action_name(chosen.action), chosen.mean, self.horizon, self.generated,
                self.evaluations, tuple((action_name(move.action), move.mean) for move in stats),
                tuple((action_name(move.action), move.visits) for move in stats),
                tuple(action_name(move) for move in _principal_variation(root, chosen.action)),
                sum(move.visits for move in stats), self.tree_size, stopped, budget,
                float(self.c))
        return MCTSDecision(chosen.action, chosen.mean, self.generated,
                            tuple(move.action for move in best), self.done, self.tree_size,
                            stats, stopped, recorded, self.carried)


def _principal_variation(root: _Node, first: Any) -> list[Any]:
    """Pacman's most visited line: `first`, then at each node below the move with the most
    visits (ties to the first tried), while the node has a visited move."""
    line = [first]
    node = root.children.get(first)
    while node is not None and node.counts:
        best, most = None, 0
        for move, visits in node.counts.items():
            if visits > most:
                best, most = move, visits
        line.append(best)
        node = node.children.get(best)
    return line


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
        move, child = tie_draw(best, draw)
        return move, child, len(moves)

    return greedy


def adversarial_distribution(state: Any, agent: int, actions: Sequence[Any]) -> list[float]:
    """The `adversarial` ghost model: ghost `agent` plays one of its *chasing moves*, uniformly.

    A chasing move is one after which the ghost is nearest Pacman in maze distance (a scared
    ghost: farthest from him), measured from the cell the move takes it to (a scared ghost's
    half step: the nearest cell), `GameState.ghost_step_distances`; the same moves as the
    escape check's `chasing_moves`. It is the directional ghost with probability 1, with maze
    distance where the directional ghost uses Manhattan distance (a wall between them does not
    fool it). `actions` are the ghost's legal moves in legal order, as every search passes
    them. A state without `ghost_step_distances` (a hand-built `SearchState`) gets uniform
    probabilities.
    """
    count = len(actions)
    steps = getattr(state, "ghost_step_distances", None)
    if count == 1 or steps is None:
        return [1.0 / count] * count
    distances = steps(agent)
    if len(distances) != count:  # a subset of the legal moves: look each one up
        known = dict(zip(state.legal_actions(agent), distances, strict=True))
        distances = [known[action] for action in actions]
    best = max(distances) if state.scared_timers[agent - 1] else min(distances)
    share = 1.0 / distances.count(best)
    return [share if distance == best else 0.0 for distance in distances]


def ghost_chance(name: str) -> ChanceModel | None:
    """The chance model a `ghost_model` setting names: None for uniform (the search draws a
    legal move uniformly), the directional ghost's distribution, or `adversarial_distribution`.

    Raises:
        ValueError: an unknown name.
    """
    if name == "adversarial":
        return adversarial_distribution
    if name not in SEARCH_GHOST_MODELS:
        raise ValueError(f"unknown ghost_model {name!r} (choose {' or '.join(GHOST_MODELS)})")
    return chance_model(name)


def named_evaluation(spec: str | Evaluation) -> tuple[Evaluation, str]:
    """The evaluation function a setting names, and the name `describe` shows for it."""
    if callable(spec):
        return spec, getattr(spec, "__name__", type(spec).__name__)
    if spec == "score":
        return score_evaluation, spec
    from pacman.agents.evaluation import resolve_evaluation  # lazy: it loads weights files

    return resolve_evaluation(spec), spec


def _leaf_depth(name: str, value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return f"{name} must be a whole number >= 0, got {value!r}"
    return None if value == 0 else positive_int(name, value)


#: the names of the `tree` setting: corridors between junctions (`pacman.agents.mcts_junction`)
#: or single moves (this module's search)
TREES = ("junction", "move")

#: each tree's horizon and ghost model when the settings give none
TREE_DEFAULTS: dict[str, tuple[int, str]] = {"junction": (30, "directional"),
                                             "move": (10, "uniform")}

#: the survival tables' horizon with chase=auto
AUTO_CHASE = 15
#: the most states (Pacman's cells times the ghosts' configurations squared, with two ghosts)
#: of a layout's survival table that chase=auto builds: about 10 s and 200 MB
AUTO_CHASE_STATES = 20_000_000
#: chase_margin's default: the root cut of the junction tree with survival tables
DEFAULT_CHASE_MARGIN = 0.01
#: cycles' default: the junction tree's cycle breaker, in points of the 0-1 reward
DEFAULT_CYCLES = 0.3

#: the settings only the move-level tree reads, with their defaults
MOVE_ONLY: dict[str, Any] = {"evaluation": "score", "allow_stop": True, "playout": "random",
                             "epsilon": DEFAULT_EPSILON, "reuse": False, "decay": 1.0,
                             "leaf_depth": 0}


def _optional_depth(name: str, value: Any) -> str | None:
    return None if value is None else positive_int(name, value)


def _escape_moves(name: str, value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return f"{name} must be a whole number >= 0, got {value!r}"
    return None


def _chase_horizon(name: str, value: Any) -> str | None:
    if value == "auto" or _escape_moves(name, value) is None:
        return None
    return f"{name} must be auto or a whole number >= 0, got {value!r}"


def _optional_model(name: str, value: Any) -> str | None:
    return None if value is None else one_of(*GHOST_MODELS, "pincer")(name, value)


@dataclass(frozen=True)
class MCTSSettings(AgentSettings):
    """MCTS's settings: the tree (junction or move), one budget (playouts, nodes or time), the
    playouts' horizon, UCB's constant and the ghosts' model; the junction tree's survival
    threshold; the move tree's playout policy, evaluation, tree reuse and hybrid leaf search;
    the trace."""

    tree: str = setting(
        "junction", "junction: the tree's edges are corridors from junction to junction, "
        "walked move by move, playouts valued by survival and food with a survival "
        "threshold (Pepels et al.; a Pacman GameState only, other states search by move); "
        "move: the classic tree, one edge per Pacman move, playouts valued by the evaluation",
        check=one_of(*TREES))

    playouts: int | None = setting(
        None, f"playouts per move (deterministic); with no budget given, {DEFAULT_PLAYOUTS}",
        check=optional_count)
    nodes: int | None = setting(
        None, "nodes per move (root plus every successor, tree and playouts; looked at between "
        "playouts); deterministic", check=optional_count)
    time: float | None = setting(
        None, "seconds per move (looked at between playouts); give only one of playouts, "
        "nodes, time", check=optional_seconds)
    horizon: int | None = setting(
        None, "Pacman moves from the root after which a playout stops and is valued; none: 30 "
        "with tree=junction (some 6 corridors on mediumClassic), 10 with tree=move",
        check=_optional_depth)
    evaluation: str | Evaluation = setting(
        "score", "how a playout's last position is valued (as for the plain searches); values "
        "are min-max normalised for UCB", check=evaluation_spec)
    c: float = setting(1.0, "UCB1's exploration constant (values in [0, 1]); 0: greedy",
                       check=finite_non_negative)
    ghost_model: str | None = setting(
        None, "how the ghosts' replies are sampled: uniform, directional (the directional "
        "ghost's own distribution), adversarial (a move that brings the ghost nearest Pacman "
        "in maze distance, farthest while scared; ties uniformly) or, tree=junction only, "
        "pincer (ghosts head for the junctions in front of and behind Pacman); none: "
        "directional with tree=junction, uniform with tree=move",
        check=_optional_model)
    survival: float = setting(
        0.7, "tree=junction only: the simulated survival rate a move needs to be taken for its "
        "food; when no root move reaches it the search plays for survival alone",
        check=probability)
    escape: int = setting(
        12, "tree=junction only: search only the root moves after which Pacman survives this "
        "many of his moves against ghosts that all chase him (the anytime agents' escape "
        "check, its time inside a time budget, its positions in no node count), unless none "
        "does; 0: off", check=_escape_moves)
    chase: int | str = setting(
        "auto", "tree=junction only: a playout that reaches its horizon alive counts the exact "
        "chance of surviving this many more moves of the food-free chase from where it ended "
        "(a survival table of the layout for the ghost model, built at the game's start or read "
        "from the cache), not 1, and its reward times that; auto: 15 on a layout whose table "
        f"holds at most {AUTO_CHASE_STATES // 1_000_000} million states (mediumClassic's holds 6 "
        "million), off on a larger one; 0: off", check=_chase_horizon)
    chase_margin: float = setting(
        DEFAULT_CHASE_MARGIN, "with the tables (chase): drop the root moves whose chance of "
        "surviving one round and then the chase's moves is more than this below the best "
        "move's; 1: none is dropped", check=probability)
    cycles: float = setting(
        DEFAULT_CYCLES, "tree=junction only: the cycle breaker: where Pacman has been before "
        "with the same food and capsules left (wherever the ghosts are), the move played is "
        "the safe one (any, when none is) of best mean reward less this many points (rewards "
        "are 0 to 1) for every earlier time it was played there, among those with 10 visits; "
        "0: off", check=finite_non_negative)
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
    reuse: bool = setting(
        False, "keep the tree from move to move: when the position to search is one the game "
        "reached by the last search's move and one move of every ghost, the subtree under that "
        "move is the new root, its statistics kept (times decay); otherwise a new tree. The "
        "budget counts this move's playouts or nodes", check=switch, late=True)
    decay: float = setting(
        1.0, "reuse=true only: the kept tree's visit counts are multiplied by it (rounded "
        "down; each mean kept; a move left with 0 visits is dropped)", check=probability,
        late=True)
    leaf_depth: int = setting(
        0, "the hybrid: a playout's cut-off position is valued by an expectimax search this "
        "many plies deep (the ghosts by ghost_model, Pacman's moves as in the tree) under the "
        "evaluation; its nodes count. 0: the evaluation alone", check=_leaf_depth, late=True)
    trace: bool = setting(
        False, "record each move's root statistics (visits and mean value per root move, the "
        "most visited line, playouts, tree size) in last_decision.trace; it changes no "
        "decision and batches leave it out", check=switch, late=True, observing=True)

    def __post_init__(self) -> None:
        super().__post_init__()
        one_budget(self)
        if self.tree == "junction":
            for name, default in MOVE_ONLY.items():
                if getattr(self, name) != default:
                    raise SettingsError(f"{name} applies only to tree=move, not to "
                                        "tree=junction")
        elif (self.survival != 0.7 or self.escape != 12 or self.chase not in ("auto", 0)
              or self.chase_margin != DEFAULT_CHASE_MARGIN or self.cycles != DEFAULT_CYCLES):
            name = ("survival" if self.survival != 0.7 else "escape" if self.escape != 12
                    else "chase" if self.chase not in ("auto", 0)
                    else "cycles" if self.cycles != DEFAULT_CYCLES else "chase_margin")
            raise SettingsError(f"{name} applies only to tree=junction, not to tree=move")
        elif self.ghost_model == "pincer":
            raise SettingsError("ghost_model=pincer applies only to tree=junction")
        if self.playout != "greedy" and self.epsilon != DEFAULT_EPSILON:
            raise SettingsError(f"epsilon applies only to playout=greedy, not to playout="
                                f"{self.playout}")
        if self.chase == 0 and self.chase_margin != DEFAULT_CHASE_MARGIN:
            raise SettingsError("chase_margin applies only with the tables (chase=auto or "
                                "chase=H), not with chase=0")
        if not self.reuse and self.decay != 1.0:
            raise SettingsError("decay applies only to reuse=true")


class MCTSAgent(BaseAgent[MCTSSettings]):
    """Monte Carlo tree search (UCT, open-loop, ghosts sampled from a model) under a playout,
    node or time budget: by default over corridors between junctions
    (`pacman.agents.mcts_junction`), with `tree=move` over single moves, its tree kept from
    move to move with `reuse`; see `pacman.agents.mcts`."""

    Settings = MCTSSettings

    def __init__(self, index: int = 0, settings: MCTSSettings | None = None,
                 **values: Any) -> None:
        super().__init__(index, settings, **values)
        chosen = self.settings
        self.playouts = default_playouts(chosen.playouts, chosen.nodes, chosen.time)
        self.nodes, self.time = chosen.nodes, chosen.time
        self.tree = chosen.tree
        horizon, model = TREE_DEFAULTS[self.tree]
        self.horizon = horizon if chosen.horizon is None else chosen.horizon
        self.c = float(chosen.c)
        self.evaluation, self._evaluation_name = named_evaluation(chosen.evaluation)
        self.ghost_model = model if chosen.ghost_model is None else chosen.ghost_model
        self.survival = float(chosen.survival)
        self.escape = chosen.escape
        self.chase, self.chase_margin = chosen.chase, float(chosen.chase_margin)
        self.cycles = float(chosen.cycles)
        self._played: dict[Any, Counter[Any]] = {}  # cycles: position -> moves played there
        self._tables: Tables | None = None  # this game's survival tables, if any
        self._tables_layout: Any = None  # the layout they are of
        self._chance = (_pincer() if self.ghost_model == "pincer"
                        else ghost_chance(self.ghost_model))
        self._actions: ActionGenerator | None = None if chosen.allow_stop else (
            actions_without_stop)
        self.playout, self.epsilon = chosen.playout, float(chosen.epsilon)
        self._playout = greedy_playout(self.epsilon) if self.playout == "greedy" else None
        self.trace = chosen.trace
        self.reuse, self.decay = chosen.reuse, float(chosen.decay)
        self.leaf_depth = chosen.leaf_depth
        self._kept: tuple[Any, Any, MCTSTree] | None = None  # reuse: state, move, tree
        self.last_decision: MCTSDecision | None = None

    def settings_text(self) -> str:
        """E.g. `playouts=200 tree=junction horizon=30 c=1 ghost_model=directional
        survival=0.7 escape=12 chase=auto chase_margin=0.01 cycles=0.3`, or with tree=move
        (which it does not name: every description before the setting existed is of that tree)
        `playouts=200 score horizon=10 c=1`."""
        if self.tree == "junction":
            return (f"{budget_text(self.playouts, self.nodes, self.time)} tree=junction "
                    f"horizon={self.horizon} c={self.c:g} ghost_model={self.ghost_model} "
                    f"survival={self.survival:g} escape={self.escape}"
                    + f" chase={self.chase}"
                    + (f" chase_margin={self.chase_margin:g}" if self.chase else "")
                    + f" cycles={self.cycles:g}")
        parts = [budget_text(self.playouts, self.nodes, self.time), self._evaluation_name,
                 f"horizon={self.horizon}", f"c={self.c:g}"]
        if self.ghost_model != "uniform":
            parts.append(f"ghost_model={self.ghost_model}")
        if not self.settings.allow_stop:
            parts.append("allow_stop=False")
        if self.playout != "random":
            parts.append(f"playout={self.playout} epsilon={self.epsilon:g}")
        if self.reuse:
            parts.append("reuse=True" if self.decay == 1.0 else f"reuse=True decay={self.decay:g}")
        if self.leaf_depth:
            parts.append(f"leaf_depth={self.leaf_depth}")
        return " ".join(parts)

    def register_initial_state(self, state: SearchState) -> None:
        """A new game: no tree is kept from an earlier one; with the survival tables (`chase`),
        the layout's tables are built (or read from the cache) now, before the first move."""
        self._kept = None
        self._played.clear()
        self._chase_tables(state)

    def _chase_tables(self, state: Any) -> Tables | None:
        """The layout's survival tables of one and two ghosts (as many as the game has) for
        the ghost model (`pacman.agents.survival.chase_model`), built once a game
        (`pacman.chase`); None with chase=0, with tree=move, in a game without ghosts or a
        state without a layout, and with chase=auto on a layout whose table would hold more
        than `AUTO_CHASE_STATES` states."""
        if not self.chase or self.tree != "junction" or not hasattr(state, "layout") \
                or state.num_agents < 2:
            return None
        layout = state.layout
        if self._tables_layout is not layout:
            from pacman.chase.moves import table_states  # the chase imports the agents' modules

            ghosts = state.num_agents - 1
            if self.chase == "auto":
                horizon = AUTO_CHASE if table_states(layout, min(2, ghosts)) \
                    <= AUTO_CHASE_STATES else 0
            else:
                horizon = int(self.chase)
            self._tables_layout = layout
            self._tables = layout_tables(layout, ghosts, chase_model(self.ghost_model),
                                         horizon) if horizon else None
        return self._tables

    def get_action(self, state: SearchState) -> Any:
        """Search from `state` and return the most visited root move (also kept, with the
        search's statistics, in `last_decision`).

        The search draws from its own generator, seeded by one draw of the game's: the game's
        generator moves by one draw a move, whatever the budget. With `reuse`, the tree of
        the last search goes on when `state` follows from its move (`follows`), else a new
        tree is grown (a new game, a replayed or explained position).
        """
        search_rng = random.Random(self.rng.getrandbits(64))
        if self.tree == "junction" and hasattr(state, "layout"):
            from pacman.agents.mcts_junction import junction_search  # it imports this module

            played = self._played.setdefault(_pacmans_position(state), Counter()) \
                if self.cycles else None
            decision = junction_search(
                state, search_rng, playouts=self.playouts, node_limit=self.nodes,
                time_limit=None if self.time is None else float(self.time),
                horizon=self.horizon, c=self.c, chance=self._chance, survival=self.survival,
                escape=self.escape, trace=self.trace,
                tables=self._chase_tables(state), margin=self.chase_margin,
                chase_model=chase_model(self.ghost_model), cycles=self.cycles, played=played)
            if played is not None:
                played[decision.action] += 1
            self.last_decision = decision
            return decision.action
        tree = None
        if self.reuse:
            tree = MCTSTree()
            if self._kept is not None:
                before, move, kept = self._kept
                self._kept = None
                if follows(before, move, state):
                    tree = kept.subtree(move, self.decay)
        decision = mcts_search(state, self.evaluation, search_rng, playouts=self.playouts,
                               node_limit=self.nodes,
                               time_limit=None if self.time is None else float(self.time),
                               horizon=self.horizon, c=self.c, chance=self._chance,
                               actions=self._actions, playout=self._playout,
                               leaf_depth=self.leaf_depth, tree=tree, trace=self.trace)
        if tree is not None:
            self._kept = (state, decision.action, tree)
        self.last_decision = decision
        return decision.action


def _pacmans_position(state: Any) -> tuple[Any, ...]:
    """The cycle breaker's key of a `GameState`: Pacman's cell, the food and the capsules
    left (`GameState.position` without the ghosts' cells: when Pacman comes round a block with
    the ghosts behind him, they are seldom exactly where they were the lap before)."""
    pacman, _, food, capsules = state.position
    return pacman, food, capsules


def _pincer() -> ChanceModel:
    from pacman.agents.mcts_junction import pincer_distribution  # it imports this module

    return pincer_distribution


def follows(before: SearchState, action: Any, after: SearchState) -> bool:
    """True when `after` is a position the game reaches from `before` by agent 0's `action`
    and then one move of every other agent (in turn; an agent with no legal move passes), the
    game not ended on the way: the next position Pacman is asked about in the same game.

    Every combination of the ghosts' moves is generated (at most the product of their legal
    moves' counts; these `successor()` calls are no search's and count in no node total) and
    compared with `after` by `==`; a state whose class compares by identity never follows.
    """
    if after.num_agents != before.num_agents:
        return False
    try:
        frontier = [before.successor(0, action)]
    except Exception:  # not a legal move there: not this game
        return False
    for agent in range(1, before.num_agents):
        reached: list[Any] = []
        for position in frontier:
            if position.is_win() or position.is_lose():
                continue  # the game ended: Pacman is not asked again
            moves = position.legal_actions(agent)
            if moves:
                reached.extend(position.successor(agent, move) for move in moves)
            else:
                reached.append(position)
        frontier = reached
    return any(position == after and not (position.is_win() or position.is_lose())
               for position in frontier)
