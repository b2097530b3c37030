"""A class of cheaters: every cheat the referee must make worthless, graded in one command.

Each cheater plays at random apart from its cheat (`cheaters.py`), so each must earn exactly
what the plain random player earns: 0 points. The honest students of the same class keep every
point, `grades.csv` holds every student, and the cheats that gain points when the grader trusts
the code (`--in-process`) are shown to gain them there, so the corpus cannot pass by cheats
that do nothing.

The kills need the PID namespace this machine gives the grading processes (`private_processes`:
Linux with `unshare`, as root or in a user namespace). Without it, the test is skipped rather
than run: its students would end the test run itself.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cheaters import GAINS_IN_PROCESS, RANDOM_PLAYER, cheaters
from classroom import EXPECTED, SUITE, read_grades, write_class

from pacman.hosting.isolation import private_processes

FULL = {q: int(p) for q, p in EXPECTED["correct"]["points"].items()}  # type: ignore[attr-defined]
ZERO = {q: 0 for q in FULL}


def grade(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pacman", "grade", str(SUITE), *arguments],
                          capture_output=True, text=True, timeout=900)


@pytest.mark.skipif(not private_processes(), reason="no PID namespace for the graders here")
def test_every_cheat_earns_what_random_play_earns_and_honest_students_keep_theirs(
        tmp_path: Path) -> None:
    folder, out = tmp_path / "class", tmp_path / "grades"
    students = {"random_player": RANDOM_PLAYER, **cheaters(SUITE)}
    everyone = write_class(folder, students)

    done = grade("--submissions", str(folder), "-j", "2", "--test-timeout", "60",
                 "-o", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = read_grades(out)
    assert set(rows) == everyone
    assert rows["honest_one"] == rows["honest_two"] == FULL
    assert rows["random_player"] == ZERO
    for name in students:
        assert rows[name] == rows["random_player"], (name, rows[name])
    # the solutions were there to read, at a path the cheater knew: its process saw none
    report = (out / "reports" / "reads_the_solutions.txt").read_text(encoding="utf-8")
    assert "CHEAT reads_the_solutions: found 0" in report


@pytest.mark.parametrize("name", GAINS_IN_PROCESS)
def test_the_cheats_are_real_they_gain_points_where_the_grader_trusts_the_code(
        tmp_path: Path, name: str) -> None:
    student = tmp_path / name / "multiAgents.py"
    student.parent.mkdir()
    student.write_text(cheaters(SUITE)[name], encoding="utf-8")
    done = grade("--agents", str(student), "--in-process")
    total = re.search(r"^Total: (\d+)/25$", done.stdout, re.MULTILINE)
    assert total is not None, done.stdout[-2000:] + done.stderr
    assert int(total.group(1)) >= 10, done.stdout[-2000:]
