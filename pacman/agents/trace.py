"""Search traces: the tree a minimax, alpha-beta or expectimax search explored, as data.

`minimax`, `alphabeta` and `expectimax` (in `pacman.agents.search`) take `trace=True`; they then run
`traced_search` below instead of their fast code, and the `Decision` they return carries a
`SearchTrace`. The traced search makes exactly the same calls in the same order (successors,
evaluations, chance models), so its node count, its generated states and its decision are the
fast search's (a property test checks it). Off, tracing costs the fast search one test of a
flag per call.

A trace records, for each node in the order it was generated: its parent, the action that led
to it, its ply (moves from the root), the agent to move and the layer kind, the value it got
(evaluated at a leaf, backed up above), and, for alpha-beta, the window (alpha, beta) the node
was searched with and the cut, if one ended its loop early: after which child, by which bound,
and which actions were never generated. It also holds the principal variation and totals. Past
`max_nodes` recorded nodes the search goes on unchanged and the rest is only counted.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from pacman.agents.search_core import (
    CHANCE,
    LEAF,
    MAX,
    MIN,
    STUCK,
    TERMINAL,
    ActionGenerator,
    ChanceModel,
    Decision,
    RootChoice,
    SearchTrace,
    TraceNode,
    action_name,
    check_root,
    json_number,
    legal_actions,
)

__all__ = ["DEFAULT_TRACE_NODES", "METHODS", "SearchTrace", "TraceNode", "action_name",
           "format_tree", "summary_line", "traced_search"]

DEFAULT_TRACE_NODES = 20_000
METHODS = ("minimax", "alphabeta", "expectimax")
_INF = math.inf

class _Tracer:
    """Builds a `SearchTrace` while `traced_search` runs."""

    def __init__(self, trace: SearchTrace, label: Callable[[Any], str] | None) -> None:
        self.trace, self.label = trace, label

    def root(self, state: Any) -> TraceNode:
        """Record the root."""
        node = TraceNode(0, None, None, 0, 0, MAX,
                         None if self.label is None else self.label(state))
        self.trace.nodes.append(node)
        return node

    def add(self, parent: TraceNode | None, state: Any, action: Any, ply: int,
            agent: int) -> TraceNode | None:
        """Record a generated node; None (only counted) under an unrecorded parent or once
        `max_nodes` are recorded."""
        trace = self.trace
        if parent is None or len(trace.nodes) >= trace.max_nodes:
            trace.unrecorded += 1
            if parent is not None:
                parent.unrecorded_children += 1
            return None
        node = TraceNode(len(trace.nodes), parent.id, action_name(action), ply, agent, LEAF,
                         None if self.label is None else self.label(state))
        trace.nodes.append(node)
        parent.children.append(node.id)
        return node


_Line = tuple[tuple[int, str], ...]


def traced_search(method: str, state: Any, depth: int, evaluate: Callable[[Any], float], *,
                  actions: ActionGenerator | None = None, chance: ChanceModel | None = None,
                  max_nodes: int = DEFAULT_TRACE_NODES,
                  label: Callable[[Any], str] | None = None) -> Decision:
    """Run `method` (minimax, alphabeta or expectimax) with the semantics of `pacman.agents.search`,
    recording the tree; the decision's `trace` holds it. `label(state)` names nodes."""
    if method not in METHODS:
        raise ValueError(f"unknown search method {method!r} (one of {', '.join(METHODS)})")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive integer, got {max_nodes!r}")
    legal = legal_actions if actions is None else actions
    root_actions = check_root(state, depth, legal)
    trace = SearchTrace(method, depth, max_nodes)
    search = _TracedSearch(trace, _Tracer(trace, label), evaluate, legal, chance,
                           state.num_agents - 1)
    return search.root(state, root_actions, depth)


class _TracedSearch:
    """The recursion of `traced_search`: the fast searches' order of calls (successors,
    evaluations, chance models), each generated node recorded by the tracer. A search step
    returns a node's value and the principal line below it, `(agent, action name)` pairs."""

    def __init__(self, trace: SearchTrace, tracer: _Tracer, evaluate: Callable[[Any], float],
                 legal: ActionGenerator, chance: ChanceModel | None, last: int) -> None:
        self.trace, self.tracer, self.evaluate = trace, tracer, evaluate
        self.legal, self.chance, self.last = legal, chance, last
        self.pruning = trace.method == "alphabeta"
        self.kind_of = CHANCE if trace.method == "expectimax" else MIN

    def root(self, state: Any, root_actions: Sequence[Any], depth: int) -> Decision:
        """Search every root action in order (alpha-beta: with the best value so far as
        alpha), choose as the fast searches do (`RootChoice`) and complete the trace."""
        trace, pruning = self.trace, self.pruning
        root = self.tracer.root(state)
        if pruning:
            root.alpha, root.beta = -_INF, _INF
        choice = RootChoice()
        alpha = -_INF
        lines: dict[Any, _Line] = {}
        for action in root_actions:
            value, line = self.child(state, root, 0, action, 0, depth,
                                     alpha if pruning else -_INF, _INF)
            lines[action] = ((0, action_name(action)), *line)
            trace.root_values.append((action_name(action), value))
            choice.offer(action, value)
            if value > alpha:
                alpha = value
        decision = choice.decision(trace.nodes_generated)
        root.value = decision.value
        trace.action, trace.value = action_name(decision.action), decision.value
        trace.principal_variation = list(lines[decision.action])
        return Decision(decision.action, decision.value, decision.nodes_generated,
                        decision.best_actions, trace)

    def evaluated(self, s: Any, node: TraceNode | None, kind: str) -> tuple[float, _Line]:
        """The evaluation of `s`, counted, and recorded as `node`'s value of `kind`."""
        self.trace.evaluations += 1
        v = self.evaluate(s)
        if node is not None:
            node.kind, node.value = kind, v
        return v, ()

    def child(self, s: Any, parent: TraceNode | None, agent: int, a: Any, ply: int, d: int,
              alpha: float, beta: float) -> tuple[float, _Line]:
        """Generate the child of `s` by `a` and value it as the fast searches do."""
        c = s.successor(agent, a)
        self.trace.nodes_generated += 1
        last = self.last
        nxt = 0 if agent == last else agent + 1
        node = self.tracer.add(parent, c, a, ply + 1, nxt)
        if c.is_win() or c.is_lose():
            return self.evaluated(c, node, TERMINAL)
        if agent == last and d == 1:  # every child of the last layer is at the depth limit
            return self.evaluated(c, node, LEAF)
        nd = d - 1 if agent == last else d
        return self.search(c, node, nxt, ply + 1, nd, alpha, beta)

    def search(self, s: Any, node: TraceNode | None, agent: int, ply: int, d: int,
               alpha: float, beta: float) -> tuple[float, _Line]:
        """`s` is not a leaf: `agent` to move with d >= 1 plies left (this one included). A
        chance node's value is the expectation under the model (uniform without one), its line
        through the most likely outcome (the first of the likeliest); a MAX or MIN node's the
        best child's (the first of equals), and with alpha-beta the window narrows as it goes
        and a value past it ends the loop (`cut`). The loops are here, not in helpers: two
        frames a ply (this and `child`), as deep traced searches need."""
        acts = self.legal(s, agent)
        if not acts:
            return self.evaluated(s, node, STUCK)
        kind = MAX if agent == 0 else self.kind_of
        pruning, chance = self.pruning, self.chance
        if node is not None:
            node.kind = kind
            if pruning:
                node.alpha, node.beta = alpha, beta
        best_line: _Line = ()
        if kind == CHANCE:
            values = []
            lines = []
            for a in acts:
                v, line = self.child(s, node, agent, a, ply, d, alpha, beta)
                values.append(v)
                lines.append(((agent, action_name(a)), *line))
            probs = ([1.0 / len(acts)] * len(acts) if chance is None
                     else list(chance(s, agent, acts)))
            total = (sum(values) / len(values) if chance is None
                     else sum(p * v for p, v in zip(probs, values, strict=True)))
            if node is not None:
                node.value, node.probabilities = total, probs
            return total, lines[max(range(len(acts)), key=probs.__getitem__)]
        maximising = kind == MAX
        v = -_INF if maximising else _INF
        for i, a in enumerate(acts):
            cv, line = self.child(s, node, agent, a, ply, d, alpha, beta)
            if (cv > v) if maximising else (cv < v):
                v, best_line = cv, ((agent, action_name(a)), *line)
                if pruning:
                    if (v > beta) if maximising else (v < alpha):
                        self.cut(node, acts, i, v, alpha, beta, maximising)
                        return v, best_line
                    if maximising and v > alpha:
                        alpha = v
                    elif not maximising and v < beta:
                        beta = v
        if node is not None:
            node.value = v
        return v, best_line

    def cut(self, node: TraceNode | None, acts: Sequence[Any], i: int, v: float, alpha: float,
            beta: float, maximising: bool) -> None:
        """Record alpha-beta's cut after the `i`-th child: the trace's totals, and the node's
        value and `cut` (after which child, by which bound, the actions never generated)."""
        skipped = [action_name(b) for b in acts[i + 1:]]
        if skipped:
            self.trace.cuts += 1
            self.trace.pruned += len(skipped)
        if node is not None:
            node.value = v
            node.cut = {"after": i, "by": "beta" if maximising else "alpha",
                        "bound": beta if maximising else alpha, "skipped": skipped}


def summary_line(trace: SearchTrace) -> str:
    """The search in one line, the first of `format_tree`: method, depth, the chosen move and
    its value, nodes generated, evaluations, cuts and the moves they pruned."""
    return (f"{trace.method}, depth {trace.depth}: {trace.action} (value "
            f"{_text(trace.value)}), {trace.nodes_generated} nodes generated, "
            f"{trace.evaluations} evaluated, {trace.cuts} cut{'' if trace.cuts == 1 else 's'} "
            f"pruning {trace.pruned} move{'' if trace.pruned == 1 else 's'}")


def format_tree(trace: SearchTrace, notes: dict[str, str] | None = None) -> str:
    """The trace as an indented text tree: each node's action, label, kind and value, the
    alpha-beta window, and the cuts with the moves they pruned. `notes` adds a remark after
    the node with that label."""
    notes = notes or {}
    nodes = {node.id: node for node in trace.nodes}
    lines = [summary_line(trace)]

    def describe(node: TraceNode) -> str:
        name = node.label if node.label is not None else f"#{node.id}"
        head = name if node.action is None else f"{node.action} -> {name}"
        text = f"{head}  {node.kind} {_text(node.value)}"
        if node.alpha is not None and node.kind in (MAX, MIN):
            text += f"  [alpha {_text(node.alpha)}, beta {_text(node.beta)}]"
        if node.probabilities is not None:
            text += "  p=" + ", ".join(f"{p:.3g}" for p in node.probabilities)
        note = notes.get(name)
        return f"{text}  <- {note}" if note else text

    def walk(node: TraceNode, prefix: str, last: bool, top: bool) -> None:
        lines.append(describe(node) if top else f"{prefix}{'`- ' if last else '|- '}"
                     f"{describe(node)}")
        inner = "" if top else prefix + ("   " if last else "|  ")
        extra = []
        if node.cut is not None and node.cut["skipped"]:
            sign = ">" if node.cut["by"] == "beta" else "<"
            extra.append(f"cut: {_text(node.value)} {sign} {node.cut['by']} "
                         f"{_text(node.cut['bound'])}, never generated: "
                         f"{', '.join(node.cut['skipped'])}")
        if node.unrecorded_children:
            extra.append(f"... {node.unrecorded_children} more nodes not recorded")
        children = [nodes[c] for c in node.children]
        for i, child in enumerate(children):
            walk(child, inner, i == len(children) - 1 and not extra, False)
        for i, text in enumerate(extra):
            lines.append(f"{inner}{'`- ' if i == len(extra) - 1 else '|- '}{text}")

    walk(trace.nodes[0], "", True, True)
    return "\n".join(lines)


def _text(value: float | None) -> str:
    if value is None:
        return "?"
    shown = json_number(value)
    return shown if isinstance(shown, str) else f"{value:g}"
