"""Grade a class: every submission of a folder, in parallel, each in its own worker processes.

A submission is a folder (one per student, holding the agents file, `multiAgents.py` by
default, anywhere inside) or a `.py` file directly in the folder. Each is graded by
`grade_isolated` under the same hard limits; `-j` of them run at once. The results are written
as a CSV and a JSON of points per student and question, a text report per student (with what
their code printed), and, if asked, a Gradescope `results.json` per student.

Each student's report is also kept as it finishes (`graded/NAME.json` in the results folder,
written whole or not at all), under a key of what decided it: the suite's files, the student's
Python files and the limits. A class graded again into the same folder skips every student
whose key is unchanged, so an interrupted class (Ctrl-C, a killed grader) resumes where it
stopped, and a student who resubmits is graded again.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
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
    #: the student's folder (None for a `.py` file given directly)
    folder: Path | None = None


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
                found.append(Submission(entry.name, candidates[0], folder=entry))
            else:
                found.append(Submission(entry.name, None, f"no {agents_file} in {entry}",
                                        entry))
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
        unique.append(Submission(name, submission.path, submission.problem, submission.folder))
    return unique


def grade_class(suite: Suite, submissions: Sequence[Submission],
                limits: HardLimits = DEFAULT_LIMITS, jobs: int = 1,
                on_report: Callable[[SubmissionReport], None] | None = None,
                keep: str | Path | None = None,
                on_kept: Callable[[SubmissionReport], None] | None = None,
                agent_random: str = "shared") -> list[SubmissionReport]:
    """Grade every submission, `jobs` at a time, each in its own worker processes under
    `limits`; reports come back in the submissions' order (`on_report` gets each as it ends).

    With `keep` (a results folder), each report is kept there as it finishes, and a student
    already kept under the same key is not graded again (`on_kept` gets their report).
    `agent_random`: where an agent test's agent draws ("own" or "shared"; part of the key)."""
    reports: dict[str, SubmissionReport] = {}
    suite_key = _suite_key(suite) + f"\nagent_random={agent_random}"
    todo = []
    for submission in submissions:
        kept = None if keep is None else _kept(keep, submission, suite_key, limits)
        if kept is None:
            todo.append(submission)
            continue
        reports[submission.name] = kept
        if on_kept is not None:
            on_kept(kept)

    def grade_one(submission: Submission) -> SubmissionReport:
        if submission.path is None:
            return SubmissionReport(submission.name, (), submission.problem,
                                    classic=suite.classic)
        return grade_isolated(suite, submission.path, limits, submission.name,
                              agent_random=agent_random)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(grade_one, s): s for s in todo}
        for future in as_completed(futures):
            report = future.result()
            submission = futures[future]
            reports[submission.name] = report
            if keep is not None:
                _keep(keep, submission, suite_key, limits, report)
            if on_report is not None:
                on_report(report)
    return [reports[s.name] for s in submissions]


def _digest(paths: Sequence[Path], root: Path | None = None) -> str:
    """A hash of files' names (relative to `root`) and contents, in name order."""
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(paths):
        name = path.relative_to(root).as_posix() if root is not None else path.name
        digest.update(name.encode() + b"\0")
        try:
            with path.open("rb") as handle:  # in blocks: a large file is not held in memory
                for block in iter(lambda: handle.read(2**20), b""):
                    digest.update(block)
            digest.update(b"\0")
        except OSError as error:
            digest.update(f"unreadable: {error.strerror}".encode() + b"\0")
    return digest.hexdigest()


def _suite_key(suite: Suite) -> str:
    files = [path for path in suite.root.rglob("*") if path.is_file()
             and "__pycache__" not in path.parts]
    return _digest(files, suite.root) + "".join(q.name for q in suite.questions)


def _submission_key(submission: Submission, suite_key: str, limits: HardLimits) -> str:
    if submission.path is None:
        own = submission.problem
    elif submission.folder is None:  # a .py file given directly: that file
        own = _digest([submission.path])
    else:  # every Python file of the student's folder (the helpers it may import)
        own = _digest([p for p in submission.folder.rglob("*.py") if p.is_file()],
                      submission.folder)
    return hashlib.blake2b(f"{suite_key}\n{own}\n{limits}".encode(),
                           digest_size=16).hexdigest()


def _kept_path(keep: str | Path, submission: Submission) -> Path:
    return Path(keep) / "graded" / f"{_safe_name(submission.name)}.json"


def _kept(keep: str | Path, submission: Submission, suite_key: str,
          limits: HardLimits) -> SubmissionReport | None:
    """The report kept for `submission` under the same key, or None (none, another key, or a
    file that cannot be read: the student is graded again)."""
    try:
        data = json.loads(_kept_path(keep, submission).read_text(encoding="utf-8"))
        if data.get("key") != _submission_key(submission, suite_key, limits):
            return None
        return SubmissionReport.from_dict(data["report"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _keep(keep: str | Path, submission: Submission, suite_key: str, limits: HardLimits,
          report: SubmissionReport) -> None:
    """Keep `report` whole or not at all (a temporary file renamed into place)."""
    path = _kept_path(keep, submission)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"key": _submission_key(submission, suite_key, limits), "report": report.to_dict()}
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps(data) + "\n", encoding="utf-8")
    os.replace(temporary, path)


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
