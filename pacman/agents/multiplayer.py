"""Generalized adversarial search: max^n (a utility per agent) and expectiminimax (a kind per
agent: max, min or chance), as pure functions over the `SearchState` protocol.

Both keep the tree semantics of `pacman.agents.search` (docs/test-cases.md): agents move in turn
0, 1, ..., n-1; `depth` counts whole plies; a node is a leaf when it is won or lost, when its
agent has no legal action, or when agent 0 is to move after `depth` plies; only leaves are
valued; children are generated once each, in legal-action order; `nodes_generated` counts the
root plus every `successor()` call. Neither prunes: every child of every inner node is
generated, so the counts equal those of `pacman.agents.search.minimax` and `expectimax`. The
two walk the tree with the same steps, spelt out in each (a tuple of values in one, one value
in the other): a deliberate speed copy, as in `pacman.agents.search`.

- `maxn` values a leaf with `utilities(state)`, a tuple with one number per agent. At a node
  of agent i the child whose tuple has the largest i-th component is chosen (ties: the first
  in legal-action order), so the node's value is that child's whole tuple. With utilities
  `(v, -v, ..., -v)` it is minimax; with every agent sharing one utility it is a team search.
- `expectiminimax` values a leaf with `evaluate(state)` (one number, for agent 0). `kinds[i]`
  says what agent i's layer does: `"max"` takes the largest child value, `"min"` the smallest,
  `"chance"` the expectation under `chance` (uniform by default). Agent 0 is `"max"`. A chance
  agent can be any agent of the game, a random ghost or the dice of a board game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pacman.agents.search_core import (
    ActionGenerator,
    ChanceModel,
    Decision,
    RootChoice,
    SearchState,
    check_root,
    legal_actions,
)
from pacman.stack import with_room

__all__ = ["KINDS", "MaxnDecision", "Utilities", "check_kinds", "expectiminimax", "maxn"]

S = TypeVar("S", bound=SearchState)

Utilities = Callable[[Any], Sequence[float]]
"""`utilities(state)`: one number per agent, in agent order; agent i maximises the i-th."""

MAX, MIN, CHANCE = "max", "min", "chance"
KINDS = (MAX, MIN, CHANCE)
"""The layer kinds of `expectiminimax`."""

_INF = float("inf")


@dataclass(frozen=True)
class MaxnDecision:
    """The result of a max^n search.

    `value` is the utility tuple the root's first best action leads to; `best_actions` are all
    root actions whose tuple has the largest component 0, in legal order, and `action` is the
    first of them. `nodes_generated` counts the root plus every `successor()` call.
    """

    action: Any
    value: tuple[float, ...]
    nodes_generated: int
    best_actions: tuple[Any, ...]


@with_room
def maxn(state: S, depth: int, utilities: Callable[[S], Sequence[float]], *,
         actions: ActionGenerator | None = None) -> MaxnDecision:
    """Max^n to `depth` plies: every agent maximises its own component of `utilities`."""
    legal = legal_actions if actions is None else actions
    root_actions = check_root(state, depth, legal)
    n = state.num_agents
    generated = 1

    def leaf(s: Any) -> tuple[float, ...]:
        value = tuple(utilities(s))
        if len(value) != n:
            raise ValueError(f"utilities must give one value per agent ({n}), "
                             f"got {len(value)}: {value!r}")
        return value

    def value_of(s: Any, agent: int, d: int) -> tuple[float, ...]:
        # `s` is not a leaf: `agent` to move in a ply with d >= 1 plies left (d counts the
        # current ply); agent 0 starts a new ply.
        nonlocal generated
        acts = legal(s, agent)
        if not acts:
            return leaf(s)
        generated += len(acts)
        nxt, nd = agent + 1, d
        if nxt == n:
            nxt, nd = 0, d - 1
        best: tuple[float, ...] | None = None
        for a in acts:
            c = s.successor(agent, a)
            if c.is_win() or c.is_lose() or (nxt == 0 and nd == 0):
                cv = leaf(c)
            else:
                cv = value_of(c, nxt, nd)
            if best is None or cv[agent] > best[agent]:
                best = cv
        assert best is not None  # acts is not empty
        return best

    nxt0, d0 = (1, depth) if n > 1 else (0, depth - 1)
    root_values: list[tuple[Any, tuple[float, ...]]] = []
    for action in root_actions:
        c: Any = state.successor(0, action)
        generated += 1
        if c.is_win() or c.is_lose() or (nxt0 == 0 and d0 == 0):
            value = leaf(c)
        else:
            value = value_of(c, nxt0, d0)
        root_values.append((action, value))
    top = -_INF
    for _, v in root_values:
        if v[0] > top:
            top = v[0]
    best_actions = tuple(a for a, v in root_values if v[0] == top)
    if not best_actions:
        raise ValueError("the utilities gave NaN to agent 0 for every root action")
    chosen = next(v for a, v in root_values if v[0] == top)
    return MaxnDecision(best_actions[0], chosen, generated, best_actions)


def check_kinds(kinds: Sequence[str], num_agents: int) -> tuple[str, ...]:
    """`kinds` as a tuple, checked: one of `KINDS` per agent, and agent 0 is "max"."""
    if isinstance(kinds, str):
        raise ValueError(f"kinds must be a sequence of layer kinds, one per agent, not the "
                         f"string {kinds!r}")
    layers = tuple(kinds)
    if len(layers) != num_agents:
        raise ValueError(f"kinds must give one layer kind per agent ({num_agents}), "
                         f"got {len(layers)}: {', '.join(map(str, layers)) or 'none'}")
    for agent, kind in enumerate(layers):
        if kind not in KINDS:
            raise ValueError(f"unknown layer kind {kind!r} for agent {agent} "
                             f"(choose {', '.join(KINDS)})")
    if layers[0] != MAX:
        raise ValueError(f"agent 0 is the maximiser: its kind must be 'max', got {layers[0]!r}")
    return layers


@with_room
def expectiminimax(state: S, depth: int, evaluate: Callable[[S], float], *,
                   kinds: Sequence[str], chance: ChanceModel | None = None,
                   actions: ActionGenerator | None = None) -> Decision:
    """Expectiminimax to `depth` plies: agent i's layer is `kinds[i]` (max, min or chance)."""
    legal = legal_actions if actions is None else actions
    n = state.num_agents
    layers = check_kinds(kinds, n)
    root_actions = check_root(state, depth, legal)
    generated = 1

    def value_of(s: Any, agent: int, d: int) -> float:
        # `s` is not a leaf: `agent` to move in a ply with d >= 1 plies left.
        nonlocal generated
        acts = legal(s, agent)
        if not acts:
            return evaluate(s)
        generated += len(acts)
        nxt, nd = agent + 1, d
        if nxt == n:
            nxt, nd = 0, d - 1
        values: list[float] = []
        for a in acts:
            c = s.successor(agent, a)
            if c.is_win() or c.is_lose() or (nxt == 0 and nd == 0):
                values.append(evaluate(c))
            else:
                values.append(value_of(c, nxt, nd))
        return _combine(layers[agent], s, agent, acts, values)

    def _combine(kind: str, s: Any, agent: int, acts: Sequence[Any],
                 values: list[float]) -> float:
        # The same comparisons and sums as pacman.agents.search, so the numbers agree exactly.
        if kind == MAX:
            v = -_INF
            for cv in values:
                if cv > v:
                    v = cv
            return v
        if kind == MIN:
            v = _INF
            for cv in values:
                if cv < v:
                    v = cv
            return v
        if chance is None:
            return sum(values) / len(values)
        return sum(p * v for p, v in zip(chance(s, agent, acts), values, strict=True))

    nxt0, d0 = (1, depth) if n > 1 else (0, depth - 1)
    choice = RootChoice()
    for action in root_actions:
        c: Any = state.successor(0, action)
        generated += 1
        if c.is_win() or c.is_lose() or (nxt0 == 0 and d0 == 0):
            value = evaluate(c)
        else:
            value = value_of(c, nxt0, d0)
        choice.offer(action, value)
    return choice.decision(generated)
