"""Lay a search trace out for drawing, with big trees collapsed.

Works on the JSON-ready trace of `SearchTrace.to_json()` (a dict with `nodes`, each with `id`,
`parent`, `action`, `ply`, `children`, ...). `place_tree` decides which nodes are shown and
where; drawers (the pygame panel, the HTML tree view) only draw what it returns.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

__all__ = ["STUB_WIDTH", "Placed", "place_tree", "principal_variation_ids", "stub_xs"]

# The room, in leaf slots, a cut node keeps for each move it never generated.
STUB_WIDTH = 0.6


@dataclass(frozen=True)
class Placed:
    """One item to draw: a trace node, or a collapsed group of nodes under a shown parent."""

    id: int  # the trace node's id; for a collapsed group, the id of the group's parent node
    x: float  # horizontal position in leaf slots, 0 = leftmost
    y: int  # row = ply (moves from the root)
    parent: int | None  # index in the returned list of the parent item (None: the root)
    hidden: int  # a collapsed group: how many nodes it stands for; 0: a real node
    on_pv: bool  # on the principal variation
    node: dict[str, Any] | None  # the trace node's dict; None for a collapsed group


def principal_variation_ids(trace: dict[str, Any]) -> list[int]:
    """The ids of the nodes on the principal variation, root first (as far as recorded)."""
    nodes = trace["nodes"]
    if not nodes:
        return []
    line = [0]
    for _agent, action in trace.get("principal_variation") or []:
        here = nodes[line[-1]]
        step = next((c for c in here.get("children", ()) if nodes[c]["action"] == action),
                    None)
        if step is None:
            break
        line.append(step)
    return line


def place_tree(trace: dict[str, Any], *, max_shown: int = 120,
                expanded: frozenset[int] = frozenset()) -> list[Placed]:
    """The items to draw for `trace`, parents before their children.

    Which nodes are shown: the principal variation always; every node in `expanded` (with
    its ancestors) and all the children of an `expanded` node, even past the budget; then the
    rest breadth-first (by ply, children in the order they were generated) while fewer than
    `max_shown` nodes are shown. The children of a shown node that are not shown, with all
    their descendants, become one collapsed group item under it (`hidden` = how many nodes it
    holds, `id` = the parent's id: expanding that id shows them). So every recorded node is
    either shown or counted in exactly one group.

    Where: y is the ply; leaves and groups take consecutive slots left to right in depth-first
    order (a node's group after its shown children), and a parent's x is centred over its
    shown children (group included). Cuts are not items: a node's `cut.skipped` lists the moves
    it never generated, and the layout keeps `STUB_WIDTH` per such move to the right of its
    children for drawers to show them as stubs (`stub_xs`). Deterministic: the same trace and
    arguments give the same list.
    """
    if isinstance(max_shown, bool) or not isinstance(max_shown, int) or max_shown < 1:
        raise ValueError(f"max_shown must be a positive integer, got {max_shown!r}")
    nodes: list[dict[str, Any]] = trace["nodes"]
    if not nodes:
        return []
    pv = principal_variation_ids(trace)
    shown: set[int] = set(pv)
    forced = [n for n in sorted(expanded) if 0 <= n < len(nodes)]
    for n in forced:
        shown.add(n)
        shown.update(nodes[n].get("children", ()))
        _add_ancestors(nodes, n, shown)
    queue = deque([0])
    while queue:
        n = queue.popleft()
        for c in nodes[n].get("children", ()):
            if c not in shown and len(shown) < max_shown:
                shown.add(c)
            if c in shown:
                queue.append(c)

    items: list[Placed] = []
    cursor = 0.0
    on_pv = set(pv)

    def place(n: int, parent: int | None) -> None:
        nonlocal cursor
        node = nodes[n]
        index = len(items)
        items.append(Placed(n, 0.0, node["ply"], parent, 0, n in on_pv, node))
        children = node.get("children", [])
        kept = [c for c in children if c in shown]
        hidden = sum(_size(nodes, c) for c in children if c not in shown)
        xs = []
        for c in kept:
            xs.append(len(items))
            place(c, index)
        if hidden:
            xs.append(len(items))
            items.append(Placed(n, cursor, node["ply"] + 1, index, hidden, False, None))
            cursor += 1
        if xs:
            x = (items[xs[0]].x + items[xs[-1]].x) / 2
        else:
            x = cursor
            cursor += 1
        skipped = len((node.get("cut") or {}).get("skipped") or ())
        if skipped:
            last = items[xs[-1]].x if xs else x
            cursor = max(cursor, last + 1 + STUB_WIDTH * skipped)
        items[index] = Placed(n, x, node["ply"], parent, 0, n in on_pv, node)

    place(0, None)
    return items


def stub_xs(items: list[Placed], index: int) -> list[float]:
    """Where the never-generated moves of item `index` go (row y + 1), one per skipped move:
    `STUB_WIDTH` apart to the right of its last shown child (or of itself)."""
    item = items[index]
    skipped = len(((item.node or {}).get("cut") or {}).get("skipped") or ())
    children = [i.x for i in items if i.parent == index]
    last = max(children) if children else item.x
    return [last + STUB_WIDTH * (k + 1) for k in range(skipped)]


def _add_ancestors(nodes: list[dict[str, Any]], n: int, shown: set[int]) -> None:
    parent = nodes[n]["parent"]
    while parent is not None:
        shown.add(parent)
        parent = nodes[parent]["parent"]


def _size(nodes: list[dict[str, Any]], n: int) -> int:
    """How many recorded nodes the subtree of `n` holds (`n` included)."""
    total, stack = 0, [n]
    while stack:
        total += 1
        stack.extend(nodes[stack.pop()].get("children", ()))
    return total
