"""The autograder: classic CS188 suites and our own tree cases, one submission or a whole class.

What a teacher's script needs is below; the package is grouped by job:

- `pacman.grading.cases`: the test-case formats (suites and `CONFIG`, the `.test` syntax, one
  module per test class, the ghosts field, writing solutions);
- `pacman.grading.running`: running and isolation (a submission in this process or in worker
  processes under hard limits, a class in parallel, the code under test, classic games);
- `pacman.grading.reference`: the reference searches (a test tree as a search state, the
  reference and staff searches, and what explains a failure);
- `pacman.grading.reports`: the results and their text, CSV and Gradescope forms;
- `pacman.grading.side_by_side`: a student's agent beside the expected search (`pacman explain`).

The names below are loaded on first use, so that a worker process, or `pacman explain` reading
one case, loads only the modules it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacman.lazy import lazy_exports

if TYPE_CHECKING:
    from pacman.errors import GradingError, SuiteError, TestCaseError
    from pacman.grading.cases.suite import EXAMPLE_SUITE, Question, Suite, find_suite
    from pacman.grading.reports.results import (
        QuestionResult,
        SubmissionReport,
        TestResult,
        TestStatus,
        TreeVerdict,
    )
    from pacman.grading.running.bulk import (
        Submission,
        find_submissions,
        grade_class,
        write_class_results,
    )
    from pacman.grading.running.isolated import HardLimits
    from pacman.grading.running.submission import grade, grade_submission

__all__ = [
    # what to grade
    "find_suite", "Suite", "Question", "EXAMPLE_SUITE",
    # grading one submission
    "grade_submission", "HardLimits", "grade",
    # grading a class
    "find_submissions", "Submission", "grade_class", "write_class_results",
    # results
    "SubmissionReport", "QuestionResult", "TestResult", "TestStatus", "TreeVerdict",
    # errors
    "GradingError", "SuiteError", "TestCaseError",
]

_HOMES = {
    "find_suite": "pacman.grading.cases.suite", "Suite": "pacman.grading.cases.suite",
    "Question": "pacman.grading.cases.suite", "EXAMPLE_SUITE": "pacman.grading.cases.suite",
    "grade_submission": "pacman.grading.running.submission",
    "grade": "pacman.grading.running.submission",
    "HardLimits": "pacman.grading.running.isolated",
    "find_submissions": "pacman.grading.running.bulk",
    "Submission": "pacman.grading.running.bulk", "grade_class": "pacman.grading.running.bulk",
    "write_class_results": "pacman.grading.running.bulk",
    "SubmissionReport": "pacman.grading.reports.results",
    "QuestionResult": "pacman.grading.reports.results",
    "TestResult": "pacman.grading.reports.results",
    "TestStatus": "pacman.grading.reports.results",
    "TreeVerdict": "pacman.grading.reports.results",
    "GradingError": "pacman.errors", "SuiteError": "pacman.errors",
    "TestCaseError": "pacman.errors",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOMES)
