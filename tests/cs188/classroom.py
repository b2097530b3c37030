"""A class of 30 CS188 submissions for grading tests and benchmarks: correct ones, the buggy
variants of `submissions/`, and every way student code can misbehave.

`build_class(folder)` writes one folder per student and returns what each should get: the
points per question, or the reason that must appear in its report.
"""

from __future__ import annotations

import csv
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent
SUBMISSIONS = HERE / "submissions"
SUITE = HERE.parents[1] / "pacman" / "grading" / "test_cases"  # the shipped suite
EXPECTED: dict[str, dict[str, object]] = json.loads(
    (HERE / "classic_expected.json").read_text(encoding="utf-8"))
QUESTIONS = ("q1", "q2", "q3", "q4", "q5")
CORRECT = SUBMISSIONS / "correct" / "multiAgents.py"


@dataclass(frozen=True)
class Expectation:
    """What one student of the class should get."""

    points: dict[str, int]
    #: a phrase each of these questions' reports must contain (why points were lost)
    reasons: dict[str, str] = field(default_factory=dict)
    #: a phrase the submission's own error must contain (it could not be loaded at all)
    error: str = ""


def write_class(folder: Path, students: dict[str, str]) -> set[str]:
    """Each student's `multiAgents.py` in a folder of its own, beside two honest classmates
    (`honest_one`, `honest_two`: the correct file); returns every student's name."""
    for name, code in students.items():
        (folder / name).mkdir(parents=True)
        (folder / name / "multiAgents.py").write_text(code, encoding="utf-8")
    for name in ("honest_one", "honest_two"):
        (folder / name).mkdir()
        shutil.copy(CORRECT, folder / name / "multiAgents.py")
    return {*students, "honest_one", "honest_two"}


def read_grades(out: Path) -> dict[str, dict[str, int]]:
    """`grades.csv` of a results folder: each student's points per question."""
    with (out / "grades.csv").open(encoding="utf-8") as table:
        return {row["student"]: {q: int(row[q]) for q in QUESTIONS}
                for row in csv.DictReader(table)}


def _inject(code: str, cls: str, line: str) -> str:
    """`code` with `line` run first thing in `cls.getAction`."""
    start = code.index(f"class {cls}")
    method = code.index("def getAction", start)
    body = code.index(":\n", method) + 2
    following = code[body:].split("\n", 1)[0]
    indent = following[:len(following) - len(following.lstrip())]
    return code[:body] + indent + line + "\n" + code[body:]


def build_class(folder: Path) -> dict[str, Expectation]:
    """Write 30 submissions into `folder` (one folder each, `multiAgents.py` inside)."""
    correct = CORRECT.read_text(encoding="utf-8")
    full = {q: int(p) for q, p in EXPECTED["correct"]["points"].items()}  # type: ignore[attr-defined]
    zero = {q: 0 for q in QUESTIONS}
    expected: dict[str, Expectation] = {}

    def write(name: str, code: str, expectation: Expectation) -> None:
        (folder / name).mkdir(parents=True)
        (folder / name / "multiAgents.py").write_text(code, encoding="utf-8")
        expected[name] = expectation

    def minus(questions: dict[str, str]) -> Expectation:
        return Expectation({q: 0 if q in questions else full[q] for q in QUESTIONS}, questions)

    for number in range(1, 13):  # a dozen students who got it right
        write(f"student{number:02d}", correct, Expectation(dict(full)))
    for variant, data in sorted(EXPECTED.items()):  # the buggy variants, graded as classic
        if variant != "correct":
            shutil.copytree(SUBMISSIONS / variant, folder / f"bug_{variant}")
            points = {q: int(p) for q, p in data["points"].items()}  # type: ignore[attr-defined]
            expected[f"bug_{variant}"] = Expectation(points)
    write("exit_at_import", "import sys\nsys.exit(0)\n" + correct,
          Expectation(zero, error="SystemExit"))
    write("os_exit_at_import", "import os\nos._exit(0)\n" + correct,
          Expectation(zero, error="loading the submission ended its process"))
    write("loop_at_import", "while True:\n    pass\n" + correct,
          Expectation(zero, error="loading the submission took over"))
    write("syntax_error", correct + "\ndef broken(:\n", Expectation(zero, error="SyntaxError"))
    write("loop_in_minimax", _inject(correct, "MinimaxAgent", "while True: pass"),
          minus({"q2": "timeout"}))
    write("os_exit_in_alphabeta", _inject(correct, "AlphaBetaAgent",
                                          "import os; os._exit(0)"),
          minus({"q3": "the agent's process died"}))
    write("sys_exit_in_expectimax", _inject(correct, "ExpectimaxAgent",
                                            "import sys; sys.exit(1)"),
          minus({"q4": "SystemExit", "q5": "crashed"}))
    write("memory_hog", _inject(correct, "MinimaxAgent", "hog = [0] * (10 ** 10)"),
          minus({"q2": "MemoryError"}))
    write("prints_a_lot", _inject(correct, "ReflexAgent", "print('chatty ' * 200)"),
          Expectation(dict(full)))
    write("keyboard_interrupt", _inject(correct, "AlphaBetaAgent", "raise KeyboardInterrupt"),
          minus({"q3": "KeyboardInterrupt"}))
    assert len(expected) == 30, len(expected)
    return expected
