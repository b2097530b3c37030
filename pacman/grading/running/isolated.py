"""Grade one submission in a child process with hard limits, and keep every result it sent.

A worker (`pacman.grading.running.worker`) grades the questions in order and reports each test
as it ends. The parent holds the clock: a test over `test_seconds`, or a question over
`question_seconds`, gets its worker killed and is recorded as `timeout` (0 points for the
question). A test's own classic limits come first: an agent test may run as long as the classic
autograder lets it (`maxTime` per game, `numGames` games: `classic_time_bound`, plus a margin
of `CLASSIC_MARGIN` for the ghosts and the game itself), even past `test_seconds`, and its
question's limit grows by the same amount; unless the teacher gave the limits (`hard_test`,
`hard_question`): then they cap every test and question. The classic limits inside the test
still end a late game as timed out, as in CS188. `student_seconds` caps a whole submission:
the questions it leaves are not run. A worker that dies (the memory cap, a kill from outside;
the submission itself runs in a host process of the worker's, `pacman.grading.running.hosted`)
is recorded as that test's `crash` with the reason. Either way a
fresh worker takes the questions that are left, so one bad question costs only itself.
"""

from __future__ import annotations

import os
import select
import signal
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
from pacman.grading.running.stalls import STALL_FD_ENV, WAIT_SECONDS
from pacman.hosting.isolation import Child, ChildDied, ProcessLimits, printable
from pacman.limits import LOAD_SECONDS_MIN

__all__ = ["DEFAULT_LIMITS", "HardLimits", "grade_isolated"]

WORKER = "pacman.grading.running.worker"
#: what a test's classic bound is stretched by before its worker is killed: the ghosts' moves
#: and the game's own work are not in the agent's `maxTime` (a factor, then seconds)
CLASSIC_MARGIN = (1.25, 5.0)


@dataclass(frozen=True)
class HardLimits:
    """The limits a submission runs under (seconds of wall time, MB of address space)."""

    #: wall time of one test (and of loading the submission: `load_seconds`)
    test_seconds: float = 120.0
    #: wall time of one question's tests together
    question_seconds: float = 300.0
    #: address space of the graded code, None for no cap
    memory_mb: int | None = 2048
    #: True when the teacher gave `test_seconds`: it caps every test, agent tests included;
    #: False keeps the classic semantics (an agent test may run `classic_time_bound` seconds)
    hard_test: bool = False
    #: True when the teacher gave `question_seconds`: it caps every question; False lets a
    #: question grow by what its agent tests' classic bounds add
    hard_question: bool = False
    #: wall time of a whole submission, all its questions and restarts; None for no cap
    student_seconds: float | None = None

    @property
    def load_seconds(self) -> float:
        """Wall time of loading the submission (starting its host, importing its files):
        `test_seconds`, but never less than `pacman.limits.LOAD_SECONDS_MIN` (10 s), as for
        any agent's code: on a busy machine a host alone can take a second to start, and that
        is the grader's time, not the student's."""
        return max(self.test_seconds, LOAD_SECONDS_MIN)

    def worst_case(self, suite: Suite) -> float:
        """The longest one submission can take under these limits, in seconds: loading and
        each question's limit (a question may start a fresh worker, which loads again), or the
        student limit if it is shorter."""
        total = 0.0
        for question in suite.questions:
            total += self.load_seconds + self.question_limit(suite, question)
        if self.student_seconds is not None:
            total = min(total, self.student_seconds)
        return total

    def test_bounds(self, suite: Suite, question: Question) -> dict[str, float]:
        """The tests of `question` allowed more than `test_seconds` (`classic_bounds`), none
        when the teacher gave the test limit."""
        return {} if self.hard_test else classic_bounds(suite, question, self)

    def question_limit(self, suite: Suite, question: Question) -> float:
        """The seconds `question` may take: `question_seconds`, grown by what its tests'
        classic bounds add unless the teacher gave it (or the test limit)."""
        if self.hard_question:
            return self.question_seconds
        return self.question_seconds + sum(
            bound - self.test_seconds for bound in self.test_bounds(suite, question).values())


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
    student_deadline = None if limits.student_seconds is None else (
        time.monotonic() + limits.student_seconds)
    while remaining:
        stall_read, stall_write = os.pipe()  # where the worker says where the code is stuck
        try:
            child = Child(WORKER, ProcessLimits(memory_mb=limits.memory_mb),
                          env={**os.environ, STALL_FD_ENV: str(stall_write)},
                          pass_fds=(stall_write,))
        finally:
            os.close(stall_write)
        try:
            # the paths as given (the worker shares our folder): questions keep their names
            child.send({"paths": list(suite.paths) or [str(suite.root)],
                        "questions": [q.name for q in remaining],
                        "submission": None if submission is None else str(
                            Path(submission).resolve()),
                        "memory_mb": limits.memory_mb, "agent_random": agent_random,
                        "strict": suite.strict})
            error = _serve(child, suite, remaining, results, limits, on_test, on_question,
                           student_deadline, stall_read)
        except ChildDied as died:  # it died before reading the request
            error = f"the grading process ended at once ({died.reason})"
        finally:
            outputs.append(child.close())
            os.close(stall_read)
        if error:
            for question in remaining:
                result = QuestionResult(question.name, question.question_class, 0,
                                        question.max_points, messages=(error,))
                results[question.name] = result
                if on_question is not None:
                    on_question(result)
            remaining = []
        remaining = [q for q in remaining if q.name not in results]
        if remaining and student_deadline is not None and time.monotonic() >= student_deadline:
            reason = f"not run: over the time limit of {limits.student_seconds:g}s per student"
            for question in remaining:
                result = QuestionResult(question.name, question.question_class, 0,
                                        question.max_points, tuple(
                                            TestResult(relative_name(suite, path), "",
                                                       TestStatus.NOT_RUN, messages=(reason,))
                                            for path in question.tests), (reason,))
                results[question.name] = result
                if on_question is not None:
                    on_question(result)
            remaining = []
    return SubmissionReport(
        name or submission_name(submission), tuple(results[q.name] for q in suite.questions),
        error, "".join(outputs), time.perf_counter() - started, suite.classic)


def _serve(child: Child, suite: Suite, remaining: list[Question],
           results: dict[str, QuestionResult], limits: HardLimits,
           on_test: Callable[[str, TestResult], None] | None,
           on_question: Callable[[QuestionResult], None] | None,
           student_deadline: float | None = None, stall_read: int = -1) -> str:
    """Follow one worker until it is done, killed or dead; returns a load error or "".
    Before a worker is killed at a limit, it is asked where the code is stuck (`stall_read`:
    the pipe it answers on)."""
    by_name = {q.name: q for q in remaining}
    test_allowed, question_allowed = limits.load_seconds, limits.question_seconds
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
        if student_deadline is not None:
            deadline = min(deadline, student_deadline)
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
            where = _where_stuck(child, stall_read)
            child.kill()
            if not loaded:
                stuck = f"; {where}" if where else ""
                if student_deadline is not None and time.monotonic() >= student_deadline:
                    return (f"loading the submission ran past the time limit of "
                            f"{limits.student_seconds:g}s per student{stuck}")
                return f"loading the submission took over {limits.load_seconds:g}s{stuck}"
            now = time.monotonic()
            over_question = question is not None and now - question_started >= question_allowed
            if student_deadline is not None and now >= student_deadline:
                reason = f"over the time limit of {limits.student_seconds:g}s per student"
            elif over_question:
                reason = f"over the time limit of {question_allowed:g}s per question"
            else:
                reason = f"over the time limit of {test_allowed:g}s per test"
            if where:
                reason = f"{reason}; {where}"
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
            bounds = limits.test_bounds(suite, question)
            question_allowed = limits.question_limit(suite, question)
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


def _where_stuck(child: Child, stall_read: int) -> str:
    """Ask a worker about to be killed where the submission's code is (its one line on the
    stall pipe), waiting a little longer than the worker waits for its host."""
    if stall_read < 0 or child.process.poll() is not None:
        return ""
    try:
        os.kill(child.process.pid, signal.SIGUSR1)
    except OSError:
        return ""
    deadline = time.monotonic() + WAIT_SECONDS + 1.0
    data = b""
    while b"\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([stall_read], [], [], left)[0]:
            return ""
        chunk = os.read(stall_read, 4096)
        if not chunk:
            return ""
        data += chunk
    return printable(data.partition(b"\n")[0].decode("utf-8", "replace").strip())[:2000]


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
