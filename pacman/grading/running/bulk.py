"""Grade a class: every submission of a folder, in parallel, each in its own worker processes.

A submission is a folder (one per student, holding the agents file, `multiAgents.py` by
default, anywhere inside) or a `.py` file directly in the folder. Each is graded by
`grade_isolated` under the same hard limits; `-j` of them run at once. The results are written
as a CSV and a JSON of points per student and question, a text report per student (with what
their code printed), and, if asked, a Gradescope `results.json` per student.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from pacman.errors import GradingError
from pacman.grading.cases.suite import Suite
from pacman.grading.reports.formats import (
    csv_row,
    format_question_end,
    format_question_start,
    format_test,
    format_totals,
    gradescope_results,
)
from pacman.grading.reports.results import SubmissionReport
from pacman.grading.running.isolated import (
    DEFAULT_LIMITS,
    HardLimits,
    grade_isolated,
)

__all__ = ["Submission", "find_submissions", "grade_class", "write_class_results"]


@dataclass(frozen=True)
class Submission:
    """One student's code: their name and the agents file (None if the folder lacks one)."""

    name: str
    path: Path | None
    problem: str = ""


def find_submissions(folder: str | Path, agents_file: str = "multiAgents.py"
                     ) -> list[Submission]:
    """The submissions in `folder`, sorted by name."""
    root = Path(folder)
    if not root.is_dir():
        raise GradingError(f"no such submissions folder: {root}")
    found: list[Submission] = []
    for entry in sorted(root.iterdir(), key=lambda p: p.name):
        if entry.name.startswith((".", "__")):
            continue
        if entry.is_dir():
            direct = entry / agents_file
            candidates = [direct] if direct.is_file() else sorted(
                entry.rglob(agents_file), key=lambda p: (len(p.parts), str(p)))
            if candidates:
                found.append(Submission(entry.name, candidates[0]))
            else:
                found.append(Submission(entry.name, None, f"no {agents_file} in {entry}"))
        elif entry.suffix == ".py":
            found.append(Submission(entry.stem, entry))
    if not found:
        raise GradingError(f"no submissions in {root}: expected a folder per student (with "
                           f"{agents_file}) or .py files")
    seen: dict[str, int] = {}
    unique = []
    for submission in found:  # `alice/` and `alice.py` both: keep both, apart
        count = seen[submission.name] = seen.get(submission.name, 0) + 1
        name = submission.name if count == 1 else f"{submission.name}-{count}"
        unique.append(Submission(name, submission.path, submission.problem))
    return unique


def grade_class(suite: Suite, submissions: Sequence[Submission],
                limits: HardLimits = DEFAULT_LIMITS, jobs: int = 1,
                on_report: Callable[[SubmissionReport], None] | None = None,
                ) -> list[SubmissionReport]:
    """Grade every submission, `jobs` at a time, each in its own worker processes under
    `limits`; reports come back in the submissions' order (`on_report` gets each as it ends)."""
    reports: dict[str, SubmissionReport] = {}

    def grade_one(submission: Submission) -> SubmissionReport:
        if submission.path is None:
            return SubmissionReport(submission.name, (), submission.problem,
                                    classic=suite.classic)
        return grade_isolated(suite, submission.path, limits, submission.name)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(grade_one, s): s for s in submissions}
        for future in as_completed(futures):
            report = future.result()
            reports[futures[future].name] = report
            if on_report is not None:
                on_report(report)
    return [reports[s.name] for s in submissions]


def _safe_name(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", name) or "submission"


def submission_text(report: SubmissionReport, verbose: bool = False) -> str:
    """A student's full report: every question as the classic grader prints it, the totals,
    and what their code printed."""
    parts = [f"Submission: {report.submission}"]
    if report.error:
        parts.append(f"Could not be graded: {report.error}")
    for question in report.questions:
        parts.append(format_question_start(question.name))
        parts.extend(format_test(t, verbose) for t in question.tests)
        parts.append(format_question_end(question))
    parts.append(format_totals(report))
    if report.output:
        parts += ["", "What the submission printed:", report.output]
    return "\n".join(parts) + "\n"


def write_class_results(reports: Sequence[SubmissionReport], questions: Sequence[str],
                        out: str | Path, gradescope: bool = False) -> list[Path]:
    """Write `grades.csv`, `grades.json`, `reports/NAME.txt` (and `gradescope/NAME.json`) into
    `out`; returns the paths written."""
    folder = Path(out)
    (folder / "reports").mkdir(parents=True, exist_ok=True)
    written = []
    with (folder / "grades.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", *questions, "total", "max", "note"])
        for report in reports:
            writer.writerow(csv_row(report, questions))
    written.append(folder / "grades.csv")
    (folder / "grades.json").write_text(json.dumps([r.to_dict() for r in reports], indent=1)
                                        + "\n", encoding="utf-8")
    written.append(folder / "grades.json")
    for report in reports:
        path = folder / "reports" / f"{_safe_name(report.submission)}.txt"
        path.write_text(submission_text(report), encoding="utf-8")
    written.append(folder / "reports")
    if gradescope:
        (folder / "gradescope").mkdir(exist_ok=True)
        for report in reports:
            path = folder / "gradescope" / f"{_safe_name(report.submission)}.json"
            path.write_text(json.dumps(gradescope_results(report), indent=1) + "\n",
                            encoding="utf-8")
        written.append(folder / "gradescope")
    return written
