"""Where an agent's search of a test tree first departs from the expected one.

The nodes of the tree are taken in depth-first order (children in file order), the order a
correct search meets them; the first node that one of the two generated sets has and the other
lacks is the first difference. The reference search, run with a log, says what it knew at that
node's parent: the alpha-beta window and the best value so far when it generated the node, or
the cut that stopped it before the node.
"""

from __future__ import annotations

import contextlib
import math

from pacman.game_tree import GameTree, TreeError
from pacman.grading.cases.parser import TreeCase
from pacman.grading.reference.search import Cut, Generated, reference_search

__all__ = ["first_departure"]


def first_departure(case: TreeCase, generated: frozenset[str]) -> str:
    """One line on the first node the agent generated and the solution does not (or the other
    way round), with its parent and the reference search's state there; "" if the sets agree."""
    expected = case.expected_generated
    order = _depth_first(case.tree)
    differing = [node for node in order if (node in generated) != (node in expected)]
    if not differing:
        return ""
    node = differing[0]
    log: list[Generated | Cut] = []
    # a tree the reference cannot finish still logged what explains the nodes before it
    with contextlib.suppress(TreeError, ValueError):
        reference_search(case.tree, case.alg, case.depth, log=log)
    made = next((e for e in log if isinstance(e, Generated) and e.child == node), None)
    parent, action = (made.parent, made.action) if made else order[node]
    edge = f"{parent} --{action}--> {node}"
    if node in expected:
        where = ("" if made is None else f"; the reference search generated it at {parent}"
                 f"{_window(made, case.alg == 'AlphaBetaAgent')}")
        return f"{node} ({edge}) is expected, but your agent did not generate it{where}"
    cut = next((e for e in log if isinstance(e, Cut) and e.node == parent), None)
    if cut is not None:
        sign = ">" if cut.by == "beta" else "<"
        why = (f"the reference search stops at {parent} after {cut.after}: its value "
               f"{_shown(cut.value)} {sign} {cut.by} {_shown(cut.bound)}, so the rest is pruned")
    elif any(isinstance(e, Generated) and e.parent == parent for e in log):
        why = f"the reference search generates other children of {parent}, not this one"
    else:
        why = (f"the reference search does not expand {parent} (a leaf: the depth limit, or a "
               "won or lost node)")
    return f"{node} ({edge}) is not expected, but your agent generated it; {why}"


def _depth_first(tree: GameTree) -> dict[str, tuple[str, str]]:
    """Every node reachable from the start in depth-first order (children in file order), with
    the (parent, action) the walk first reached it by; the start maps to itself and ""."""
    found: dict[str, tuple[str, str]] = {}
    stack = [(tree.start, tree.start, "")]
    while stack:
        node, parent, action = stack.pop()
        if node in found:
            continue
        found[node] = (parent, action)
        stack.extend((child, node, move)
                     for move, child in reversed(tree.children.get(node, ())))
    return found


def _window(made: Generated, pruning: bool) -> str:
    """`, with alpha A, beta B, best so far V` (the window for alpha-beta only)."""
    parts = [f"alpha {_shown(made.alpha)}", f"beta {_shown(made.beta)}"] if pruning else []
    if not math.isinf(made.best):
        parts.append(f"best so far {_shown(made.best)}")
    return f", with {', '.join(parts)}" if parts else ""


def _shown(value: float) -> str:
    return f"{value:+g}".lstrip("+") if not math.isinf(value) else ("+inf" if value > 0
                                                                       else "-inf")
