"""`GraphGameTreeTest`: a search agent on a small game tree, checked on its action and on the
exact set of nodes it generated (see `docs/test-cases.md`).

Two dialects share this class. Our own cases (folders without `CONFIG`) also fail an agent that
generates a child twice; a classic suite grades as the classic grader does (the generated nodes
are a set, and an agent that raises ends its question). Both explain a failure: the expected
and actual action and nodes, the difference, a hint when the reference search with a classic
bug reproduces what the agent did, and the test's diagram.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from pacman.errors import TestCaseError
from pacman.grading.cases.parser import (
    ParsedFile,
    TreeCase,
    case_from_files,
    parse_file,
    solution_path,
    tree_from_test,
)
from pacman.grading.reference.departure import first_departure
from pacman.grading.reference.diagnostics import diagnose
from pacman.grading.reference.search import reference_search
from pacman.grading.reports.formats import tree_lines
from pacman.grading.reports.results import TestResult, TestStatus, TreeVerdict
from pacman.grading.running.contestant import Graded
from pacman.grading.running.tree_run import AgentRun, run_agent

__all__ = ["CLASS", "load", "run", "run_case", "write_solution"]

CLASS = "GraphGameTreeTest"


def load(test_path: Path, test: ParsedFile) -> TreeCase:
    """Check a parsed tree test and read its solution; a `TestCaseError` says what is wrong."""
    solution = solution_path(test_path)
    if not os.path.lexists(solution):  # a broken one is named by reading it
        raise TestCaseError(test_path, None, f"no solution file {solution.name}")
    return case_from_files(test, parse_file(solution))


def run(test_path: Path, test: ParsedFile, contestant: Graded, relative: str,
        classic: bool) -> TestResult:
    """Run one tree test for `contestant`."""
    try:
        case = load(test_path, test)
    except TestCaseError as error:
        return TestResult(relative, CLASS, TestStatus.ERROR, messages=(str(error),))
    return run_case(case, contestant, classic, relative)


def run_case(case: TreeCase, agents: ModuleType | Graded, classic: bool = False,
             name: str | None = None) -> TestResult:
    """Grade one case: run the agent for `case.alg` (a module's class, or the code under test's,
    wherever it runs) and compare with the solution.

    `classic` grades as the classic grader does: the generated nodes are a set (a child made
    twice is not a failure), the tree is as lenient as the classic one (see `TreeRun`), and an
    agent that raises has crashed. The result is named `name` (default: the case's path).
    """
    verdict = TreeVerdict(case.alg, case.depth, case.expected_action, case.expected_generated,
                          case.diagram)
    name = str(case.path) if name is None else name
    if isinstance(agents, ModuleType):
        agent_class, owner = getattr(agents, case.alg, None), agents.__name__
    else:
        agent_class, owner = agents.tree_agent(case.alg), agents.module_name
    if agent_class is None:
        verdict = replace(verdict, problem=f"the agents module {owner} has no {case.alg}")
        return TestResult(name, CLASS, TestStatus.FAIL, messages=tree_lines(verdict),
                          tree=verdict)
    actual = run_agent(agent_class, case, case.depth, classic=classic)
    verdict = replace(verdict, actual_action=actual.action, actual_generated=actual.generated,
                      duplicates=() if classic else actual.duplicates)
    if actual.same_as(case.expected_action, case.expected_generated, allow_duplicates=classic):
        return TestResult(name, CLASS, TestStatus.PASS, tree=verdict)
    crashed = actual.error is not None
    verdict = replace(verdict, problem=_problem(case, actual, verdict.duplicates),
                      hints=diagnose(case, agent_class, actual), crashed=crashed,
                      departure="" if crashed else first_departure(case, actual.generated))
    status = TestStatus.CRASH if classic and crashed else TestStatus.FAIL
    return TestResult(name, CLASS, status, messages=tree_lines(verdict), tree=verdict)


def _problem(case: TreeCase, actual: AgentRun, duplicates: tuple[str, ...]) -> str:
    if actual.error is not None:
        return actual.error
    problems = []
    if actual.action != case.expected_action:
        problems.append(f"chose {actual.action}, expected {case.expected_action}")
    if actual.generated != case.expected_generated:
        problems.append("generated the wrong set of nodes")
    if duplicates:
        problems.append("generated a child more than once: " + "; ".join(duplicates))
    return "; ".join(problems)


def write_solution(test_path: Path, test: ParsedFile, header: str) -> Path:
    """Solve the tree with the reference search and write the `.solution`."""
    alg, depth, tree, _ = tree_from_test(test)
    outcome = reference_search(tree, alg, depth)
    path = solution_path(test_path)
    path.write_text(f'{header}\naction: "{outcome.action}"\n'
                    f'generated: "{" ".join(sorted(outcome.generated))}"\n', encoding="utf-8")
    return path
