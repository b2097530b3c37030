"""Grade one submission in a child process with hard limits, and keep every result it sent.

A worker (`pacman.grading.running.worker`) grades the questions in order and reports each test
as it ends. The parent holds the clock: a test over `test_seconds`, or a question over
`question_seconds`, gets its worker killed and is recorded as `timeout` (0 points for the
question). A test's own classic limits come first: an agent test may run as long as the classic
autograder lets it (`maxTime` per game, `numGames` games: `classic_time_bound`, plus a margin
of `CLASSIC_MARGIN` for the ghosts and the game itself), even past `test_seconds`, and its
question's limit grows by the same amount. The classic limits inside the test still end a
late game as timed out, as in CS188. A worker that dies (the memory cap, a kill from outside;
the submission itself runs in a host process of the worker's, `pacman.grading.running.hosted`)
is recorded as that test's `crash` with the reason. Either way a
fresh worker takes the questions that are left, so one bad question costs only itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pacman.errors import TestCaseError
from pacman.grading.cases.eval_case import classic_time_bound
from pacman.grading.cases.parser import parse_file
from pacman.grading.cases.suite import Question, Suite
from pacman.grading.reports.results import (
    QuestionResult,
    SubmissionReport,
    TestResult,
    TestStatus,
    question_points,
)
from pacman.grading.running.session import relative_name, submission_name
from pacman.hosting.isolation import Child, ChildDied, Limits

__all__ = ["DEFAULT_LIMITS", "HardLimits", "grade_isolated"]

WORKER = "pacman.grading.running.worker"
#: what a test's classic bound is stretched by before its worker is killed: the ghosts' moves
#: and the game's own work are not in the agent's `maxTime` (a factor, then seconds)
CLASSIC_MARGIN = (1.25, 5.0)


@dataclass(frozen=True)
class HardLimits:
    """The limits a submission runs under (seconds of wall time, MB of address space)."""

    test_seconds: float = 120.0
    question_seconds: float = 300.0
    memory_mb: int | None = 2048


#: The limits of `pacman grade` without options: 120 s a test, 300 s a question, 2 GB.
DEFAULT_LIMITS = HardLimits()

def _cut_short(suite: Suite, question: Question, finished: list[TestResult],
               current: str | None, status: TestStatus, reason: str,
               seconds: float) -> QuestionResult:
    """The result of a question whose worker was killed or died during test `current`."""
    tests = list(finished)
    names = [relative_name(suite, path) for path in question.tests]
    done = {t.test for t in tests}
    for name in names:
        if name in done:
            continue
        if name == current:
            tests.append(TestResult(name, "", status, messages=(reason,)))
        else:
            tests.append(TestResult(name, "", TestStatus.NOT_RUN,
                                    messages=(f"not run: {reason}",)))
    if current is None:  # between tests: the question itself carries the reason
        return QuestionResult(question.name, question.question_class, 0, question.max_points,
                              tuple(tests), (reason,), seconds)
    points = question_points(question.question_class, question.max_points, tuple(tests))
    return QuestionResult(question.name, question.question_class, points, question.max_points,
                          tuple(tests), (), seconds)


def grade_isolated(suite: Suite, submission: str | Path | None,
                   limits: HardLimits = DEFAULT_LIMITS, name: str | None = None,
                   on_test: Callable[[str, TestResult], None] | None = None,
                   on_question: Callable[[QuestionResult], None] | None = None,
                   agent_random: str = "shared") -> SubmissionReport:
    """Grade `submission` (a `.py` file, or None for our agents) on `suite` in worker processes
    under `limits`; `on_test` gets the question's name and each test's result; `agent_random`:
    where an agent test's agent draws (`pacman.cs188.randomness`: "own" or "shared")."""
    started = time.perf_counter()
    remaining = [q for q in suite.questions]
    results: dict[str, QuestionResult] = {}
    outputs: list[str] = []
    error = ""
    while remaining:
        child = Child(WORKER, Limits(memory_mb=limits.memory_mb))
        try:
            # the paths as given (the worker shares our folder): questions keep their names
            child.send({"paths": list(suite.paths) or [str(suite.root)],
                        "questions": [q.name for q in remaining],
                        "submission": None if submission is None else str(
                            Path(submission).resolve()),
                        "memory_mb": limits.memory_mb, "agent_random": agent_random})
            error = _serve(child, suite, remaining, results, limits, on_test, on_question)
        except ChildDied as died:  # it died before reading the request
            error = f"the grading process ended at once ({died.reason})"
        finally:
            outputs.append(child.close())
        if error:
            for question in remaining:
                result = QuestionResult(question.name, question.question_class, 0,
                                        question.max_points, messages=(error,))
                results[question.name] = result
                if on_question is not None:
                    on_question(result)
            remaining = []
        remaining = [q for q in remaining if q.name not in results]
    return SubmissionReport(
        name or submission_name(submission), tuple(results[q.name] for q in suite.questions),
        error, "".join(outputs), time.perf_counter() - started, suite.classic)


def _serve(child: Child, suite: Suite, remaining: list[Question],
           results: dict[str, QuestionResult], limits: HardLimits,
           on_test: Callable[[str, TestResult], None] | None,
           on_question: Callable[[QuestionResult], None] | None) -> str:
    """Follow one worker until it is done, killed or dead; returns a load error or ""."""
    by_name = {q.name: q for q in remaining}
    test_allowed, question_allowed = limits.test_seconds, limits.question_seconds
    bounds: dict[str, float] = {}
    question: Question | None = None
    question_started = test_started = time.monotonic()
    current: str | None = None
    finished: list[TestResult] = []
    loaded = False

    def record(result: QuestionResult) -> None:
        results[result.name] = result
        if on_question is not None:
            on_question(result)

    while True:
        now = time.monotonic()
        deadline = test_started + test_allowed
        if question is not None:
            deadline = min(deadline, question_started + question_allowed)
        try:
            message = child.receive(max(0.0, deadline - now))
        except ChildDied as died:
            # the code under test runs in a host of the worker's; the worker itself ends only
            # by the memory cap, a kill from outside, or a bug of ours (or the code's, with
            # our own agents in the worker)
            reason = f"the grading process died ({died.reason})"
            if not loaded:
                return f"loading the submission ended the grading process ({died.reason})"
            # between questions, the next one takes the blame (so a restart makes progress)
            victim = question or next((q for q in remaining if q.name not in results), None)
            if victim is not None:
                record(_cut_short(suite, victim, finished, current, TestStatus.CRASH, reason,
                                  time.monotonic() - question_started))
            return ""
        if message is None:  # a deadline passed
            child.kill()
            if not loaded:
                return f"loading the submission took over {limits.test_seconds:g}s"
            over_question = question is not None and (
                time.monotonic() - question_started >= question_allowed)
            reason = (f"over the time limit of {question_allowed:g}s per question"
                      if over_question else
                      f"over the time limit of {test_allowed:g}s per test")
            victim = question or next((q for q in remaining if q.name not in results), None)
            if victim is not None:
                record(_cut_short(suite, victim, finished, current, TestStatus.TIMEOUT, reason,
                                  time.monotonic() - question_started))
            return ""
        event = message.get("event")
        if event == "loaded":
            loaded = True
            test_started = time.monotonic()
        elif event == "load_failed":
            return str(message.get("error", "the submission could not be loaded"))
        elif event == "question_start":
            question = by_name[str(message["question"])]
            question_started = time.monotonic()
            finished, current = [], None
            bounds = classic_bounds(suite, question, limits)
            question_allowed = limits.question_seconds + sum(
                bound - limits.test_seconds for bound in bounds.values())
        elif event == "test_start":
            current = str(message["test"])
            test_started = time.monotonic()
            test_allowed = bounds.get(current, limits.test_seconds)
        elif event == "test_done":
            result = TestResult.from_dict(message["result"])
            finished.append(result)
            current = None
            test_started = time.monotonic()
            test_allowed = limits.test_seconds
            if on_test is not None:
                on_test(str(message["question"]), result)
        elif event == "question_done":
            record(QuestionResult.from_dict(message["result"]))
            question, current, finished = None, None, []
            test_started = time.monotonic()
            test_allowed, question_allowed = limits.test_seconds, limits.question_seconds
        elif event == "done":
            return ""


def classic_bounds(suite: Suite, question: Question, limits: HardLimits) -> dict[str, float]:
    """The tests of `question` whose classic limits allow more than `limits.test_seconds`, by
    name, with the seconds they get (the classic bound stretched by `CLASSIC_MARGIN`)."""
    factor, seconds = CLASSIC_MARGIN
    bounds: dict[str, float] = {}
    for path in question.tests:
        try:
            bound = classic_time_bound(parse_file(path))
        except TestCaseError:  # a broken file: running it says so
            continue
        if bound is not None and bound * factor + seconds > limits.test_seconds:
            bounds[relative_name(suite, path)] = bound * factor + seconds
    return bounds
