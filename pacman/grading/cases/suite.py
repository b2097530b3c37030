"""Find what to grade: a classic `test_cases/` tree (CONFIG files, questions, points) or folders
of our own tree cases.

A classic suite has a root `CONFIG` with `order: "q1 q2 ..."`; each question is a folder with a
`CONFIG` naming its `class` and `max_points` (and optionally `depends`), holding `.test` files
run in sorted name order. Folders without a `CONFIG` hold our own cases: every `.test` found
under them, each its own pass/fail, no points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pacman.errors import SuiteError, TestCaseError
from pacman.grading.cases.parser import parse_file

__all__ = ["EXAMPLE_SUITE", "QUESTION_CLASSES", "Question", "Suite", "SuiteError", "find_suite"]

#: The example suite that ships with the package: q1-q5 in the classic format, 25 points.
EXAMPLE_SUITE = Path(__file__).parents[1] / "test_cases"

#: The question classes the grader knows: how a question's points follow from its tests.
QUESTION_CLASSES = ("PassAllTestsQuestion", "PartialCreditQuestion", "NumberPassedQuestion")
CONFIG = "CONFIG"


@dataclass(frozen=True)
class Question:
    """One question: its tests and how they add up to points (`max_points` 0: no points)."""

    name: str
    question_class: str
    max_points: int
    tests: tuple[Path, ...]
    depends: tuple[str, ...] = ()
    #: why the question cannot be graded (bad CONFIG, unknown class), or ""
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

    @property
    def max_points(self) -> int:
        """The total the questions are worth."""
        return sum(q.max_points for q in self.questions)

    @property
    def tests(self) -> tuple[Path, ...]:
        """Every test file, in the order they run."""
        return tuple(t for q in self.questions for t in q.tests)

    def select(self, names: Sequence[str]) -> Suite:
        """Only the named questions (e.g. `q2`), in suite order."""
        known = {q.name for q in self.questions}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise SuiteError(f"no question {unknown[0]!r} in {self.root} (questions: "
                             f"{', '.join(q.name for q in self.questions)})")
        return replace(self, questions=tuple(q for q in self.questions if q.name in names))


def _config(folder: Path) -> dict[str, str]:
    try:
        parsed = parse_file(folder / CONFIG)
    except TestCaseError as error:
        raise SuiteError(str(error)) from None
    return {key: entry.value for key, entry in parsed.entries.items()}


def _tests_of(folder: Path) -> tuple[Path, ...]:
    return tuple(sorted(folder.glob("*.test"), key=lambda p: p.name))


def _question(folder: Path, name: str) -> Question:
    try:
        config = _config(folder)
    except SuiteError as error:
        return Question(name, "", 0, _tests_of(folder), problem=str(error))
    kind = config.get("class", "")
    problem = ""
    if kind not in QUESTION_CLASSES:
        problem = (f"{folder / CONFIG}: unknown question class {kind!r} (known: "
                   f"{', '.join(QUESTION_CLASSES)})")
    try:
        points = int(config.get("max_points", "0"))
        if points < 0:
            raise ValueError
    except ValueError:
        points, problem = 0, (problem or f"{folder / CONFIG}: max_points must be a whole "
                                         f"number >= 0, got {config.get('max_points')!r}")
    return Question(name, kind, points, _tests_of(folder),
                    tuple(config.get("depends", "").split()), problem)


def _classic_suite(root: Path) -> Suite:
    config = _config(root)
    order = config.get("order")
    names = order.split() if order else sorted(
        p.name for p in root.iterdir() if p.is_dir() and (p / CONFIG).is_file())
    questions = []
    for name in names:
        folder = root / name
        if not folder.is_dir():
            questions.append(Question(name, "", 0, (), problem=f"{root / CONFIG}: question "
                                      f"{name!r} has no folder {folder}"))
        else:
            questions.append(_question(folder, name))
    return Suite(root, tuple(questions), classic=True)


def find_suite(paths: Sequence[str | Path]) -> Suite:
    """The suite named by `paths`: a classic root or question folder, our case folders, or
    single `.test` files. Raises `SuiteError` when a path holds nothing to grade."""
    return replace(_find_suite(paths), paths=tuple(str(p) for p in paths))


def _find_suite(paths: Sequence[str | Path]) -> Suite:
    if not paths:
        raise SuiteError("give a folder of tests (e.g. test_cases) or .test files")
    resolved = [Path(p) for p in paths]
    for path in resolved:
        if not path.exists():
            raise SuiteError(f"no such test file or folder: {path}")
    if len(resolved) == 1 and resolved[0].is_dir():
        root = resolved[0]
        if (root / CONFIG).is_file():
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
            questions.append(Question(str(path), "", 0, tests))
        elif path.suffix != ".test":
            raise SuiteError(f"not a .test file: {path}")
        elif (path.parent / CONFIG).is_file() and "class" in _config(path.parent):
            classic = True  # a test of a classic question: graded the classic way
            question = _question(path.parent, path.parent.name)
            questions.append(Question(question.name, question.question_class,
                                      question.max_points, (path,), question.depends,
                                      question.problem))
        else:
            questions.append(Question(str(path.parent), "", 0, (path,)))
    root = resolved[0] if resolved[0].is_dir() else resolved[0].parent
    chosen = classic and any(path.is_file() for path in resolved)
    return Suite(root, tuple(questions), classic, chosen)
