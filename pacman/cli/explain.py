"""`pacman explain`: the search tree behind a tree test case, and where an agent departs from it."""

from __future__ import annotations

import argparse
from typing import Any

from pacman.cli.options import UsageError

DESCRIPTION = """\
Print the tree the reference search explores on an autograder tree case (a .test file with its
.solution): every generated node in order with its value, the alpha-beta window it was searched
with, and each cut with the moves it never generated. With --agents, run that file's agent on
the case too: nodes it did not generate, or generated beyond the solution, are marked, and the
first difference is named."""

_METHODS = {"MinimaxAgent": "minimax", "AlphaBetaAgent": "alphabeta",
            "ExpectimaxAgent": "expectimax"}


def add_parser(commands: Any) -> None:
    """The `explain` subcommand."""
    explain = commands.add_parser(
        "explain", help="show the search tree of a tree test case (and where an agent departs)",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    explain.add_argument("case", metavar="CASE.test", help="a tree test case")
    explain.add_argument("--agents", default=None, metavar="FILE.py",
                         help="also run this file's agent for the case's algorithm (a CS188 "
                              "multiAgents.py works) and mark where it departs")


def run(args: argparse.Namespace) -> int:
    """`pacman explain`: print the tree; 1 when the agent departs from the solution."""
    from agents.trace import format_tree, traced_search
    from pacman.grading.departure import first_departure
    from pacman.grading.parser import TestCaseError, load_case
    from pacman.grading.runner import GradingError, load_agents_module, run_agent
    from pacman.grading.tree import TreeError, TreeRun, tree_evaluation

    try:
        case = load_case(args.case)
    except (OSError, TestCaseError) as error:
        raise UsageError(str(error)) from None
    method = _METHODS.get(case.alg)
    if method is None:
        raise UsageError(f"{args.case}: cannot explain alg {case.alg!r} (one of "
                         f"{', '.join(_METHODS)})")
    try:
        decision = traced_search(method, TreeRun(case.tree).root(), case.depth,
                                 tree_evaluation, label=lambda state: state.node)
    except (TreeError, ValueError) as error:
        raise UsageError(f"{args.case}: the reference search cannot run: {error}") from None
    assert decision.trace is not None
    notes: dict[str, str] = {}
    summary: list[str] = []
    passed = True
    if args.agents is not None:
        try:
            module = load_agents_module(args.agents)
        except GradingError as error:
            raise UsageError(str(error)) from None
        agent_class = getattr(module, case.alg, None)
        if agent_class is None:
            raise UsageError(f"{args.agents} has no {case.alg}")
        actual = run_agent(agent_class, case, case.depth)
        expected = case.expected_generated
        notes = dict.fromkeys(expected - actual.generated, "your agent did not generate it")
        extra = sorted(actual.generated - expected)
        passed = actual.same_as(case.expected_action, expected)
        if actual.error is not None:
            summary.append(f"your agent: {actual.error}")
        summary.append(f"your agent chose {actual.action or '(nothing)'}, expected "
                       f"{case.expected_action}")
        if extra:
            summary.append(f"your agent also generated: {' '.join(extra)}")
        departure = first_departure(case, actual.generated)
        summary.append(f"first difference: {departure}" if departure else
                       "your agent generated exactly the expected nodes")
    print(format_tree(decision.trace, notes))
    for line in summary:
        print(line)
    return 0 if passed else 1
