"""Where the code got stuck: a class of stalled copies of a full-marks file.

Each copy loses only the questions that run the stalled code, its report names the file and
line where the code was stuck, and the class finishes within the time the grader printed at
the start. CI grades every place with an endless loop and every kind of stall in one place; the
whole matrix (4 kinds x 9 places) is `slow`.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from classroom import EXPECTED, QUESTIONS, SUITE, read_grades
from stalls import KINDS, LOSES, PLACES, stall_lines, stalled

FULL = {q: int(p) for q, p in EXPECTED["correct"]["points"].items()}  # type: ignore[attr-defined]


def _grade_class(tmp_path: Path, copies: list[tuple[str, str]]) -> None:
    folder, out = tmp_path / "class", tmp_path / "out"
    texts = {}
    for kind, place in copies:
        name = f"{kind}-{place.replace('.', '-')}"
        texts[name] = (kind, place, stalled(kind, place))
        (folder / name).mkdir(parents=True)
        (folder / name / "multiAgents.py").write_text(texts[name][2], encoding="utf-8")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pacman", "grade", str(SUITE), "--submissions", str(folder),
         "--test-timeout", "10", "--question-timeout", "40", "-j", "2", "-o", str(out)],
        capture_output=True, text=True, timeout=3600, cwd=tmp_path)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    promised = re.search(r"at most ([\d.]+) (s|min|h) in all", done.stdout)
    assert promised is not None, done.stdout[:2000]
    bound = float(promised.group(1)) * {"s": 1, "min": 60, "h": 3600}[promised.group(2)]
    assert elapsed <= bound, (elapsed, bound)
    grades = read_grades(out)
    for name, (_, place, text) in texts.items():
        lost = LOSES[place]
        expected = {q: 0 if q in lost else FULL[q] for q in QUESTIONS}
        assert grades[name] == expected, (name, grades[name])
        report = (out / "reports" / f"{name}.txt").read_text(encoding="utf-8")
        named = {int(n) for n in re.findall(r"stuck at multiAgents\.py:(\d+)", report)}
        assert named & stall_lines(text), (name, named, report[-2000:])


def test_each_stalled_copy_loses_only_its_questions_and_says_where_it_was_stuck(
        tmp_path: Path) -> None:
    copies = [("loop", place) for place in PLACES]
    copies += [(kind, "MinimaxAgent.getAction") for kind in KINDS if kind != "loop"]
    _grade_class(tmp_path, copies)


@pytest.mark.slow
def test_the_whole_stall_matrix(tmp_path: Path) -> None:
    _grade_class(tmp_path, [(kind, place) for kind in KINDS for place in PLACES])


def test_a_student_limit_stops_the_submission_and_leaves_the_rest_not_run(
        tmp_path: Path) -> None:
    """--student-timeout caps a whole submission: the question running at the limit is
    stopped (and says where), and the questions after it are not run."""
    student = tmp_path / "multiAgents.py"
    text = stalled("loop", "MinimaxAgent.getAction")
    student.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pacman", "grade", str(SUITE), "--agents", str(student),
         "--test-timeout", "600", "--student-timeout", "8"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)
    out = done.stdout
    assert "Question q1: 4/4" in out and "Question q2: 0/5" in out, out[-3000:]
    assert "over the time limit of 8s per student; stuck at multiAgents.py:" in out
    named = {int(n) for n in re.findall(r"stuck at multiAgents\.py:(\d+)", out)}
    assert named & stall_lines(text)
    for question in ("q3", "q4", "q5"):
        assert f"Question {question}: 0/" in out
    assert "not run: over the time limit of 8s per student" in out
