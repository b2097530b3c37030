"""`GraphGameTreeTest`: a search agent on a small game tree, checked on its action and on the
exact set of nodes it generated (see `docs/test-cases.md`).

Two dialects share this class. Our own cases (folders without `CONFIG`) also fail an agent that
generates a child twice; a classic suite grades as the classic grader does (the generated nodes
are a set, and an agent that raises ends its question). Both explain a failure: the expected
and actual action and nodes, the difference, a hint when the reference search with a classic
bug reproduces what the agent did, and the test's diagram.
"""

from __future__ import annotations

from pathlib import Path

from pacman.grading.contestant import Contestant
from pacman.grading.grader import CaseResult, CaseStatus, run_case
from pacman.grading.parser import (
    ParsedFile,
    TestCaseError,
    case_from_files,
    parse_file,
    solution_path,
    tree_from_test,
)
from pacman.grading.reference import reference_search
from pacman.grading.report import format_case
from pacman.grading.results import TestResult, TestStatus
from pacman.grading.runner import DEFAULT_AGENTS_MODULE, load_agents_module

__all__ = ["run", "write_solution"]

CLASS = "GraphGameTreeTest"


def run(test_path: Path, test: ParsedFile, contestant: Contestant, relative: str,
        classic: bool) -> TestResult:
    """Run one tree test for `contestant`."""
    try:
        solution = solution_path(test_path)
        if not solution.is_file():
            raise TestCaseError(test_path, None, f"no solution file {solution.name}")
        case = case_from_files(test, parse_file(solution))
    except TestCaseError as error:
        return TestResult(relative, CLASS, TestStatus.ERROR, messages=(str(error),))
    module = contestant.module or load_agents_module(DEFAULT_AGENTS_MODULE)
    result = run_case(case, module, classic=classic)
    return TestResult(relative, CLASS, _status(result, classic),
                      messages=tuple(format_case(result).split("\n")[1:]))


def _status(result: CaseResult, classic: bool) -> TestStatus:
    if result.status is CaseStatus.PASSED:
        return TestStatus.PASS
    if classic and result.crashed:
        return TestStatus.CRASH
    return TestStatus.FAIL


def write_solution(test_path: Path, test: ParsedFile, header: str) -> Path:
    """Solve the tree with the reference search and write the `.solution`."""
    alg, depth, tree, _ = tree_from_test(test)
    outcome = reference_search(tree, alg, depth)
    path = solution_path(test_path)
    path.write_text(f'{header}\naction: "{outcome.action}"\n'
                    f'generated: "{" ".join(sorted(outcome.generated))}"\n', encoding="utf-8")
    return path
