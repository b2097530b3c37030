"""Anytime adversarial search: iterative deepening under a time or node budget.

`iterative_search` deepens one whole ply at a time and returns the best move of the deepest
iteration it completed. Each iteration is a depth-limited search whose layers are MAX (agent
0), MIN or CHANCE (one kind per agent, so the same code plays alpha-beta, expectimax and
expectiminimax), with four enhancements, each of which can be switched off:

- a transposition table keyed by (state, agent to move), holding the value, its bound type
  (exact, lower, upper) and the depth it was searched to; it is kept across iterations (and
  across moves by the agents). A value is reused only at the same remaining depth, so an
  iteration to depth d returns exactly the value of the plain search to depth d. Nodes just
  above the leaves are not stored: searching them again is cheaper;
- move ordering: the table's best move first (the previous iteration's choice), then cheap
  heuristics (`order`, e.g. ghosts heading for Pacman first), computed once per node and kept
  in its table entry; a MIN or MAX node with one legal move (a ghost in a corridor) is worth
  its child, and is not ordered at all;
- exact pruning at chance nodes (Star1, Ballard 1983): with bounds `[lo, hi]` on every value
  below a node (`bounds(state, plies)`, from the evaluation's range), a chance node stops as
  soon as its expected value can no longer reach the window;
- an optional probability cut-off (`cutoff`): a chance outcome whose probability along the path
  is below it is evaluated instead of searched. This is an approximation: the value may differ
  from the plain search's.

And one extension, off by default: **quiescence** (`quiescence=N`, with `live` and
`quiet_moves`). A leaf that is *live* (`live(state)`: something decisive is about to happen,
e.g. a ghost next to Pacman) is not evaluated where it stands: the search goes on for up to
`N` more whole plies, over the moves `quiet_moves(state, agent, actions)` keeps (e.g. every
move of Pacman and of the threatening ghosts, one move of the others), and evaluates a position
as soon as it is quiet again (at the start of a ply) or the `N` plies are spent. A quiet leaf
costs nothing extra. With `quiescence=0` the search is exactly the one above. A restricted
chance layer gives its kept moves the model's probabilities, renormalised: an approximation.

And **forward pruning** (`forward=k`, off by default): at a MAX or MIN node with more than one
ply left, each child is generated and evaluated, and only the `k` best are searched (best
first). It is approximate by design: a move that looks bad one step ahead and wins later (a
detour, a sacrifice) is never searched. The evaluations count as generated nodes.

And **singular extensions** (`singular=margin`, off by default): at a MAX node each child is
generated and evaluated (a search of depth 0); when one child beats every other by at least
`margin`, that move is searched one ply deeper than the rest, at most `SINGULAR_CAP` times on
one path. The one clearly best move is where a surprise past the horizon costs most. The table
keeps the extended values under the unextended depth, so with extensions on, the root value
is no longer the plain search's at that depth.

Leaves, node counts and root tie rules follow `pacman.agents.search`: a node is a leaf when it
is won or lost, when agent 0 is to move after `depth` plies, or when its agent has no legal action;
`nodes_generated` counts the root plus every `successor()` call, over all iterations.

One job in one file (about 600 lines): the search. `_Iteration` runs it in methods a reader
can hold: `node` (budget, table, forced move, then the MAX or MIN loop; `search_order` orders
and forward-prunes its moves), `chance_node`, `leaf` and `quiet` (quiescence). Its counters
are attributes of the iteration. `node` keeps the MAX, MIN and forced-move loops, each with
its child step inline, on purpose: one Python frame a ply, as deep searches need, and speed
(a deliberate copy).
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pacman.agents.search_core import ActionGenerator, ChanceModel, legal_actions
from pacman.stack import with_room

__all__ = [
    "CHANCE", "MAX", "MIN", "AnytimeDecision", "Bounds", "Iteration", "MoveOrder",
    "TranspositionTable", "iterative_search",
]

MAX, MIN, CHANCE = "max", "min", "chance"
_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = float("inf")
# nodes between two looks at the clock: a node costs 4 to 150 us (a `wary` evaluation at the
# top end), a look at the clock 0.1 us; at 512 a search overran a 40 ms budget by up to 70 ms
_CHECK_EVERY = 64
SINGULAR_CAP = 2  # singular extensions on one path, at most

Bounds = Callable[[Any, int], tuple[float, float]]
"""`bounds(state, plies)`: lower and upper bounds on the value of every leaf a search of `plies`
whole plies from `state` can reach (Star1 prunes with them)."""

MoveOrder = Callable[[Any, int, Sequence[Any]], Sequence[Any]]
"""`order(state, agent, actions)`: the actions in the order to search them (most promising
first for MAX and MIN, most extreme first at chance nodes)."""

Live = Callable[[Any], bool]
"""`live(state)`: whether a leaf (agent 0 to move) must not be evaluated where it stands."""


class _OutOfBudget(Exception):
    """The iteration ran out of time or nodes: its partial result is dropped."""


class TranspositionTable:
    """Search results by (state, agent to move): `(depth, bound type, value, best action,
    the actions in heuristic order)` (the order is None where no heuristic ran).

    Kept across iterations and moves. When it holds more than `max_entries` it is emptied
    (between searches, so a search is never left half-cached).
    """

    def __init__(self, max_entries: int = 400_000) -> None:
        self.max_entries = max_entries
        self.entries: dict[tuple[Any, int], tuple[int, int, float, Any, Any]] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def trim(self) -> None:
        """Empty the table if it outgrew its size."""
        if len(self.entries) > self.max_entries:
            self.entries.clear()


@dataclass(frozen=True)
class Iteration:
    """One completed iteration: its depth, root value and action, nodes and seconds."""

    depth: int
    value: float
    action: Any
    nodes: int
    seconds: float = field(compare=False)  # a measurement: not part of the result


@dataclass(frozen=True)
class AnytimeDecision:
    """The best move of the deepest completed iteration, and how the search went.

    `stopped` says why deepening ended: "depth" (reached `max_depth`), "time" or "nodes"
    (budget spent: the unfinished iteration is not used), "proven" (the deepest iteration
    reached no depth-limited leaf, so deeper ones would repeat it), "single" (one legal move).
    """

    action: Any
    value: float
    depth: int
    nodes_generated: int
    best_actions: tuple[Any, ...]
    iterations: tuple[Iteration, ...]
    stopped: str


class _Budget:
    """Nodes and a deadline; `check` raises `_OutOfBudget` once either is spent."""

    __slots__ = ("clock", "deadline", "node_limit", "spent")

    def __init__(self, node_limit: int | None, deadline: float | None,
                 clock: Callable[[], float]) -> None:
        self.node_limit, self.deadline, self.clock = node_limit, deadline, clock
        self.spent = ""

    def next_check(self, generated: int) -> int:
        """The node count at which to look again."""
        step = generated + _CHECK_EVERY
        if self.node_limit is not None:
            return min(step, self.node_limit + 1)
        return step if self.deadline is not None else 1 << 62

    def check(self, generated: int) -> None:
        """Raise if the budget is spent."""
        if self.node_limit is not None and generated > self.node_limit:
            self.spent = "nodes"
            raise _OutOfBudget
        if self.deadline is not None and self.clock() >= self.deadline:
            self.spent = "time"
            raise _OutOfBudget


def _kind_codes(kinds: Sequence[str], num_agents: int) -> tuple[str, ...]:
    if len(kinds) != num_agents:
        raise ValueError(f"kinds gives {len(kinds)} layer kinds for {num_agents} agents")
    if kinds[0] != MAX:
        raise ValueError(f"agent 0 must be a max layer, got {kinds[0]!r}")
    for kind in kinds:
        if kind not in (MAX, MIN, CHANCE):
            raise ValueError(f"unknown layer kind {kind!r} (max, min or chance)")
    return tuple(kinds)


@with_room
def iterative_search(state: Any, evaluate: Callable[[Any], float], *,
                     kinds: Sequence[str] | None = None, max_depth: int = 64,
                     time_limit: float | None = None, node_limit: int | None = None,
                     table: TranspositionTable | None = None, ordering: bool = True,
                     order: MoveOrder | None = None, bounds: Bounds | None = None,
                     prune: bool = True, chance: ChanceModel | None = None,
                     cutoff: float = 0.0, actions: ActionGenerator | None = None,
                     quiescence: int = 0, live: Live | None = None,
                     quiet_moves: MoveOrder | None = None, forward: int = 0,
                     singular: float = 0.0,
                     clock: Callable[[], float] = _time.perf_counter) -> AnytimeDecision:
    """Deepen from 1 to `max_depth` plies until the time or node budget is spent.

    `kinds` gives each agent's layer (default: MAX then MIN: alpha-beta). Depth 1 is always
    completed, whatever the budget; any later iteration that runs out is dropped. Without a
    `table`, none is used; `ordering=False` searches in legal order; `prune=False` or
    `bounds=None` turns Star1 off. The budget is looked at before a node's children are
    generated, so a node budget may be passed by the children of one node. `quiescence`
    (whole plies past a live leaf, 0 = off) needs `live`; `quiet_moves` (default: every move)
    restricts the moves searched there. `forward=k` (0 = off) keeps the `k` best moves of
    each MAX and MIN node with more than one ply left, by their children's evaluations.
    `singular=margin` (0 = off) extends a MAX node's singular move by one ply.
    """
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 1:
        raise ValueError(f"max_depth must be a positive integer (plies), got {max_depth!r}")
    if isinstance(quiescence, bool) or not isinstance(quiescence, int) or quiescence < 0:
        raise ValueError(f"quiescence must be a whole number of plies >= 0, got {quiescence!r}")
    if quiescence and live is None:
        raise ValueError("quiescence needs live(state): which leaves are not quiet")
    if isinstance(forward, bool) or not isinstance(forward, int) or forward < 0:
        raise ValueError(f"forward must be a whole number of moves >= 0, got {forward!r}")
    if isinstance(singular, bool) or not isinstance(singular, (int, float)) or not (
            0 <= singular < _INF):
        raise ValueError(f"singular must be a margin >= 0, got {singular!r}")
    legal: ActionGenerator = actions or legal_actions
    codes = _kind_codes(kinds or [MAX] + [MIN] * (state.num_agents - 1), state.num_agents)
    if state.is_win() or state.is_lose():
        raise ValueError("cannot search from a terminal state: the game is already won or lost")
    root_actions = legal(state, 0)
    if not root_actions:
        raise ValueError("cannot search from a state where agent 0 has no legal action")
    started = clock()
    deadline = None if time_limit is None else started + time_limit
    search = _Iteration(state, evaluate, codes, legal, table, ordering, order,
                        bounds if prune else None, chance, cutoff)
    if quiescence:
        assert live is not None
        search.quiescence, search.live, search.quiet_moves = quiescence, live, quiet_moves
    search.forward, search.singular = forward, float(singular)
    if len(root_actions) == 1:
        return AnytimeDecision(root_actions[0], float("nan"), 0, 1, tuple(root_actions), (),
                               "single")
    iterations: list[Iteration] = []
    best: tuple[Any, float, tuple[Any, ...]] | None = None
    stopped = "depth"
    total = 0
    for depth in range(1, max_depth + 1):
        budget = _Budget(None if node_limit is None or depth == 1 else node_limit - total,
                         None if depth == 1 else deadline, clock)
        begun = clock()
        try:
            action, value, best_actions = search.run(depth, budget, best[0] if best else None)
        except _OutOfBudget:
            total += search.generated
            stopped = budget.spent
            break
        total += search.generated
        best = action, value, best_actions
        iterations.append(Iteration(depth, value, action, search.generated, clock() - begun))
        if not search.horizon:
            stopped = "proven"
            break
    assert best is not None  # depth 1 has no budget
    return AnytimeDecision(best[0], best[1], iterations[-1].depth, total, best[2],
                           tuple(iterations), stopped)


class _Iteration:
    """One depth-limited search with the enhancements; `run` may be called for every depth.

    The search's settings are fixed at construction (`quiescence`, `live`, `quiet_moves`,
    `forward` and `singular` are set after it); `run` resets the per-iteration counters:
    `generated` (the root plus every `successor()` call), `checkpoint` (the count at which the
    budget is looked at next), `horizon` (whether a depth-limited leaf was reached) and
    `extended` (the singular extensions on the path to the node being searched). The steps of
    a node: `node` (budget, table, forced move, `search_order`, then its MAX or MIN loop, or
    `chance_node`); below the depth limit `leaf` and `quiet` (quiescence).
    """

    def __init__(self, state: Any, evaluate: Callable[[Any], float], kinds: tuple[str, ...],
                 legal: ActionGenerator, table: TranspositionTable | None, ordering: bool,
                 order: MoveOrder | None, bounds: Bounds | None,
                 chance: ChanceModel | None, cutoff: float) -> None:
        self.state, self.evaluate, self.kinds, self.legal = state, evaluate, kinds, legal
        self.table, self.ordering, self.order = table, ordering, order
        self.bounds, self.chance, self.cutoff = bounds, chance, cutoff
        self.quiescence = self.forward = 0
        self.singular = 0.0
        self.live: Live | None = None
        self.quiet_moves: MoveOrder | None = None
        self.generated = 0
        self.horizon = False
        # derived once: the state's own legal moves are called directly (they are hot)
        self.own_legal = legal is legal_actions
        self.use_table = table is not None
        self.entries = table.entries if table is not None else {}
        self.last = len(kinds) - 1
        self.budget: _Budget | None = None
        self.checkpoint = 0
        self.extended = 0

    def run(self, depth: int, budget: _Budget,
            first: Any) -> tuple[Any, float, tuple[Any, ...]]:
        """Search to `depth` plies; root actions start with `first`. Returns the action, value
        and every root action reaching the value (in search order)."""
        state, evaluate = self.state, self.evaluate
        self.budget = budget
        self.generated = 1
        self.checkpoint = budget.next_check(1)
        self.horizon = False
        self.extended = 0
        single = len(self.kinds) == 1
        alpha = -_INF
        best_value = -_INF
        best_actions: list[Any] = []
        for action in self.root_order(first):
            c = state.successor(0, action)
            self.generated += 1
            if c.is_win() or c.is_lose():
                value = evaluate(c)
            elif single and depth == 1:
                value = self.leaf(c, alpha, _INF)
            elif single:
                value = self.node(c, 0, depth - 1, alpha, _INF, 1.0)
            else:
                value = self.node(c, 1, depth, alpha, _INF, 1.0)
            if value > best_value:
                best_value, best_actions = value, [action]
            elif value == best_value:
                best_actions.append(action)
            if value > alpha:
                alpha = value
        if not best_actions:
            raise ValueError("the evaluation returned NaN for every root action")
        if self.use_table:
            self.entries[(state, 0)] = (depth, _EXACT, best_value, best_actions[0], None)
        return best_actions[0], best_value, tuple(best_actions)

    def root_order(self, first: Any) -> Sequence[Any]:
        """The root's actions: legal order, or with ordering the heuristic's, `first` (the
        last iteration's choice) in front."""
        root = self.legal(self.state, 0)
        if self.ordering:
            if self.order is not None:
                root = self.order(self.state, 0, root)
            if first is not None and root[0] != first:
                root = [first, *(a for a in root if a != first)]
        return root

    def look_at_budget(self) -> None:
        """Raise `_OutOfBudget` if the budget is spent, else set the next checkpoint."""
        assert self.budget is not None
        self.budget.check(self.generated)
        self.checkpoint = self.budget.next_check(self.generated)

    def by_evaluation(self, s: Any, agent: int, acts: Sequence[Any],
                      maximising: bool) -> list[tuple[float, Any]]:
        """A search of depth 0: each child generated and evaluated; best first (ties in the
        order given)."""
        evaluate = self.evaluate
        scored = []
        for a in acts:
            self.generated += 1
            scored.append((evaluate(s.successor(agent, a)), a))
        scored.sort(key=lambda item: -item[0] if maximising else item[0])
        return scored

    def singular_move(self, s: Any, agent: int, acts: Sequence[Any]) -> Any:
        """The move whose child evaluates better than every other's by `singular`, or None."""
        if len(acts) < 2:
            return None
        scored = self.by_evaluation(s, agent, acts, True)
        return scored[0][1] if scored[0][0] - scored[1][0] >= self.singular else None

    def keep_best(self, s: Any, agent: int, acts: Sequence[Any], maximising: bool) -> list[Any]:
        """Forward pruning: the `forward` moves whose children evaluate best, best first."""
        return [a for _, a in self.by_evaluation(s, agent, acts, maximising)[:self.forward]]

    def leaf(self, c: Any, alpha: float, beta: float) -> float:
        """A child at the depth limit; with quiescence, searched on while it is live (inside
        the parent's window: a value past it is a bound, as a node's is)."""
        self.horizon = True
        if self.quiescence and self.live is not None and self.live(c):
            return self.quiet(c, 0, self.quiescence, alpha, beta)
        return self.evaluate(c)

    def quiet(self, s: Any, agent: int, q: int, alpha: float, beta: float) -> float:
        """Quiescence: `s` is live or inside a live ply; `q` whole plies left of it."""
        if self.generated >= self.checkpoint:
            self.look_at_budget()
        evaluate, live, quiet_moves = self.evaluate, self.live, self.quiet_moves
        everything = s.legal_actions(agent) if self.own_legal else self.legal(s, agent)
        if not everything:
            return evaluate(s)
        acts = everything if quiet_moves is None else (
            quiet_moves(s, agent, everything) or everything)
        nxt, nq = (0, q - 1) if agent == self.last else (agent + 1, q)
        kind = self.kinds[agent]
        values = []
        v = -_INF if kind == MAX else _INF
        for a in acts:
            c = s.successor(agent, a)
            self.generated += 1
            if c.is_win() or c.is_lose():
                cv = evaluate(c)
            elif nxt == 0 and (nq == 0 or live is None or not live(c)):
                cv = evaluate(c)  # the ply is over: quiet again, or no plies left
            elif kind == CHANCE:  # an expectation: no window passes through it
                cv = self.quiet(c, nxt, nq, -_INF, _INF)
            else:
                cv = self.quiet(c, nxt, nq, alpha, beta)
            if kind == MAX:
                v = max(v, cv)
                if v > beta:
                    return v
                alpha = max(alpha, v)
            elif kind == MIN:
                v = min(v, cv)
                if v < alpha:
                    return v
                beta = min(beta, v)
            else:
                values.append(cv)
        if kind != CHANCE:
            return v
        return self.quiet_expectation(s, agent, everything, acts, values)

    def quiet_expectation(self, s: Any, agent: int, everything: Sequence[Any],
                          acts: Sequence[Any], values: list[float]) -> float:
        """A quiescence chance layer's value: the model's probabilities of the kept moves
        `acts`, renormalised (uniform without a model, or when they sum to 0 or less)."""
        if self.chance is None:
            return sum(values) / len(values)
        by_action = dict(zip(everything, self.chance(s, agent, everything), strict=True))
        weights = [float(by_action[a]) for a in acts]
        total = sum(weights)
        if total <= 0:
            return sum(values) / len(values)
        return sum(w * cv for w, cv in zip(weights, values, strict=True)) / total

    def node(self, s: Any, agent: int, d: int, alpha: float, beta: float, prob: float) -> float:
        """`s` is not a leaf: `agent` to move with d >= 1 plies left (this one included).
        One frame a ply, as the original single closure (deep searches reach the recursion
        limit no sooner): the forced-move, MAX and MIN loops are here, each with the child
        step inline (a deliberate copy); the chance loop is `chance_node`'s, as it was."""
        if self.generated >= self.checkpoint:
            self.look_at_budget()
        acts = s.legal_actions(agent) if self.own_legal else self.legal(s, agent)
        if not acts:
            return self.evaluate(s)
        last = self.last
        nxt, nd = (0, d - 1) if agent == last else (agent + 1, d)
        move = ordered = None
        # the nodes just above the leaves are cheaper to search again than to store
        cached = self.use_table and (d > 1 or agent != last)
        if cached:
            key = (s, agent)
            entry = self.entries.get(key)
            if entry is not None:
                depth_, flag, stored, move, ordered = entry
                if depth_ == d and (flag == _EXACT or (flag == _LOWER and stored > beta)
                                    or (flag == _UPPER and stored < alpha)):
                    self.horizon = True  # not known: the stored search may have reached it
                    return stored
        kind = self.kinds[agent]
        if len(acts) == 1 and kind != CHANCE:
            # a forced move (a ghost in a corridor): the node is worth its one child
            best = acts[0]
            c = s.successor(agent, best)
            self.generated += 1
            if c.is_win() or c.is_lose():
                v = self.evaluate(c)
            elif nd == 0:
                v = self.leaf(c, alpha, beta)
            else:
                v = self.node(c, nxt, nd, alpha, beta, prob)
            if cached:
                self.entries[key] = (d, _LOWER if v > beta else _UPPER if v < alpha
                                     else _EXACT, v, best, None)
            return v
        acts, ordered = self.search_order(s, agent, d, acts, move, ordered)
        succ = s.successor
        best = None
        if kind == MAX:
            v = -_INF
            a0 = alpha
            lone = (self.singular_move(s, agent, acts)
                    if self.singular and self.extended < SINGULAR_CAP else None)
            for a in acts:
                c = succ(agent, a)
                self.generated += 1
                if c.is_win() or c.is_lose():
                    cv = self.evaluate(c)
                elif a is lone:  # the singular move: one ply more on this path
                    self.extended += 1
                    try:
                        cv = self.node(c, nxt, nd + 1, alpha, beta, prob)
                    finally:
                        self.extended -= 1
                elif nd == 0:
                    cv = self.leaf(c, alpha, beta)
                else:
                    cv = self.node(c, nxt, nd, alpha, beta, prob)
                if cv > v:
                    v, best = cv, a
                    if v > beta:
                        break
                    if v > alpha:
                        alpha = v
            flag = _LOWER if v > beta else _UPPER if v < a0 else _EXACT
        elif kind == MIN:
            v = _INF
            b0 = beta
            for a in acts:
                c = succ(agent, a)
                self.generated += 1
                if c.is_win() or c.is_lose():
                    cv = self.evaluate(c)
                elif nd == 0:
                    cv = self.leaf(c, alpha, beta)
                else:
                    cv = self.node(c, nxt, nd, alpha, beta, prob)
                if cv < v:
                    v, best = cv, a
                    if v < alpha:
                        break
                    if v < beta:
                        beta = v
            flag = _UPPER if v < alpha else _LOWER if v > b0 else _EXACT
        else:
            v, flag = self.chance_node(s, agent, acts, nxt, nd, d, alpha, beta, prob)
        if cached:
            self.entries[key] = (d, flag, v, best, ordered)
        return v

    def search_order(self, s: Any, agent: int, d: int, acts: Sequence[Any], move: Any,
                     ordered: Any) -> tuple[Sequence[Any], Any]:
        """The moves to search at a MAX, MIN or chance node, and the heuristic order to keep
        in its table entry: with ordering, the heuristic's order (`ordered`, the table's, or
        computed now) with the table's best `move` in front; then, with forward pruning and
        more than one ply left, only the `forward` best (as `keep_best` ranks them)."""
        if self.ordering:
            # the heuristic order is kept in the table: later iterations reuse it
            if ordered is None:
                ordered = self.order(s, agent, acts) if self.order is not None else acts
            acts = ordered
            if move is not None and acts[0] != move:
                acts = [move, *(a for a in acts if a != move)]
        if self.forward and d > 1 and len(acts) > self.forward:
            acts = self.keep_best(s, agent, acts, self.kinds[agent] == MAX)
        return acts, ordered

    def chance_node(self, s: Any, agent: int, acts: Sequence[Any], nxt: int, nd: int, d: int,
                    alpha: float, beta: float, prob: float) -> tuple[float, int]:
        """A chance node's expectation and bound type, with Star1's pruning when there are
        bounds and the probability cut-off when there is one."""
        cutoff = self.cutoff
        probs = self.probabilities(s, agent, acts)
        lo, hi = self.bounds(s, d) if self.bounds is not None else (-_INF, _INF)
        prune = lo > -_INF or hi < _INF
        n = len(acts)
        rest = [0.0] * n  # rest[i]: probability of the outcomes after the i-th
        for i in range(n - 2, -1, -1):
            rest[i] = rest[i + 1] + probs[i + 1]
        succ = s.successor
        total = 0.0
        for i, a in enumerate(acts):
            p = probs[i]
            c = succ(agent, a)
            self.generated += 1
            if c.is_win() or c.is_lose():
                cv = self.evaluate(c)
            elif nd == 0:
                cv = self.leaf(c, -_INF, _INF)
            elif cutoff and prob * p < cutoff:
                cv = self.evaluate(c)
            elif not prune or p <= 0.0:
                cv = self.node(c, nxt, nd, -_INF, _INF, prob * p)
            else:
                # the child's window: outside it, this node's value leaves its own window
                # (widened by a rounding margin, so a child's bound always cuts here)
                r = rest[i]
                ca, cb = -_INF, _INF
                if alpha > -_INF and (not r or hi < _INF):
                    rh = r * hi if r else 0.0
                    ca = (alpha - total - rh) / p
                    ca -= 1e-9 * (1.0 + abs(alpha) + abs(total) + abs(rh)) / p
                if beta < _INF and (not r or lo > -_INF):
                    rl = r * lo if r else 0.0
                    cb = (beta - total - rl) / p
                    cb += 1e-9 * (1.0 + abs(beta) + abs(total) + abs(rl)) / p
                cv = self.node(c, nxt, nd, ca, cb, prob * p)
            total += p * cv
            if prune:
                r = rest[i]
                upper = total + r * hi if r else total
                if upper < alpha:
                    return upper, _UPPER
                lower = total + r * lo if r else total
                if lower > beta:
                    return lower, _LOWER
        return total, _EXACT

    def probabilities(self, s: Any, agent: int, acts: Sequence[Any]) -> list[float]:
        """The chance model's probability of each of `acts` (uniform without one); the model
        is asked in legal order, as the plain search asks it."""
        n = len(acts)
        if self.chance is None:
            return [1.0 / n] * n
        in_order = self.legal(s, agent)
        by_action = dict(zip(in_order, self.chance(s, agent, in_order), strict=True))
        return [by_action[a] for a in acts]

