"""What grading produces: a result per test, per question and per submission (plain data).

The one result model of the grader: every test class, our own cases and classic suites, in a
worker process or in this one, gives a `TestResult`. A tree test's also carries its
`TreeVerdict` (what the agent did against the solution, as data) in the process that ran it.
Everything is JSON-ready through `to_dict` (the verdict stays out: its text is in `messages`);
`pacman.grading.reports.formats` turns results into text, CSV rows and Gradescope's
`results.json`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any

__all__ = ["QuestionResult", "SubmissionReport", "TestResult", "TestStatus", "TreeVerdict",
           "question_points"]


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
class TreeVerdict:
    """A tree test's agent against its solution: what was expected, what the agent did, and
    what explains the difference (hints from the diagnostics, the first departure)."""

    alg: str
    depth: int
    expected_action: str
    expected_generated: frozenset[str]
    diagram: str = ""
    actual_action: str | None = None
    actual_generated: frozenset[str] = frozenset()
    duplicates: tuple[str, ...] = ()
    #: what is wrong, in one line ("" when the agent passed)
    problem: str = ""
    hints: tuple[str, ...] = ()
    #: the agent raised (the classic grader ends the question on an exception)
    crashed: bool = False
    #: the first node where the generated set departs from the expected one, explained
    departure: str = ""

    @property
    def missing(self) -> tuple[str, ...]:
        """Nodes the solution generates but the agent did not, sorted."""
        return tuple(sorted(self.expected_generated - self.actual_generated))

    @property
    def extra(self) -> tuple[str, ...]:
        """Nodes the agent generated but the solution does not, sorted."""
        return tuple(sorted(self.actual_generated - self.expected_generated))


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
    #: a tree test's verdict as data, in the process that ran it (not in `to_dict`)
    tree: TreeVerdict | None = field(default=None, compare=False, repr=False)

    @property
    def passed(self) -> bool:
        """True if the test passed outright."""
        return self.status is TestStatus.PASS

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the status as a string, without the tree verdict)."""
        return {"test": self.test, "test_class": self.test_class, "status": str(self.status),
                "points": self.points, "max_points": self.max_points,
                "messages": list(self.messages), "seconds": self.seconds}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TestResult:
        """The inverse of `to_dict`."""
        return cls(str(data["test"]), str(data["test_class"]), TestStatus(data["status"]),
                   int(data["points"]), int(data["max_points"]),
                   tuple(str(m) for m in data["messages"]), float(data["seconds"]))


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

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"name": self.name, "question_class": self.question_class,
                "points": self.points, "max_points": self.max_points,
                "tests": [t.to_dict() for t in self.tests], "messages": list(self.messages),
                "seconds": self.seconds}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> QuestionResult:
        """The inverse of `to_dict`."""
        return cls(str(data["name"]), str(data["question_class"]), int(data["points"]),
                   int(data["max_points"]),
                   tuple(TestResult.from_dict(t) for t in data["tests"]),
                   tuple(str(m) for m in data["messages"]), float(data.get("seconds", 0.0)))


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

    @property
    def passed(self) -> int:
        """Number of tests that passed outright."""
        return sum(t.passed for t in self.tests)

    @property
    def skipped(self) -> int:
        """Number of disabled tests."""
        return sum(t.status is TestStatus.SKIPPED for t in self.tests)

    @property
    def failed(self) -> int:
        """Number of tests that neither passed nor were skipped (unusable files included)."""
        return len(self.tests) - self.passed - self.skipped

    def with_output(self, output: str) -> SubmissionReport:
        """The same report with the submission's captured output."""
        return replace(self, output=output)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (statuses as strings)."""
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        data["questions"] = [q.to_dict() for q in self.questions]
        data["extra"] = dict(self.extra)
        data["total"], data["max_total"] = self.total, self.max_total
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SubmissionReport:
        """The inverse of `to_dict`."""
        return cls(str(data["submission"]),
                   tuple(QuestionResult.from_dict(q) for q in data.get("questions", ())),
                   str(data.get("error", "")), str(data.get("output", "")),
                   float(data.get("seconds", 0.0)), bool(data.get("classic", True)),
                   dict(data.get("extra", {})))
