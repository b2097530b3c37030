"""Grade test folders: find the `.test` files, run each case, and collect a `GradeReport`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from types import ModuleType

from pacman.grading.departure import first_departure
from pacman.grading.diagnostics import diagnose
from pacman.grading.parser import (
    TestCaseError,
    TreeCase,
    case_from_files,
    parse_file,
    solution_path,
)
from pacman.grading.runner import AgentRun, GradingError, load_agents_module, run_agent

__all__ = [
    "CaseResult",
    "CaseStatus",
    "GradeReport",
    "collect_test_files",
    "grade",
    "run_case",
]


class CaseStatus(str, Enum):
    """How one test file ended."""

    PASSED = "passed"
    FAILED = "failed"  # the agent's behaviour differs from the solution
    ERROR = "error"  # the test or solution file itself is unusable
    SKIPPED = "skipped"  # `disabled: "true"`


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one test file, with what is needed to explain a failure."""

    path: Path
    status: CaseStatus
    message: str = ""
    alg: str | None = None
    depth: int | None = None
    expected_action: str | None = None
    actual_action: str | None = None
    expected_generated: frozenset[str] = frozenset()
    actual_generated: frozenset[str] = frozenset()
    duplicates: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    diagram: str = ""
    #: the agent raised (the classic grader ends the question on an exception)
    crashed: bool = False
    #: the first node where the generated set departs from the expected one, explained
    departure: str = ""

    @property
    def passed(self) -> bool:
        """True if the case passed."""
        return self.status is CaseStatus.PASSED

    @property
    def missing(self) -> tuple[str, ...]:
        """Nodes the solution generates but the agent did not, sorted."""
        return tuple(sorted(self.expected_generated - self.actual_generated))

    @property
    def extra(self) -> tuple[str, ...]:
        """Nodes the agent generated but the solution does not, sorted."""
        return tuple(sorted(self.actual_generated - self.expected_generated))


@dataclass(frozen=True)
class GradeReport:
    """Every case result of a grading run, in the order the cases ran."""

    results: tuple[CaseResult, ...] = ()

    @property
    def passed(self) -> int:
        """Number of passed cases."""
        return sum(r.status is CaseStatus.PASSED for r in self.results)

    @property
    def failed(self) -> int:
        """Number of failed cases, unusable test files included."""
        return sum(r.status in (CaseStatus.FAILED, CaseStatus.ERROR) for r in self.results)

    @property
    def skipped(self) -> int:
        """Number of disabled cases."""
        return sum(r.status is CaseStatus.SKIPPED for r in self.results)

    @property
    def ok(self) -> bool:
        """True if no case failed."""
        return self.failed == 0


def run_case(case: TreeCase, agents_module: str | ModuleType | None = None,
             classic: bool = False) -> CaseResult:
    """Grade one case: run the module's agent for `case.alg` and compare with the solution.

    `classic` grades as the classic grader does: the generated nodes are a set (a child made
    twice is not a failure) and the tree is as lenient as the classic one (see `TreeRun`).
    """
    module = load_agents_module(agents_module)
    base = CaseResult(path=case.path, status=CaseStatus.FAILED, alg=case.alg, depth=case.depth,
                      expected_action=case.expected_action,
                      expected_generated=case.expected_generated, diagram=case.diagram)
    agent_class = getattr(module, case.alg, None)
    if agent_class is None:
        return replace(base, message=f"the agents module {module.__name__} has no {case.alg}")
    actual = run_agent(agent_class, case, case.depth, classic=classic)
    base = replace(base, actual_action=actual.action, actual_generated=actual.generated,
                   duplicates=() if classic else actual.duplicates)
    if actual.same_as(case.expected_action, case.expected_generated, allow_duplicates=classic):
        return replace(base, status=CaseStatus.PASSED)
    departure = "" if actual.error is not None else first_departure(case, actual.generated)
    return replace(base, message=_failure_message(case, actual, base.duplicates),
                   hints=diagnose(case, agent_class, actual), crashed=actual.error is not None,
                   departure=departure)


def _failure_message(case: TreeCase, actual: AgentRun, duplicates: tuple[str, ...]) -> str:
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


def collect_test_files(paths: Sequence[str | Path]) -> list[Path]:
    """The `.test` files named by `paths` (folders are searched recursively, sorted by name)."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            tests = sorted(path.rglob("*.test"), key=lambda p: p.relative_to(path).parts)
            if not tests:
                raise GradingError(f"no .test files under {path}")
            found.extend(tests)
        elif path.is_file():
            if path.suffix != ".test":
                raise GradingError(f"not a .test file: {path}")
            found.append(path)
        else:
            raise GradingError(f"no such test file or folder: {path}")
    return list(dict.fromkeys(found))


def grade(paths: Sequence[str | Path], agents_module: str | ModuleType | None = None
          ) -> GradeReport:
    """Grade every test under `paths` with the agents of `agents_module` (default: ours).

    Raises `GradingError` for a missing path, a folder without tests, or agents that cannot be
    imported; a broken test file is an `ERROR` result and the run goes on.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    tests = collect_test_files(paths)
    module = load_agents_module(agents_module)
    return GradeReport(tuple(_grade_file(path, module) for path in tests))


def _grade_file(path: Path, module: ModuleType) -> CaseResult:
    try:
        test = parse_file(path)
        if test.disabled:
            return CaseResult(path=path, status=CaseStatus.SKIPPED, message="disabled")
        if not solution_path(path).is_file():
            raise TestCaseError(path, None, f"no solution file {solution_path(path).name}")
        case = case_from_files(test, parse_file(solution_path(path)))
    except TestCaseError as error:
        return CaseResult(path=path, status=CaseStatus.ERROR, message=str(error))
    return run_case(case, module)
