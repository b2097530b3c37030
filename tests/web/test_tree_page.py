"""The search-tree page of `pacman explain --html`, in a real headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pacman.agents.trace import traced_search
from pacman.cli import main
from pacman.game_tree import TreeRun, tree_evaluation
from pacman.grading.cases.parser import load_case
from pacman.tree_placement import place_tree
from pacman.web.tree_page import placed_json, render_page, trace_events, view_data

ROOT = Path(__file__).parents[2]
CASE = ROOT / "pacman/grading/test_cases/q3/1-prune-one-ghost.test"  # the textbook shape
NO_ROOT_ALPHA = ROOT / "tests/cs188/submissions/no_root_alpha/multiAgents.py"


def trace_of(method: str, path: Path = CASE) -> dict[str, Any]:
    case = load_case(path)
    decision = traced_search(method, TreeRun(case.tree).root(), case.depth, tree_evaluation,
                             label=lambda state: state.node)
    assert decision.trace is not None
    return decision.trace.to_json()


def page_of(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "tree.html"
    assert main(["explain", *args, "--html", str(out)]) in (0, 1)
    return out


def panel(page: Any) -> Any:
    return page.locator("section.panel:visible")


def test_the_page_shows_the_search_and_needs_nothing_outside(tmp_path: Path, visit: Any) -> None:
    page = visit.open(page_of(tmp_path, str(CASE)))
    trace = trace_of("alphabeta")
    assert panel(page).get_attribute("data-method") == "alphabeta"
    assert panel(page).locator(".chosen-action").inner_text() == trace["action"] == "Left"
    assert panel(page).locator(".pruned").inner_text() == str(trace["pruned"]) == "2"
    assert panel(page).locator(".counter").inner_text() == \
        f"step 0 of {len(trace_events(trace))}"
    # every node drawn, the cut's never-generated moves as stubs with the bound that cut them
    assert page.locator("section.panel:visible g.item").count() == len(trace["nodes"])
    assert panel(page).locator(".stub-label").all_text_contents() == ["South", "East"]
    assert panel(page).locator(".cut-label").all_text_contents() == ["cut: 3 < alpha 4"]
    page.screenshot(path=str(tmp_path / "tree.png"), full_page=True)
    assert visit.outside_requests() == [] and visit.errors == []


def test_stepping_forward_and_back_returns_to_the_start(tmp_path: Path, visit: Any) -> None:
    page = visit.open(page_of(tmp_path, str(CASE)))
    events = trace_events(trace_of("alphabeta"))
    text = panel(page).locator(".step-text")
    start = text.inner_text()
    seen = []
    for _ in range(len(events)):
        page.keyboard.press("ArrowRight")
        seen.append(text.inner_text())
    assert seen == [event["text"] for event in events]
    assert "alpha at root becomes 4" in seen
    assert "cut at gB: 3 < alpha 4: never generated South, East" in seen
    assert panel(page).locator(".counter").inner_text() == \
        f"step {len(events)} of {len(events)}"
    for _ in range(len(events)):
        panel(page).locator("button.back").click()
    assert text.inner_text() == start
    assert panel(page).locator(".counter").inner_text() == f"step 0 of {len(events)}"
    # a middle step: what is not generated yet is faded, the current node marked
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert text.inner_text() == "generate a1 (gA --West--> a1)"
    assert panel(page).locator("g.item.current").get_attribute("data-node") == "2"
    assert panel(page).locator("g.item.unseen").count() == len(trace_of("alphabeta")["nodes"]) - 3
    page.screenshot(path=str(tmp_path / "step.png"), full_page=True)
    assert visit.errors == []


def test_the_comparison_shows_each_methods_totals(tmp_path: Path, visit: Any) -> None:
    page = visit.open(page_of(tmp_path, str(CASE)))
    for method in ("minimax", "alphabeta", "expectimax"):
        trace = trace_of(method)
        row = page.locator(f"#comparison tr[data-method={method}]")
        cells = {field: row.locator(f"td[data-field={field}]").inner_text()
                 for field in ("nodes_generated", "evaluations", "pruned", "action")}
        assert cells == {"nodes_generated": str(trace["nodes_generated"]),
                         "evaluations": str(trace["evaluations"]),
                         "pruned": str(trace["pruned"]), "action": trace["action"]}
    assert [page.locator(f"#comparison tr[data-method={m}] td[data-field=nodes_generated]")
            .inner_text() for m in ("minimax", "alphabeta", "expectimax")] == ["13", "11", "13"]
    page.locator("button.tab[data-method=expectimax]").click()
    assert panel(page).get_attribute("data-method") == "expectimax"
    assert visit.errors == []


def test_the_scripts_layout_is_trace_layouts(tmp_path: Path, visit: Any) -> None:
    """The page collapses with the same rule as `place_tree` (tight budgets, expansions)."""
    trace = trace_of("minimax")
    out = tmp_path / "page.html"
    out.write_text(render_page("t", [view_data(trace, "minimax", max_shown=4)]),
                   encoding="utf-8")
    page = visit.open(out)
    for budget, expanded in [(4, []), (1, []), (6, [3]), (2, [7, 1]), (100, [])]:
        ours = placed_json(place_tree(trace, max_shown=budget,
                                       expanded=frozenset(expanded)))
        theirs = page.evaluate(f"window.treeLayout(0, {budget}, {json.dumps(expanded)})")
        assert theirs == ours, (budget, expanded)
    # a collapsed group opens on a click
    # root, gA and a1 (the principal variation), gB; a2 a3 | b1-b3 | gC and its 3 collapsed
    groups = page.locator("g.group")
    assert groups.locator("text").all_text_contents() == ["+2", "+3", "+4"]
    assert page.locator("g.item").count() == 4
    groups.nth(2).click()
    assert page.locator("g.item").count() == 5  # gC shown, its children a new group
    assert groups.locator("text").all_text_contents() == ["+2", "+3", "+3"]
    assert visit.errors == []


def test_a_wrong_agent_is_shown_beside_the_expected_search(tmp_path: Path, visit: Any) -> None:
    out = tmp_path / "student.html"
    assert main(["explain", str(CASE), "--agents", str(NO_ROOT_ALPHA), "--html",
                 str(out)]) == 1
    page = visit.open(out)
    first = page.locator("#first-difference").inner_text()
    assert first.startswith("first difference: b2 (gB --South--> b2) is not expected, but "
                            "your agent generated it")
    sides = page.locator("#student .side")
    assert sides.count() == 2
    # b2 is the first difference: ringed on both sides, an extra node on the agent's
    expected, agent = sides.nth(0), sides.nth(1)
    b2 = 'g.item:has(text.name:text-is("b2"))'
    assert "mark-first" in (agent.locator(b2).get_attribute("class") or "")
    assert "mark-extra" in (agent.locator(b2).get_attribute("class") or "")
    assert "mark-absent" in (expected.locator(b2).get_attribute("class") or "")
    assert agent.locator(".first-ring").count() == 1
    assert agent.locator("g.item.mark-extra").count() == 2  # b2 and b3
    page.locator("#student").screenshot(path=str(tmp_path / "student.png"))
    assert visit.outside_requests() == [] and visit.errors == []


@pytest.mark.parametrize("method", ["minimax", "alphabeta", "expectimax"])
def test_a_game_position_page_with_collapsed_groups(tmp_path: Path, visit: Any,
                                                    method: str) -> None:
    page = visit.open(page_of(tmp_path, "--layout", "smallClassic", "--depth", "3",
                              "--method", method, "--max-shown", "30"))
    assert panel(page).get_attribute("data-method") == method
    groups = panel(page).locator("g.group")
    assert groups.count() > 0
    page.keyboard.press("End")
    assert panel(page).locator(".step-text").inner_text().startswith("Pacman chooses ")
    assert visit.outside_requests() == [] and visit.errors == []
