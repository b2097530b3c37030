"""Grade one submission: in worker processes under hard limits (the default), or in this one.

The two calls a script needs: `grade_submission` for a suite found with `find_suite` (the
report says why a submission that cannot be loaded got nothing), and `grade` for a quick run of
test paths in this process, which raises when there is nothing to grade or the agents do not
import.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

from pacman.errors import GradingError
from pacman.grading.cases.suite import Suite, find_suite
from pacman.grading.reports.results import QuestionResult, SubmissionReport, TestResult
from pacman.grading.running.isolated import (
    DEFAULT_LIMITS,
    HardLimits,
    grade_isolated,
)
from pacman.grading.running.session import grade_in_process

__all__ = ["grade", "grade_submission"]


def grade_submission(suite: Suite, submission: str | Path | None = None,
                     limits: HardLimits | None = DEFAULT_LIMITS, name: str | None = None,
                     on_test: Callable[[str, TestResult], None] | None = None,
                     on_question: Callable[[QuestionResult], None] | None = None,
                     agent_random: str = "shared") -> SubmissionReport:
    """Grade `submission` (a `.py` file, or None for our agents) on `suite`: in worker
    processes under `limits`, or in this process with `limits=None` (no hard limits, for a
    debugger). `on_test` gets the question's name and each test's result as it ends,
    `on_question` each question's; `agent_random` is where an agent test's agent draws its
    random numbers: "shared" (the ghosts' stream, as the classic grader: the default) or
    "own" (a stream of its own; see `pacman.cs188.randomness`)."""
    if limits is None:
        return grade_in_process(suite, submission, name, on_test, on_question, agent_random)
    return grade_isolated(suite, submission, limits, name, on_test, on_question, agent_random)


def grade(paths: str | Path | Sequence[str | Path],
          agents: str | ModuleType | None = None) -> SubmissionReport:
    """Grade every test under `paths` with `agents` (a `.py` file, a module or its name; None
    for ours) in this process.

    Raises `GradingError` for a missing path, a folder without tests or a broken suite (a
    `SuiteError`, see `Suite.check`), or agents that cannot be imported; a test file that reads
    but says something wrong is an `ERROR` result and the run goes on.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    suite = find_suite(paths)
    suite.check()
    report = grade_in_process(suite, agents)
    if report.error:
        raise GradingError(report.error)
    return report
