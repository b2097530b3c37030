"""Grade one submission against a suite, in this process: tests in order, questions' points.

This is what runs inside a grading worker (`pacman.grading.running.worker`); the isolated
runner around it adds the hard time and memory limits. Hooks report each test as it starts and
ends, so a worker killed half-way loses nothing that finished. `grade_in_process` is the same
without a worker: no hard limits, for a debugger.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from pacman.errors import GradingError, StudentCodeError, TestCaseError
from pacman.grading.cases import eval_case, game_case, tree_case
from pacman.grading.cases.parser import parse_file
from pacman.grading.cases.suite import Question, Suite
from pacman.grading.reports.results import (
    STOPS_QUESTION,
    QuestionResult,
    SubmissionReport,
    TestResult,
    TestStatus,
    question_points,
)
from pacman.grading.running.contestant import Contestant, Graded
from pacman.grading.running.tree_run import describe_exception
from pacman.interrupts import is_user_interrupt

__all__ = ["TEST_CLASSES", "grade_in_process", "grade_question", "grade_suite",
           "relative_name", "run_test", "submission_name"]

#: The test classes the grader runs.
TEST_CLASSES = (tree_case.CLASS, game_case.CLASS, eval_case.CLASS)

TestHook = Callable[[Question, Path], None]
ResultHook = Callable[[Question, TestResult], None]


def relative_name(suite: Suite, path: Path) -> str:
    """How reports name a test: its path from the folder that holds the suite (a link is named
    where it is, not where it points, and a loop of links does not stop the naming)."""
    try:
        where = path.parent.resolve() / path.name
        return str(where.relative_to(suite.root.resolve().parent))
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a loop, before Python 3.13
        return str(path)


def run_test(suite: Suite, path: Path, contestant: Graded) -> TestResult:
    """Run one test file; nothing it does escapes as an exception (but Ctrl-C)."""
    relative = relative_name(suite, path)
    started = time.perf_counter()
    try:
        test = parse_file(path)
        kind = test.get("class")
        if test.disabled:
            result = TestResult(relative, kind.value if kind else "", TestStatus.SKIPPED,
                                messages=("disabled",))
        elif kind is None:
            raise TestCaseError(path, None, 'missing key "class"')
        elif kind.value == tree_case.CLASS:
            result = tree_case.run(path, test, contestant, relative, suite.classic)
        elif kind.value == game_case.CLASS:
            result = game_case.run(path, test, contestant, relative, suite.strict)
        elif kind.value == eval_case.CLASS:
            result = eval_case.run(path, test, contestant, relative)
        else:
            raise TestCaseError(path, kind.line, f'unknown test class "{kind.value}" '
                                f"(known: {', '.join(TEST_CLASSES)})")
    except TestCaseError as error:
        result = TestResult(relative, "", TestStatus.ERROR, messages=(str(error),))
    except BaseException as error:  # the code under test raised outside a game
        if is_user_interrupt(error):
            raise
        result = TestResult(relative, "", TestStatus.CRASH,
                            messages=(f"Exception raised: {describe_exception(error)}",))
    return replace(result, seconds=time.perf_counter() - started)


def grade_question(suite: Suite, question: Question, contestant: Graded,
                   on_start: TestHook | None = None,
                   on_result: ResultHook | None = None) -> QuestionResult:
    """Run a question's tests in order and add up its points."""
    started = time.perf_counter()
    if question.problem:
        return QuestionResult(question.name, question.question_class, 0, question.max_points,
                              messages=(question.problem,))
    results: list[TestResult] = []
    stopped: TestResult | None = None
    for path in question.tests:
        if stopped is not None:
            results.append(TestResult(relative_name(suite, path), "", TestStatus.NOT_RUN,
                                      messages=(f"not run: {stopped.test} ended the "
                                                "question",)))
            continue
        if on_start is not None:
            on_start(question, path)
        result = run_test(suite, path, contestant)
        results.append(result)
        if on_result is not None:
            on_result(question, result)
        if suite.classic and (result.status in STOPS_QUESTION or (
                question.question_class == "PartialCreditQuestion"
                and result.status in (TestStatus.FAIL, TestStatus.ERROR))):
            stopped = result
    tests = tuple(results)
    points = question_points(question.question_class, question.max_points, tests)
    return QuestionResult(question.name, question.question_class, points, question.max_points,
                          tests, seconds=time.perf_counter() - started)


def grade_suite(suite: Suite, contestant: Graded, on_start: TestHook | None = None,
                on_result: ResultHook | None = None,
                on_question: Callable[[QuestionResult], None] | None = None,
                ) -> list[QuestionResult]:
    """Grade every question in order; a question whose `depends` are not complete is skipped
    with a note, as the classic grader does."""
    done: list[QuestionResult] = []
    complete: set[str] = set()
    for question in suite.questions:
        missing = [d for d in question.depends if d not in complete]
        if missing:
            result = QuestionResult(
                question.name, question.question_class, 0, question.max_points,
                messages=(f"NOTE: complete question {missing[0]} before question "
                          f"{question.name}, which builds upon it",))
        else:
            result = grade_question(suite, question, contestant, on_start, on_result)
        if result.points >= result.max_points:
            complete.add(question.name)
        done.append(result)
        if on_question is not None:
            on_question(result)
    return done


def submission_name(submission: str | Path | ModuleType | None) -> str:
    """How a report names the code under test when no name is given."""
    if submission is None:
        return "built-in agents"
    return submission.__name__ if isinstance(submission, ModuleType) else str(submission)


def grade_in_process(suite: Suite, submission: str | Path | ModuleType | None = None,
                     name: str | None = None,
                     on_test: Callable[[str, TestResult], None] | None = None,
                     on_question: Callable[[QuestionResult], None] | None = None,
                     agent_random: str = "shared") -> SubmissionReport:
    """Grade `submission` (a `.py` file, a module or its name, or None for our agents) on
    `suite` in this process, without hard limits; one that cannot be loaded is a report with
    that `error`, as from a worker. `on_test` gets the question's name and each test's result;
    `agent_random`: where an agent test's agent draws ("own" or "shared",
    `pacman.cs188.randomness`)."""
    started = time.perf_counter()
    name = name or submission_name(submission)
    try:
        contestant = Contestant(submission, agent_random)
    except (GradingError, StudentCodeError) as error:
        return SubmissionReport(name, (), str(error), classic=suite.classic)

    def on_result(question: Question, result: TestResult) -> None:
        if on_test is not None:
            on_test(question.name, result)

    questions = grade_suite(suite, contestant, None, on_result, on_question)
    return SubmissionReport(name, tuple(questions), "", "", time.perf_counter() - started,
                            suite.classic)
