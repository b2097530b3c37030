"""A student's agent on one tree case beside the expected search: what `pacman explain --agents`
prints and marks, and the page `pacman grade --explain` writes for a failing tree test."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacman.agents.trace import SearchTrace, traced_search
from pacman.errors import GradingError, PageError
from pacman.game_tree import TreeError, TreeRun, tree_evaluation
from pacman.grading.cases.parser import TreeCase, load_case
from pacman.grading.reference.departure import first_departure
from pacman.grading.running.hosted import HostedContestant
from pacman.grading.running.tree_run import run_agent
from pacman.web.tree_page import render_page, view_data

__all__ = ["METHODS", "StudentRun", "case_trace", "compare_student", "student_page"]

#: The search of `pacman.agents.trace` that draws each algorithm of a tree case, and its title.
METHODS = {"MinimaxAgent": "minimax", "AlphaBetaAgent": "alphabeta",
           "ExpectimaxAgent": "expectimax"}
TITLES = {"minimax": "minimax", "alphabeta": "alpha-beta", "expectimax": "expectimax"}
#: nodes each search of a page records, and nodes a view draws before collapsing subtrees
MAX_NODES = 5000
MAX_SHOWN = 120


@dataclass
class StudentRun:
    """A student's agent on a tree case, beside the expected search."""

    case: TreeCase
    expected: frozenset[str]
    generated: frozenset[str]
    #: what to say at a node of the tree: the ones the agent did not generate
    notes: dict[str, str]
    #: the lines printed under the tree: the agent's action, extra nodes, first difference
    summary: list[str]
    departure: str
    passed: bool

    def page_data(self) -> dict[str, Any]:
        """The side-by-side of the page: the whole tree (minimax to the case's depth) twice,
        marked with the expected and the agent's generated nodes, and the first difference."""
        case = self.case
        try:
            whole = traced_search("minimax", TreeRun(case.tree).root(), case.depth,
                                  tree_evaluation, label=_node_name).trace
        except (TreeError, ValueError) as error:
            raise PageError(f"the tree cannot be drawn: {error}") from None
        assert whole is not None
        data = whole.to_json()
        first = self.departure.split(" ", 1)[0] if self.departure else ""
        expected_marks: dict[int, str] = {}
        agent_marks: dict[int, str] = {}
        for node in data["nodes"]:
            name = node.get("label")
            ring = " first" if name == first else ""
            if name not in self.expected:
                expected_marks[node["id"]] = "absent" + ring
            elif ring:
                expected_marks[node["id"]] = ring.strip()
            if name in self.generated and name not in self.expected:
                agent_marks[node["id"]] = "extra" + ring
            elif name in self.expected and name not in self.generated:
                agent_marks[node["id"]] = "missing" + ring
            elif name not in self.generated:
                agent_marks[node["id"]] = "absent"
            elif ring:
                agent_marks[node["id"]] = ring.strip()
        size = len(data["nodes"])
        return {"lines": self.summary[:-1] if self.departure else self.summary,
                "departure": f"first difference: {self.departure}" if self.departure
                else "your agent generated exactly the expected nodes",
                "views": [view_data(data, "expected (the solution's generated nodes)",
                                    max_shown=size, marks=expected_marks),
                          view_data(data, "your agent's generated nodes", max_shown=size,
                                    marks=agent_marks)]}


def _node_name(state: Any) -> str:
    return str(state.node)


def compare_student(case: TreeCase, agents_path: str) -> StudentRun:
    """Run the agent file's class for the case's algorithm; what it did against the solution.
    The file's code runs in a host process of its own, as when it is graded (what it reports is
    replayed on this process's tree). `GradingError` if the file cannot be loaded or lacks the
    class."""
    contestant = HostedContestant(agents_path)
    try:
        agent_class = contestant.tree_agent(case.alg)
        if agent_class is None:
            raise GradingError(f"{agents_path} has no {case.alg}")
        actual = run_agent(agent_class, case, case.depth)
    finally:
        contestant.close()
    expected = case.expected_generated
    notes = dict.fromkeys(expected - actual.generated, "your agent did not generate it")
    extra = sorted(actual.generated - expected)
    summary = []
    if actual.error is not None:
        summary.append(f"your agent: {actual.error}")
    summary.append(f"your agent chose {actual.action or '(nothing)'}, expected "
                   f"{case.expected_action}")
    if extra:
        summary.append(f"your agent also generated: {' '.join(extra)}")
    departure = first_departure(case, actual.generated)
    summary.append(f"first difference: {departure}" if departure else
                   "your agent generated exactly the expected nodes")
    return StudentRun(case, expected, actual.generated, notes, summary, departure,
                      actual.same_as(case.expected_action, expected))


def case_trace(case: TreeCase, method: str, max_nodes: int = MAX_NODES,
               title: str = "") -> SearchTrace:
    """The traced search `method` on the case's tree; `PageError` (naming `title`) if the tree
    cannot be searched (a node the search evaluates has no value)."""
    try:
        decision = traced_search(method, TreeRun(case.tree).root(), case.depth,
                                 tree_evaluation, max_nodes=max_nodes, label=_node_name)
    except (TreeError, ValueError) as error:
        raise PageError(f"{title or case.path}: the search cannot run: {error}") from None
    assert decision.trace is not None
    return decision.trace


def student_page(case_path: str | Path, agents_path: str, max_shown: int = MAX_SHOWN) -> str:
    """The tree page of a tree case with a student's agent beside the expected search: the
    three searches side by side (the case's own first) and the agent's nodes marked."""
    case = load_case(case_path)
    title = str(case_path)
    student = compare_student(case, agents_path)
    views = []
    for method in TITLES:
        view = view_data(case_trace(case, method, MAX_NODES, title).to_json(), TITLES[method],
                         max_shown=max_shown)
        view["primary"] = method == METHODS[case.alg]
        views.append(view)
    return render_page(title, views, student=student.page_data())
