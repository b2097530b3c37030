"""Turn grading results into the text the CLI prints (this module builds strings, never prints)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pacman.grading.grader import CaseResult, CaseStatus, GradeReport
from pacman.grading.results import QuestionResult, SubmissionReport, TestResult, TestStatus

__all__ = ["csv_row", "format_case", "format_class_table", "format_own_cases",
           "format_question_end", "format_question_start", "format_summary", "format_test",
           "format_totals", "gradescope_results"]

_LABELS = {CaseStatus.PASSED: "PASS", CaseStatus.FAILED: "FAIL", CaseStatus.ERROR: "ERROR",
           CaseStatus.SKIPPED: "SKIP"}


def format_case(result: CaseResult) -> str:
    """One line for a passed or skipped case; the full explanation for a failed one."""
    label = _LABELS[result.status]
    if result.status is CaseStatus.PASSED:
        return f"{label} {result.path}"
    if result.status is CaseStatus.SKIPPED:
        return f"{label} {result.path} ({result.message})"
    if result.status is CaseStatus.ERROR:
        return f"{label} {result.message}"
    lines = [f"{label} {result.path} ({result.alg}, depth {result.depth})"]
    if result.message:
        lines.append(f"  problem:   {result.message}")
    if result.actual_action is not None or result.expected_action is not None:
        actual = result.actual_action if result.actual_action is not None else "(none)"
        lines.append(f"  action:    expected {result.expected_action}, got {actual}")
    lines.append(f"  generated: expected {_names(result.expected_generated)}")
    lines.append(f"             got      {_names(result.actual_generated)}")
    if result.missing:
        lines.append(f"             missing  {_names(result.missing)}")
    if result.extra:
        lines.append(f"             extra    {_names(result.extra)}")
    if result.departure:
        lines.append(f"             first    {result.departure}")
    lines.extend(f"  hint:      {hint}" for hint in result.hints)
    if result.diagram.strip():
        lines.append("  diagram:")
        lines.extend(f"    {line}".rstrip() for line in result.diagram.strip("\n").split("\n"))
    return "\n".join(lines)


def format_summary(report: GradeReport) -> str:
    """The failed cases by name, then `N passed, M failed` (and `, K skipped` if any)."""
    lines = []
    failed = [r for r in report.results if r.status in (CaseStatus.FAILED, CaseStatus.ERROR)]
    if failed:
        lines.append("failed:")
        lines.extend(f"  {r.path}" for r in failed)
    closing = f"{report.passed} passed, {report.failed} failed"
    if report.skipped:
        closing += f", {report.skipped} skipped"
    lines.append(closing)
    return "\n".join(lines)


def _names(names: Iterable[str]) -> str:
    return " ".join(sorted(names)) or "(none)"


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


def format_own_cases(report: SubmissionReport, views: dict[str, str] | None = None) -> str:
    """Our own cases (no points): `PASS path` or the explanation, then `N passed, M failed`;
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
    passed = sum(t.passed for t in report.tests)
    skipped = sum(t.status is TestStatus.SKIPPED for t in report.tests)
    failed = len(report.tests) - passed - skipped
    failing = [t.test for t in report.tests if t.status not in (TestStatus.PASS,
                                                                   TestStatus.SKIPPED)]
    if failing:
        lines.append("failed:")
        lines.extend(f"  {name}" for name in failing)
    closing = f"{passed} passed, {failed} failed"
    if skipped:
        closing += f", {skipped} skipped"
    lines.append(closing)
    return "\n".join(lines)


_LABELS_OWN = {TestStatus.ERROR: "ERROR", TestStatus.SKIPPED: "SKIP",
               TestStatus.CRASH: "CRASH", TestStatus.TIMEOUT: "TIMEOUT"}


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
