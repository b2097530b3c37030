"""`pacman.tree_placement`: which nodes of a trace are drawn, where, and what is collapsed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pacman import GameState, load_layout
from pacman.agents.evaluation import NAMED
from pacman.agents.trace import traced_search
from pacman.game_tree import TreeRun, tree_evaluation
from pacman.grading.cases.parser import load_case
from pacman.tree_placement import STUB_WIDTH, Placed, place_tree, principal_variation_ids, stub_xs

CASES = Path(__file__).parents[1] / "cases"


def case_trace(name: str, method: str = "alphabeta") -> dict[str, Any]:
    case = load_case(CASES / f"{name}.test")
    decision = traced_search(method, TreeRun(case.tree).root(), case.depth, tree_evaluation,
                             label=lambda state: state.node)
    assert decision.trace is not None
    return decision.trace.to_json()


def game_trace(method: str = "alphabeta", depth: int = 3) -> dict[str, Any]:
    state = GameState.initial(load_layout("smallClassic"))
    decision = traced_search(method, state, depth, NAMED["better"])
    assert decision.trace is not None
    return decision.trace.to_json()


def check(trace: dict[str, Any], items: list[Placed]) -> None:
    """Every recorded node shown once or counted in exactly one group; the PV shown; parents
    before children and centred over them; shown nodes' parents are their trace parents."""
    nodes = trace["nodes"]
    shown = [item.id for item in items if not item.hidden]
    assert len(shown) == len(set(shown))
    assert len(shown) + sum(item.hidden for item in items) == len(nodes)
    assert set(principal_variation_ids(trace)) <= set(shown)
    assert [item.id for item in items if item.on_pv] == principal_variation_ids(trace)
    for index, item in enumerate(items):
        children = [c for c in items if c.parent == index]
        if item.parent is None:
            assert index == 0 and item.id == 0
        else:
            assert item.parent < index and item.y == items[item.parent].y + 1
            if not item.hidden:
                assert item.node is not None and item.node["parent"] == items[item.parent].id
                assert item.node["ply"] == item.y
            else:
                assert item.node is None and item.id == items[item.parent].id
        if children:
            xs = [c.x for c in children]
            assert item.x == pytest.approx((min(xs) + max(xs)) / 2)
    groups = [item.id for item in items if item.hidden]
    assert len(groups) == len(set(groups))  # one group per parent at most


def test_a_small_tree_is_shown_whole_in_depth_first_slots() -> None:
    trace = case_trace("alphabeta/01-textbook")
    items = place_tree(trace)
    check(trace, items)
    assert not any(item.hidden for item in items)
    labels = [(item.node or {}).get("label") for item in items]
    assert labels == ["root", "min1", "A", "B", "C", "min2", "D", "min3", "G", "H", "I"]
    xs = {label: item.x for label, item in zip(labels, items)}
    # min2 keeps room for its two never-generated moves (E, F) right of D
    assert [xs[n] for n in "ABCD"] == [0, 1, 2, 3]
    assert xs["G"] == pytest.approx(3 + 1 + 2 * STUB_WIDTH)
    assert xs["min1"] == 1 and xs["min2"] == 3 and xs["min3"] == xs["H"]
    assert xs["root"] == pytest.approx((xs["min1"] + xs["min3"]) / 2)
    assert [item.y for item in items][:3] == [0, 1, 2]
    assert [item.id for item in items if item.on_pv] == [0, 1, 2]  # root, min1, A
    min2 = labels.index("min2")
    assert stub_xs(items, min2) == pytest.approx([3 + STUB_WIDTH, 3 + 2 * STUB_WIDTH])
    assert stub_xs(items, 0) == []


def test_a_tight_budget_collapses_subtrees_under_their_parents() -> None:
    trace = case_trace("alphabeta/01-textbook")
    items = place_tree(trace, max_shown=5)
    check(trace, items)
    shown = [(item.node or {}).get("label") for item in items if not item.hidden]
    # breadth-first: root and the three MIN nodes, then A (on the PV) past nothing else
    assert shown == ["root", "min1", "A", "min2", "min3"]
    groups = {items[item.parent].node["label"]: item.hidden  # type: ignore[index]
              for item in items if item.hidden and item.parent is not None}
    assert groups == {"min1": 2, "min2": 1, "min3": 3}


def test_expanding_a_group_shows_its_nodes_past_the_budget() -> None:
    trace = case_trace("alphabeta/01-textbook")
    min3 = next(n["id"] for n in trace["nodes"] if n.get("label") == "min3")
    items = place_tree(trace, max_shown=5, expanded=frozenset({min3}))
    check(trace, items)
    labels = [(item.node or {}).get("label") for item in items if not item.hidden]
    assert {"G", "H", "I"} <= set(labels) and "B" not in labels
    assert not any(item.hidden and item.id == min3 for item in items)


def test_a_big_game_tree_keeps_its_budget_and_its_principal_variation() -> None:
    trace = game_trace()
    assert len(trace["nodes"]) == 165
    items = place_tree(trace, max_shown=40)
    check(trace, items)
    assert sum(1 for item in items if not item.hidden) == 40
    assert len(principal_variation_ids(trace)) == 1 + len(trace["principal_variation"])
    deep = max(trace["nodes"], key=lambda n: n["ply"])
    items = place_tree(trace, max_shown=1, expanded=frozenset({deep["id"]}))
    check(trace, items)
    assert deep["id"] in {item.id for item in items if not item.hidden}


@pytest.mark.parametrize("method", ["minimax", "alphabeta", "expectimax"])
def test_the_layout_is_deterministic(method: str) -> None:
    trace = game_trace(method)
    first = place_tree(trace, max_shown=60)
    again = place_tree(game_trace(method), max_shown=60)
    assert first == again
    check(trace, first)


def test_a_bad_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="max_shown must be a positive integer"):
        place_tree(case_trace("alphabeta/01-textbook"), max_shown=0)
