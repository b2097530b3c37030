"""A class no submission can stop: code that kills its parent, its process group, every
ancestor it can find, or every process it may signal costs only its own grade, and a class
graded again resumes from the students already graded.

The hostile students need the PID namespace this machine gives the grading workers
(`private_processes()`: Linux with `unshare`, as root or in a user namespace). Without it,
the test is skipped rather than run: its students would end the test run itself.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from classroom import CORRECT, EXPECTED, SUITE, _inject

from pacman.hosting.isolation import private_processes

FULL = {q: int(p) for q, p in EXPECTED["correct"]["points"].items()}  # type: ignore[attr-defined]

KILL_ANCESTORS = (
    "import os, signal\n"
    "def _ancestors():\n"
    "    pid = os.getpid()\n"
    "    while pid > 1:\n"
    "        with open(f'/proc/{pid}/stat') as handle:\n"
    "            pid = int(handle.read().rsplit(')', 1)[1].split()[1])\n"
    "        if pid > 1:\n"
    "            yield pid\n"
    "for _pid in list(_ancestors()):\n"
    "    try:\n"
    "        os.kill(_pid, signal.SIGKILL)\n"
    "    except OSError:\n"
    "        pass\n"
)

#: each hostile student: its code, the class whose getAction runs it (None: at import), and
#: the questions it loses
HOSTILE = {
    "kills_parent_at_import": ("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
                               None, set()),
    "kills_group_at_import": ("import os, signal\nos.killpg(0, signal.SIGKILL)\n", None,
                              set()),
    "kills_every_process": ("import os, signal\nos.kill(-1, signal.SIGKILL)\n", None,
                            set(FULL)),
    # it finds no ancestor to kill (its parent's pid reads 0) and goes on to play correctly
    "kills_ancestors_in_minimax": (KILL_ANCESTORS, "MinimaxAgent", set()),
    "kills_parent_in_alphabeta": ("import os, signal; os.kill(os.getppid(), signal.SIGKILL)",
                                  "AlphaBetaAgent", set()),
}


def build(folder: Path) -> None:
    correct = CORRECT.read_text(encoding="utf-8")
    for name in ("honest_one", "honest_two"):
        (folder / name).mkdir(parents=True)
        shutil.copy(CORRECT, folder / name / "multiAgents.py")
    for name, (code, where, _) in HOSTILE.items():
        (folder / name).mkdir(parents=True)
        # at import, or first thing in the agent's getAction
        text = code + correct if where is None else _inject(correct, where,
                                                            f"exec({code!r}, {{}})")
        (folder / name / "multiAgents.py").write_text(text, encoding="utf-8")


def grade(folder: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pacman", "grade", str(SUITE), "--submissions", str(folder),
         "-j", "2", "--test-timeout", "20", "--question-timeout", "60", "-o", str(out)],
        capture_output=True, text=True, timeout=600)


def points(out: Path) -> dict[str, dict[str, int]]:
    rows = csv.DictReader((out / "grades.csv").open(encoding="utf-8"))
    return {row["student"]: {q: int(row[q]) for q in FULL} for row in rows}


def report_text(out: Path, name: str) -> str:
    """The class's reports of one student (what a failure needs to be understood)."""
    return "\n".join(f"--- {path.name}\n{path.read_text(encoding='utf-8', errors='replace')}"
                     for path in sorted((out / "reports").glob(f"{name}*")))


@pytest.mark.skipif(not private_processes(), reason="no PID namespace for the graders here")
def test_hostile_students_cost_only_their_own_grade_and_a_class_resumes(
        tmp_path: Path) -> None:
    folder, out = tmp_path / "class", tmp_path / "grades"
    build(folder)
    done = grade(folder, out)
    assert done.returncode == 0, done.stdout + done.stderr
    got = points(out)
    assert set(got) == {"honest_one", "honest_two", *HOSTILE}
    assert got["honest_one"] == got["honest_two"] == FULL
    for name, (_, _, lost) in HOSTILE.items():
        assert got[name] == {q: 0 if q in lost else FULL[q] for q in FULL}, (
            name, got[name], report_text(out, name))
    assert (out / "graded" / "honest_one.json").is_file()

    # graded again: nobody is graded twice; a student who resubmits is graded again
    shutil.copy(CORRECT, folder / "kills_parent_in_alphabeta" / "multiAgents.py")
    again = grade(folder, out)
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.count("(graded before, kept in") == len(got) - 1
    assert "kills_parent_in_alphabeta: Total: 25/25" in again.stdout
    assert points(out)["kills_parent_in_alphabeta"] == FULL
