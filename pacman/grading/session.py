"""Grade one submission against a suite, in this process: tests in order, questions' points.

This is what runs inside a grading worker (`pacman.grading.worker`); the isolated runner around
it adds the hard time and memory limits. Hooks report each test as it starts and ends, so a
worker killed half-way loses nothing that finished.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from pacman.grading import eval_test, game_test, tree_test
from pacman.grading.contestant import Contestant
from pacman.grading.parser import TestCaseError, parse_file
from pacman.grading.results import (
    STOPS_QUESTION,
    QuestionResult,
    TestResult,
    TestStatus,
    question_points,
)
from pacman.grading.runner import describe_exception
from pacman.grading.suite import Question, Suite
from pacman.interrupts import is_user_interrupt

__all__ = ["TEST_CLASSES", "grade_question", "grade_suite", "relative_name", "run_test"]

#: The test classes the grader runs.
TEST_CLASSES = (tree_test.CLASS, game_test.CLASS, eval_test.CLASS)

TestHook = Callable[[Question, Path], None]
ResultHook = Callable[[Question, TestResult], None]


def relative_name(suite: Suite, path: Path) -> str:
    """How reports name a test: its path from the folder that holds the suite."""
    try:
        return str(path.resolve().relative_to(suite.root.resolve().parent))
    except ValueError:
        return str(path)


def run_test(suite: Suite, path: Path, contestant: Contestant) -> TestResult:
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
        elif kind.value == tree_test.CLASS:
            result = tree_test.run(path, test, contestant, relative, suite.classic)
        elif kind.value == game_test.CLASS:
            result = game_test.run(path, test, contestant, relative)
        elif kind.value == eval_test.CLASS:
            result = eval_test.run(path, test, contestant, relative)
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
    seconds = time.perf_counter() - started
    return TestResult(result.test, result.test_class, result.status, result.points,
                      result.max_points, result.messages, seconds)


def grade_question(suite: Suite, question: Question, contestant: Contestant,
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


def grade_suite(suite: Suite, contestant: Contestant, on_start: TestHook | None = None,
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
