"""Adversarial search (minimax, alpha-beta, expectimax) as pure functions over `SearchState`.

The tree is layered by agent: agent 0 is MAX, agents 1..n-1 each form one MIN (or chance)
layer, and `depth` counts whole plies (agent 0's move plus one move of every other agent).
The semantics are those of the autograder test cases (docs/test-cases.md):

- a node is a *leaf* when it is won or lost (at any depth), when agent 0 is to move after
  `depth` plies, or when its agent has no legal action (a dead end that is neither won nor
  lost is evaluated like a leaf rather than being an error);
- only leaves are evaluated, and a leaf never has a successor generated;
- children are generated once each, in legal-action order;
- alpha-beta prunes on strict inequality only (`v > beta` at MAX, `v < alpha` at MIN);
- root ties go to the first best action in legal-action order.

The functions are written for speed (the Pacman `successor` is the only other cost): nested
closures with everything bound once, and a node counter local to each call. So the three
repeat the same walk on purpose, a deliberate speed copy: one shared walk with a hook per node
kind would cost a call per node.
"""

from __future__ import annotations

from collections.abc import Callable
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
from pacman.agents.trace import traced_search
from pacman.stack import with_room

__all__ = [
    "ActionGenerator",
    "ChanceModel",
    "Decision",
    "SearchState",
    "alphabeta",
    "expectimax",
    "minimax",
]

_INF = float("inf")

S = TypeVar("S", bound=SearchState)


def _traced(method: str, state: Any, depth: int, evaluate: Callable[[Any], float],
            actions: ActionGenerator | None, chance: ChanceModel | None = None) -> Decision:
    return traced_search(method, state, depth, evaluate, actions=actions, chance=chance)


@with_room
def minimax(state: S, depth: int, evaluate: Callable[[S], float], *,
            actions: ActionGenerator | None = None, trace: bool = False) -> Decision:
    """Full minimax to `depth` plies: agent 0 maximises, every other agent minimises.
    `trace=True` records the explored tree in the decision's `trace` (`pacman.agents.trace`)."""
    if trace:
        return _traced("minimax", state, depth, evaluate, actions)
    legal = legal_actions if actions is None else actions
    root_actions = check_root(state, depth, legal)
    last = state.num_agents - 1
    generated = 1

    def max_value(s: Any, d: int) -> float:
        # `s` is not a leaf: agent 0 to move with d >= 1 plies left.
        nonlocal generated
        acts = legal(s, 0)
        if not acts:
            return evaluate(s)
        generated += len(acts)
        succ = s.successor
        v = -_INF
        for a in acts:
            c = succ(0, a)
            if c.is_win() or c.is_lose():
                cv = evaluate(c)
            elif last:
                cv = min_value(c, 1, d)
            elif d == 1:
                cv = evaluate(c)
            else:
                cv = max_value(c, d - 1)
            if cv > v:
                v = cv
        return v

    def min_value(s: Any, agent: int, d: int) -> float:
        # `s` is not a leaf: MIN agent `agent` to move in a ply with d >= 1 plies left.
        nonlocal generated
        acts = legal(s, agent)
        if not acts:
            return evaluate(s)
        generated += len(acts)
        succ = s.successor
        v = _INF
        if agent < last:
            nxt = agent + 1
            for a in acts:
                c = succ(agent, a)
                cv = evaluate(c) if c.is_win() or c.is_lose() else min_value(c, nxt, d)
                if cv < v:
                    v = cv
        elif d == 1:  # every child is at the depth limit, terminal or not
            for a in acts:
                cv = evaluate(succ(agent, a))
                if cv < v:
                    v = cv
        else:
            d -= 1
            for a in acts:
                c = succ(agent, a)
                cv = evaluate(c) if c.is_win() or c.is_lose() else max_value(c, d)
                if cv < v:
                    v = cv
        return v

    choice = RootChoice()
    for action in root_actions:
        c: Any = state.successor(0, action)
        generated += 1
        if c.is_win() or c.is_lose() or (not last and depth == 1):
            value = evaluate(c)
        elif last:
            value = min_value(c, 1, depth)
        else:
            value = max_value(c, depth - 1)
        choice.offer(action, value)
    return choice.decision(generated)


@with_room
def alphabeta(state: S, depth: int, evaluate: Callable[[S], float], *,
              actions: ActionGenerator | None = None, trace: bool = False) -> Decision:
    """Minimax with alpha-beta pruning (strict inequalities); same value and best actions.
    `trace=True` records the explored tree in the decision's `trace` (`pacman.agents.trace`)."""
    if trace:
        return _traced("alphabeta", state, depth, evaluate, actions)
    legal = legal_actions if actions is None else actions
    root_actions = check_root(state, depth, legal)
    last = state.num_agents - 1
    generated = 1

    def max_value(s: Any, d: int, alpha: float, beta: float) -> float:
        # `s` is not a leaf: agent 0 to move with d >= 1 plies left.
        nonlocal generated
        acts = legal(s, 0)
        if not acts:
            return evaluate(s)
        succ = s.successor
        v = -_INF
        for a in acts:
            c = succ(0, a)
            generated += 1
            if c.is_win() or c.is_lose():
                cv = evaluate(c)
            elif last:
                cv = min_value(c, 1, d, alpha, beta)
            elif d == 1:
                cv = evaluate(c)
            else:
                cv = max_value(c, d - 1, alpha, beta)
            if cv > v:
                v = cv
                if v > beta:
                    return v
                if v > alpha:
                    alpha = v
        return v

    def min_value(s: Any, agent: int, d: int, alpha: float, beta: float) -> float:
        # `s` is not a leaf: MIN agent `agent` to move in a ply with d >= 1 plies left.
        nonlocal generated
        acts = legal(s, agent)
        if not acts:
            return evaluate(s)
        succ = s.successor
        v = _INF
        if agent < last:
            nxt = agent + 1
            for a in acts:
                c = succ(agent, a)
                generated += 1
                terminal = c.is_win() or c.is_lose()
                cv = evaluate(c) if terminal else min_value(c, nxt, d, alpha, beta)
                if cv < v:
                    v = cv
                    if v < alpha:
                        return v
                    if v < beta:
                        beta = v
        elif d == 1:  # every child is at the depth limit, terminal or not
            for a in acts:
                generated += 1
                cv = evaluate(succ(agent, a))
                if cv < v:
                    v = cv
                    if v < alpha:
                        return v
        else:
            d -= 1
            for a in acts:
                c = succ(agent, a)
                generated += 1
                terminal = c.is_win() or c.is_lose()
                cv = evaluate(c) if terminal else max_value(c, d, alpha, beta)
                if cv < v:
                    v = cv
                    if v < alpha:
                        return v
                    if v < beta:
                        beta = v
        return v

    choice = RootChoice()
    alpha = -_INF
    for action in root_actions:
        c: Any = state.successor(0, action)
        generated += 1
        if c.is_win() or c.is_lose() or (not last and depth == 1):
            value = evaluate(c)
        elif last:
            value = min_value(c, 1, depth, alpha, _INF)
        else:
            value = max_value(c, depth - 1, alpha, _INF)
        # A value below alpha may be a bound, but it is below the best so it is never chosen;
        # a value >= alpha is exact because pruning is strict.
        choice.offer(action, value)
        if value > alpha:
            alpha = value
    return choice.decision(generated)


@with_room
def expectimax(state: S, depth: int, evaluate: Callable[[S], float], *,
               actions: ActionGenerator | None = None,
               chance: ChanceModel | None = None, trace: bool = False) -> Decision:
    """Expectimax: agent 0 maximises, every other agent is a chance node (uniform by default).
    `trace=True` records the explored tree in the decision's `trace` (`pacman.agents.trace`)."""
    if trace:
        return _traced("expectimax", state, depth, evaluate, actions, chance)
    legal = legal_actions if actions is None else actions
    root_actions = check_root(state, depth, legal)
    last = state.num_agents - 1
    generated = 1

    def max_value(s: Any, d: int) -> float:
        # `s` is not a leaf: agent 0 to move with d >= 1 plies left.
        nonlocal generated
        acts = legal(s, 0)
        if not acts:
            return evaluate(s)
        generated += len(acts)
        succ = s.successor
        v = -_INF
        for a in acts:
            c = succ(0, a)
            if c.is_win() or c.is_lose():
                cv = evaluate(c)
            elif last:
                cv = chance_value(c, 1, d)
            elif d == 1:
                cv = evaluate(c)
            else:
                cv = max_value(c, d - 1)
            if cv > v:
                v = cv
        return v

    def chance_value(s: Any, agent: int, d: int) -> float:
        # `s` is not a leaf: chance agent `agent` to move in a ply with d >= 1 plies left.
        nonlocal generated
        acts = legal(s, agent)
        if not acts:
            return evaluate(s)
        generated += len(acts)
        succ = s.successor
        values: list[float] = []
        append = values.append
        if agent < last:
            nxt = agent + 1
            for a in acts:
                c = succ(agent, a)
                append(evaluate(c) if c.is_win() or c.is_lose() else chance_value(c, nxt, d))
        elif d == 1:  # every child is at the depth limit, terminal or not
            for a in acts:
                append(evaluate(succ(agent, a)))
        else:
            d -= 1
            for a in acts:
                c = succ(agent, a)
                append(evaluate(c) if c.is_win() or c.is_lose() else max_value(c, d))
        if chance is None:
            return sum(values) / len(values)
        return sum(p * v for p, v in zip(chance(s, agent, acts), values, strict=True))

    choice = RootChoice()
    for action in root_actions:
        c: Any = state.successor(0, action)
        generated += 1
        if c.is_win() or c.is_lose() or (not last and depth == 1):
            value = evaluate(c)
        elif last:
            value = chance_value(c, 1, depth)
        else:
            value = max_value(c, depth - 1)
        choice.offer(action, value)
    return choice.decision(generated)
