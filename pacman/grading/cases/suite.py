"""Find what to grade: a classic `test_cases/` tree (CONFIG files, questions, points) or folders
of our own tree cases.

A classic suite has a root `CONFIG` with `order: "q1 q2 ..."`; each question is a folder with a
`CONFIG` naming its `class` and `max_points` (and optionally `depends`), holding `.test` files
run in sorted name order. Folders without a `CONFIG` hold our own cases: every `.test` found
under them, each its own pass/fail, no points.

Whatever makes a suite unusable is found here, when it is loaded: a `CONFIG` that cannot be read
or parsed, an unknown question class, points that are not a whole number from 1 to
`MAX_POINTS`, an `order` or `depends` naming no question, a question without tests, a test or
solution file that cannot be read. Each becomes its question's `problem`, and `Suite.check`
refuses the suite (the CLI: one line, exit 2) before any code is graded. What a test file says
is checked when it runs (`pacman.grading.cases.check` checks it all at once, for a class).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pacman.errors import SuiteError, TestCaseError
from pacman.grading.cases.parser import ParsedFile, parse_file, read_test_file, solution_path

__all__ = ["EXAMPLE_SUITE", "QUESTION_CLASSES", "Question", "Suite", "SuiteError", "find_suite"]

#: The example suite that ships with the package: q1-q5 in the classic format, 25 points.
EXAMPLE_SUITE = Path(__file__).parents[1] / "test_cases"

#: The question classes the grader knows: how a question's points follow from its tests.
QUESTION_CLASSES = ("PassAllTestsQuestion", "PartialCreditQuestion", "NumberPassedQuestion")
CONFIG = "CONFIG"
#: The most points one question may be worth.
MAX_POINTS = 10_000
_WHOLE = re.compile(r"[0-9]+\Z")  # ASCII digits only: not "+5", "1_0", "5.0" or "٥"


@dataclass(frozen=True)
class Question:
    """One question: its tests and how they add up to points (`max_points` 0: no points, as
    a folder of own cases)."""

    name: str
    question_class: str
    max_points: int
    tests: tuple[Path, ...]
    depends: tuple[str, ...] = ()
    #: why the question cannot be graded (its CONFIG, its `depends`, a test file that cannot be
    #: read), or ""; `Suite.check` refuses a suite with one
    problem: str = ""


@dataclass(frozen=True)
class Suite:
    """What one grading run covers. `classic` is True for a CONFIG-driven suite with points."""

    root: Path
    questions: tuple[Question, ...]
    classic: bool
    #: single test files were named (`-t`): their questions' points mean nothing
    chosen_tests: bool = False
    #: the paths the suite was found from (a grading worker finds it again from them)
    paths: tuple[str, ...] = ()
    #: a game test whose solution does not match it is an error, not graded as the classic
    #: grader grades it (`pacman grade --strict`)
    strict: bool = False

    @property
    def max_points(self) -> int:
        """The total the questions are worth."""
        return sum(q.max_points for q in self.questions)

    @property
    def tests(self) -> tuple[Path, ...]:
        """Every test file, in the order they run."""
        return tuple(t for q in self.questions for t in q.tests)

    @property
    def problems(self) -> tuple[str, ...]:
        """Why questions cannot be graded, one line each (empty for a sound suite)."""
        return tuple(q.problem for q in self.questions if q.problem)

    def check(self) -> None:
        """Refuse a suite with a problem before any code is graded: the suite is the teacher's
        input, and a broken one would zero a question for every submission.

        Raises:
            SuiteError: naming the first problem (its file and key) and how many more there
                are.
        """
        problems = self.problems
        if problems:
            more = len(problems) - 1
            rest = f" (and {more} more problem{'s' * (more > 1)} in the suite)" if more else ""
            raise SuiteError(" ".join(problems[0].split("\n")) + rest)

    def select(self, names: Sequence[str]) -> Suite:
        """Only the named questions (e.g. `q2`), in suite order."""
        known = {q.name for q in self.questions}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise SuiteError(f"no question {unknown[0]!r} in {self.root} (questions: "
                             f"{', '.join(q.name for q in self.questions)})")
        return replace(self, questions=tuple(q for q in self.questions if q.name in names))


def _config_file(folder: Path) -> ParsedFile:
    try:
        return parse_file(folder / CONFIG)
    except TestCaseError as error:
        raise SuiteError(str(error)) from None


def _config(folder: Path) -> dict[str, str]:
    return {key: entry.value for key, entry in _config_file(folder).entries.items()}


def _has_config(folder: Path) -> bool:
    """True if `folder` has a `CONFIG` entry of any kind: a broken one (a folder, a loop of
    links) is reported when it is read, instead of making the folder a folder of own cases."""
    return os.path.lexists(folder / CONFIG)


def _tests_of(folder: Path) -> tuple[Path, ...]:
    return tuple(sorted(folder.glob("*.test"), key=lambda p: p.name))


def _file_problem(tests: Sequence[Path]) -> str:
    """The first test or solution file that cannot be read (not a regular file, a loop of
    links, over the size cap, not UTF-8), or "". Reading is cheap beside grading, and a file
    found broken now stops the run before any code is graded."""
    for test in tests:
        for path in (test, solution_path(test)):
            if path is test or os.path.lexists(path):
                try:
                    read_test_file(path)
                except TestCaseError as error:
                    return str(error)
    return ""


def _enabled(tests: Sequence[Path]) -> int:
    """How many of `tests` are not `disabled` (a file that does not parse counts: it is an
    ERROR when it runs)."""
    count = 0
    for path in tests:
        try:
            count += not parse_file(path).disabled
        except TestCaseError:
            count += 1
    return count


def _points(config: ParsedFile) -> tuple[int, str]:
    """`max_points` and "", or 0 and why it is not a number of points."""
    where = f"{config.path}: max_points"
    entry = config.get("max_points")
    if entry is None:
        return 0, f"{where}: missing (the points the question is worth)"
    text = entry.value.strip()
    if not _WHOLE.match(text) or not 1 <= int(text) <= MAX_POINTS:
        return 0, f"{where}: must be a whole number from 1 to {MAX_POINTS}, got {entry.value!r}"
    return int(text), ""


def _question(folder: Path, name: str, chosen: tuple[Path, ...] = ()) -> Question:
    """One question folder (only its `chosen` tests, if given); the first thing wrong with it
    is its `problem`."""
    tests = chosen or _tests_of(folder)
    try:
        config = _config_file(folder)
    except SuiteError as error:
        return Question(name, "", 0, tests, problem=str(error))
    entry = config.get("class")
    kind = entry.value if entry is not None else ""
    depends_entry = config.get("depends")
    depends = tuple(depends_entry.value.split()) if depends_entry is not None else ()
    points, problem = _points(config)
    if entry is None:
        problem = f"{config.path}: class: missing (one of {', '.join(QUESTION_CLASSES)})"
    elif kind not in QUESTION_CLASSES:
        problem = (f"{config.path}: class: unknown question class {kind!r} (known: "
                   f"{', '.join(QUESTION_CLASSES)})")
    elif not problem and not tests:
        problem = f"{folder}: no .test files in the question's folder"
    problem = problem or _file_problem(tests)
    enabled = _enabled(tests) if not problem and kind == "NumberPassedQuestion" else 0
    if enabled > points:
        problem = (f"{config.path}: max_points: {points} is less than the question's "
                   f"{enabled} tests (a NumberPassedQuestion earns a point for each test that "
                   "passes)")
    return Question(name, kind, points, tests, depends, problem)


def _order(root: Path, config: ParsedFile) -> list[str]:
    """The question folders to grade: `order`, or every folder with a `CONFIG`."""
    where = f"{config.path}: order"
    entry = config.get("order")
    if entry is None:
        try:
            names = sorted(p.name for p in root.iterdir() if p.is_dir() and _has_config(p))
        except OSError as error:
            raise SuiteError(f"{root}: cannot list: {error.strerror or error}") from None
        if not names:
            raise SuiteError(f"{config.path}: no order, and no question folder with a "
                             f"{CONFIG} in {root}")
        return names
    names = entry.value.split()
    if not names:
        raise SuiteError(f"{where}: names no question")
    return names


def _classic_suite(root: Path) -> Suite:
    config = _config_file(root)
    where = f"{config.path}: order"
    questions: list[Question] = []
    for name in _order(root, config):
        folder = root / name
        if name in (q.name for q in questions):
            problem = f"{where}: question {name!r} is listed twice"
        elif name in (".", "..") or "/" in name or "\\" in name:
            problem = f"{where}: {name!r} is not a folder name (a question is a folder of {root})"
        elif not folder.is_dir():
            problem = f"{where}: question {name!r} has no folder {folder}"
        else:
            questions.append(_question(folder, name))
            continue
        questions.append(Question(name, "", 0, (), problem=problem))
    return Suite(root, tuple(_check_depends(root, questions)), classic=True)


def _check_depends(root: Path, questions: Sequence[Question]) -> list[Question]:
    """Each question's `depends` must name questions graded before it: any other name would
    make it score 0 whatever the code does."""
    checked: list[Question] = []
    for question in questions:
        before = [q.name for q in checked]
        later = [d for d in question.depends if d not in before]
        if later and not question.problem:
            where = f"{root / question.name / CONFIG}: depends"
            if later[0] == question.name:
                problem = f"{where}: the question depends on itself"
            elif any(q.name == later[0] for q in questions):
                problem = f"{where}: question {later[0]!r} is graded after it, not before"
            else:
                problem = f"{where}: no question {later[0]!r} in the suite"
            question = replace(question, problem=problem)
        checked.append(question)
    return checked


def find_suite(paths: Sequence[str | Path]) -> Suite:
    """The suite named by `paths`: a classic root or question folder, our case folders, or
    single `.test` files. Raises `SuiteError` when a path holds nothing to grade."""
    return replace(_find_suite(paths), paths=tuple(str(p) for p in paths))


def _find_suite(paths: Sequence[str | Path]) -> Suite:
    if not paths:
        raise SuiteError("give a folder of tests (e.g. test_cases) or .test files")
    resolved = [Path(p) for p in paths]
    for path in resolved:
        if not os.path.lexists(path):  # a broken link is named by the file check below
            raise SuiteError(f"no such test file or folder: {path}")
    if len(resolved) == 1 and resolved[0].is_dir():
        root = resolved[0]
        if _has_config(root):
            config = _config(root)
            if "class" in config:  # a single question folder
                return Suite(root.parent, (_question(root, root.name),), classic=True)
            return _classic_suite(root)
    questions: list[Question] = []
    classic = False
    for path in resolved:
        if path.is_dir():
            tests = tuple(sorted(path.rglob("*.test"), key=lambda p: p.relative_to(path).parts))
            if not tests:
                raise SuiteError(f"no .test files under {path}")
            questions.append(Question(str(path), "", 0, tests, problem=_file_problem(tests)))
        elif path.suffix != ".test":
            raise SuiteError(f"not a .test file: {path}")
        elif _has_config(path.parent) and "class" in _config(path.parent):
            classic = True  # a test of a classic question: graded the classic way
            questions.append(_question(path.parent, path.parent.name, (path,)))
        else:
            questions.append(Question(str(path.parent), "", 0, (path,),
                                      problem=_file_problem((path,))))
    root = resolved[0] if resolved[0].is_dir() else resolved[0].parent
    chosen = classic and any(not path.is_dir() for path in resolved)
    return Suite(root, tuple(questions), classic, chosen)
