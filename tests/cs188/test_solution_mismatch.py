"""A suite whose game tests' seeds differ from their solutions': graded as the classic grader
grades it, with one warning line per such test; with --strict, an error.

The copy of the shipped suite (whose solutions the classic autograder wrote) gets the seeds a
public CS188 folder ships (2, 2, 30) while its solutions stay those of seed 0. The classic
grader then plays the solution's moves, compares the student's choices on the moves played
(17, 17 and 67 of the 146), and fails a correct file on them ("Wrong number of states
expanded": the states are not the recorded ones): so does this one, and says why.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from classroom import CORRECT, SUITE


def _suite(tmp_path: Path) -> Path:
    root = tmp_path / "test_cases"
    shutil.copytree(SUITE, root, ignore=shutil.ignore_patterns("__pycache__"))
    for question, seed in (("q2", "2"), ("q3", "2"), ("q4", "30")):
        test = root / question / "9-smallclassic-game.test"
        test.write_text(test.read_text(encoding="utf-8").replace('seed: "0"', f'seed: "{seed}"'),
                        encoding="utf-8")
    return root


def _grade(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pacman", "grade", str(_suite(tmp_path)),
                           "--agents", str(CORRECT), *extra], capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)


def test_each_mismatched_game_test_is_graded_as_the_classic_grader_grades_it(
        tmp_path: Path) -> None:
    done = _grade(tmp_path)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert [w.split(":")[1].strip() for w in warnings] == [
        f"test_cases/{q}/9-smallclassic-game.test" for q in ("q2", "q3", "q4")]
    assert "the game ends after 17 of the 146 moves of its solution" in warnings[0]
    assert "the game ends after 67 of the 146 moves of its solution" in warnings[2]
    assert all("--generate-solutions" in w for w in warnings)
    # the classic grader's points: the correct file fails the three game tests on the moves
    # played (its counts are not those of the recorded states), as CS188's code does
    for question, points in (("q1", "4/4"), ("q2", "0/5"), ("q3", "0/5"), ("q4", "0/5"),
                             ("q5", "6/6")):
        assert f"Question {question}: {points}" in done.stdout, done.stdout[-3000:]
    assert "Bug: Wrong number of states expanded. At move 3" in done.stdout


def test_with_strict_a_mismatched_game_test_is_an_error(tmp_path: Path) -> None:
    done = _grade(tmp_path, "--strict", "-q", "q2")
    assert done.returncode == 1
    assert "*** ERROR: test_cases/q2/9-smallclassic-game.test" in done.stdout, done.stdout
    assert ("the game ends after 17 of the 146 moves of its solution: it was not recorded with "
            "this test's layout, seed and ghosts") in done.stdout
