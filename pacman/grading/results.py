"""What grading produces: a result per test, per question and per submission (plain data).

Everything here is JSON-ready through `to_dict`; `pacman.grading.report` turns it into text,
our JSON report, CSV rows and Gradescope's `results.json`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from enum import Enum
from typing import Any

__all__ = ["QuestionResult", "SubmissionReport", "TestResult", "TestStatus", "question_points"]


class TestStatus(str, Enum):
    """How one test ended."""

    __test__ = False  # not a pytest test class, despite the name

    PASS = "pass"          # full marks for the test
    PARTIAL = "partial"    # a points test that earned some of its points (it did not fail)
    FAIL = "fail"          # the code under test behaved wrongly
    CRASH = "crash"        # the code under test raised or its process died
    TIMEOUT = "timeout"    # over a time limit (in the test, or the grader's hard limit)
    ERROR = "error"        # the test or its solution file is unusable (the teacher's side)
    SKIPPED = "skipped"    # `disabled: "true"`
    NOT_RUN = "not run"    # an earlier test of its question ended the question

    def __str__(self) -> str:
        return str(self.value)


#: Statuses that end a question at once (the classic grader stops a question on an exception).
STOPS_QUESTION = (TestStatus.CRASH, TestStatus.TIMEOUT)


@dataclass(frozen=True)
class TestResult:
    """One test: its status, the points it adds (points tests only), and what it says."""

    __test__ = False

    test: str                       # the test file, relative to the suite's root
    test_class: str
    status: TestStatus
    points: int = 0
    max_points: int = 0
    messages: tuple[str, ...] = ()
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """True if the test passed outright."""
        return self.status is TestStatus.PASS


@dataclass(frozen=True)
class QuestionResult:
    """One question: its tests and the points they add up to under its class's rule."""

    name: str
    question_class: str
    points: int
    max_points: int
    tests: tuple[TestResult, ...] = ()
    messages: tuple[str, ...] = ()
    seconds: float = 0.0


def question_points(question_class: str, max_points: int,
                    tests: tuple[TestResult, ...]) -> int:
    """The classic rules: `PassAllTestsQuestion` is all or nothing; `PartialCreditQuestion`
    sums its tests' points, and any failed test makes it 0; `NumberPassedQuestion` counts the
    passed tests. Disabled tests do not count."""
    counted = [t for t in tests if t.status is not TestStatus.SKIPPED]
    if question_class == "PassAllTestsQuestion":
        return max_points if counted and all(t.passed for t in counted) else 0
    if question_class == "PartialCreditQuestion":
        if any(t.status not in (TestStatus.PASS, TestStatus.PARTIAL) for t in counted):
            return 0
        return sum(t.points for t in counted)
    if question_class == "NumberPassedQuestion":
        return sum(t.passed for t in counted)
    return 0


@dataclass(frozen=True)
class SubmissionReport:
    """Everything one submission got: questions with points, the total, and its own output."""

    submission: str
    questions: tuple[QuestionResult, ...] = ()
    #: why the submission could not be graded at all (e.g. a syntax error), or ""
    error: str = ""
    #: what the submission's code printed (stdout and stderr), possibly shortened
    output: str = ""
    seconds: float = 0.0
    classic: bool = True
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """Points over all questions."""
        return sum(q.points for q in self.questions)

    @property
    def max_total(self) -> int:
        """What all questions are worth."""
        return sum(q.max_points for q in self.questions)

    @property
    def tests(self) -> tuple[TestResult, ...]:
        """Every test result, in order."""
        return tuple(t for q in self.questions for t in q.tests)

    def with_output(self, output: str) -> SubmissionReport:
        """The same report with the submission's captured output."""
        return replace(self, output=output)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (statuses as strings)."""
        data = asdict(self)
        data["total"], data["max_total"] = self.total, self.max_total
        for question in data["questions"]:
            for test in question["tests"]:
                test["status"] = str(test["status"])
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SubmissionReport:
        """The inverse of `to_dict`."""
        questions = tuple(
            QuestionResult(q["name"], q["question_class"], int(q["points"]),
                           int(q["max_points"]),
                           tuple(TestResult(t["test"], t["test_class"], TestStatus(t["status"]),
                                            int(t["points"]), int(t["max_points"]),
                                            tuple(t["messages"]), float(t["seconds"]))
                                 for t in q["tests"]),
                           tuple(q["messages"]), float(q.get("seconds", 0.0)))
            for q in data.get("questions", ()))
        return cls(str(data["submission"]), questions, str(data.get("error", "")),
                   str(data.get("output", "")), float(data.get("seconds", 0.0)),
                   bool(data.get("classic", True)), dict(data.get("extra", {})))
