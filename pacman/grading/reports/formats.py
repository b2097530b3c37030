"""Turn grading results into what people and tools read: the text the CLI prints, CSV rows and
Gradescope's `results.json` (this module builds strings and dicts, never prints)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pacman.grading.reports.results import (
    QuestionResult,
    SubmissionReport,
    TestResult,
    TestStatus,
    TreeVerdict,
)

__all__ = ["csv_row", "format_case", "format_class_table", "format_own_cases",
           "format_question_end", "format_question_start", "format_summary", "format_test",
           "format_totals", "gradescope_results", "tree_lines"]


# --- a tree test's explanation ----------------------------------------------------------------


def tree_lines(verdict: TreeVerdict) -> tuple[str, ...]:
    """A failed tree test explained, a line each: the problem, the expected and actual action
    and nodes, their difference and first departure, the hints, and the test's diagram."""
    lines = []
    if verdict.problem:
        lines.append(f"  problem:   {verdict.problem}")
    actual = verdict.actual_action if verdict.actual_action is not None else "(none)"
    lines.append(f"  action:    expected {verdict.expected_action}, got {actual}")
    lines.append(f"  generated: expected {_names(verdict.expected_generated)}")
    lines.append(f"             got      {_names(verdict.actual_generated)}")
    if verdict.missing:
        lines.append(f"             missing  {_names(verdict.missing)}")
    if verdict.extra:
        lines.append(f"             extra    {_names(verdict.extra)}")
    if verdict.departure:
        lines.append(f"             first    {verdict.departure}")
    lines.extend(f"  hint:      {hint}" for hint in verdict.hints)
    if verdict.diagram.strip():
        lines.append("  diagram:")
        lines.extend(f"    {line}".rstrip() for line in verdict.diagram.strip("\n").split("\n"))
    return tuple(lines)


def _names(names: Iterable[str]) -> str:
    return " ".join(sorted(names)) or "(none)"


# --- our own cases: pass or fail, no points ---------------------------------------------------

_LABELS_OWN = {TestStatus.PASS: "PASS", TestStatus.ERROR: "ERROR", TestStatus.SKIPPED: "SKIP",
               TestStatus.CRASH: "CRASH", TestStatus.TIMEOUT: "TIMEOUT"}


def format_case(result: TestResult) -> str:
    """One test on its own: a line for a pass, a skip or an unusable file; a failure with its
    explanation (a tree test's first line names its algorithm and depth)."""
    label = _LABELS_OWN.get(result.status, "FAIL")
    if result.status is TestStatus.PASS:
        return f"{label} {result.test}"
    if result.status is TestStatus.SKIPPED:
        return f"{label} {result.test} ({'; '.join(result.messages)})"
    if result.status is TestStatus.ERROR:
        return f"{label} {'; '.join(result.messages)}"
    head = f"{label} {result.test}"
    if result.tree is not None:
        head += f" ({result.tree.alg}, depth {result.tree.depth})"
    return "\n".join([head, *result.messages])


def format_own_cases(report: SubmissionReport, views: dict[str, str] | None = None) -> str:
    """Our own cases (no points): `PASS path` or the explanation, then `format_summary`;
    `views` maps a test to its tree view page, named on its line."""
    lines = []
    views = views or {}
    for test in report.tests:
        if test.status is TestStatus.PASS:
            lines.append(f"PASS {test.test}")
        else:
            view = f" (tree view: {views[test.test]})" if views.get(test.test) else ""
            lines.append(f"{_LABELS_OWN.get(test.status, 'FAIL')} {test.test}{view}")
            lines.extend(f"  {message}".rstrip() for message in test.messages)
    lines.append(format_summary(report))
    return "\n".join(lines)


def format_summary(report: SubmissionReport) -> str:
    """The tests that did not pass, by name, then `N passed, M failed` (and `, K skipped`)."""
    lines = []
    failing = [t.test for t in report.tests if t.status not in (TestStatus.PASS,
                                                                   TestStatus.SKIPPED)]
    if failing:
        lines.append("failed:")
        lines.extend(f"  {name}" for name in failing)
    closing = f"{report.passed} passed, {report.failed} failed"
    if report.skipped:
        closing += f", {report.skipped} skipped"
    lines.append(closing)
    return "\n".join(lines)


# --- classic suites: points per question -----------------------------------------------------

_CLASSIC_LABELS = {TestStatus.PASS: "PASS", TestStatus.PARTIAL: "FAIL", TestStatus.FAIL: "FAIL",
                   TestStatus.CRASH: "FAIL", TestStatus.TIMEOUT: "FAIL",
                   TestStatus.ERROR: "ERROR", TestStatus.SKIPPED: "SKIP",
                   TestStatus.NOT_RUN: "NOT RUN"}


def format_test(result: TestResult, verbose: bool = False, view: str = "") -> str:
    """A test as the classic grader prints it: `*** PASS: path`, then its messages (always for
    a failure, for a pass only when `verbose` or when it earned points); `view` (a tree view
    page's path) ends the first line."""
    label = _CLASSIC_LABELS[result.status]
    head = f"*** {label}: {result.test}"
    if result.status in (TestStatus.CRASH, TestStatus.TIMEOUT):
        head += f" ({result.status})"
    if result.max_points:
        head += f" ({result.points} of {result.max_points} points)"
    if view:
        head += f" (tree view: {view})"
    show = result.status is not TestStatus.PASS or verbose or result.max_points
    lines = [head]
    if show:
        lines.extend(f"***     {message}".rstrip() for message in result.messages)
    return "\n".join(lines)


def format_question_start(name: str) -> str:
    """The heading the classic grader prints before a question."""
    return f"\nQuestion {name}\n{'=' * (9 + len(name))}"


def format_question_end(result: QuestionResult) -> str:
    """A question's own notes and its `### Question q2: 5/5 ###` line."""
    lines = [f"*** {message}" for message in result.messages]
    lines.append(f"\n### Question {result.name}: {result.points}/{result.max_points} ###\n")
    return "\n".join(lines)


def format_totals(report: SubmissionReport) -> str:
    """The closing table: every question's points and `Total: x/25`."""
    lines = [f"Finished in {report.seconds:.1f}s", "", "Provisional grades",
             "=================="]
    lines.extend(f"Question {q.name}: {q.points}/{q.max_points}" for q in report.questions)
    lines += ["------------------", f"Total: {report.total}/{report.max_total}"]
    return "\n".join(lines)


def gradescope_results(report: SubmissionReport) -> dict[str, Any]:
    """The submission in Gradescope's `results.json` format: one entry per question."""
    tests = []
    for question in report.questions:
        output = [format_test(t) for t in question.tests] + list(question.messages)
        tests.append({
            "name": f"Question {question.name}", "score": question.points,
            "max_score": question.max_points,
            "status": "passed" if question.points >= question.max_points else "failed",
            "output": "\n".join(output)})
    text = f"Total score ({report.total} / {report.max_total})"
    if report.error:
        text += f"\n{report.error}"
    return {"score": report.total, "output": text, "execution_time": round(report.seconds, 2),
            "tests": tests, "stdout_visibility": "hidden"}


def csv_row(report: SubmissionReport, questions: Sequence[str]) -> list[str]:
    """`student, points per question..., total, max, note` for a class's CSV."""
    points = {q.name: q.points for q in report.questions}
    note = report.error or "; ".join(_notes(report))
    return [report.submission, *(str(points.get(name, "")) for name in questions),
            str(report.total), str(report.max_total), note]


def _notes(report: SubmissionReport) -> list[str]:
    """Why points were lost, briefly: `q2: timeout`, `q3: crash`, `q4: fail`."""
    notes = []
    for question in report.questions:
        if question.points >= question.max_points:
            continue
        statuses = [t.status for t in question.tests]
        for status in (TestStatus.TIMEOUT, TestStatus.CRASH, TestStatus.ERROR, TestStatus.FAIL,
                       TestStatus.PARTIAL):
            if status in statuses:
                note = str(status)
                if status is TestStatus.PARTIAL:
                    crashed = any("crashed" in m for t in question.tests for m in t.messages)
                    note = "games crashed" if crashed else "partial credit"
                notes.append(f"{question.name}: {note}")
                break
        else:
            if question.messages:
                notes.append(f"{question.name}: {question.messages[0][:60]}")
    return notes


def format_class_table(reports: Sequence[SubmissionReport], questions: Sequence[str]) -> str:
    """One line per student: points per question, total, and why points were lost."""
    header = ["student", *questions, "total", "notes"]
    rows = []
    for report in reports:
        points = {q.name: f"{q.points}/{q.max_points}" for q in report.questions}
        rows.append([report.submission, *(points.get(n, "-") for n in questions),
                     f"{report.total}/{report.max_total}",
                     report.error[:70] if report.error else "; ".join(_notes(report))])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    lines = []
    for row in [header, *rows]:
        cells = [cell.ljust(width) if i == 0 else cell.rjust(width)
                 for i, (cell, width) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells + [row[-1]]).rstrip())
    return "\n".join(lines)
