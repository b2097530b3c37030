"""The sandbox's attack corpus (`attacks/`), graded as one class beside honest classmates.

Each attack plays at random apart from its attack and knows every path a determined student
could find out (the suite, the class, the results, the installed package). Graded, every
attacker must earn exactly what the random player earns, every classmate keeps its grade and its
file, the results folder holds only what the grader wrote (and a second run resumes from it),
the package is unchanged, nothing the attacks printed reaches a terminal as a control code, and
no process of theirs outlives the run.

The class is graded as the user running the tests (root in CI) and, where this machine has one
that can run this Python, as an unprivileged user (`nobody`, through `setpriv`): there the
sandbox is built in a user namespace.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from attack_corpus import attacks
from cheaters import RANDOM_PLAYER
from classroom import EXPECTED, SUITE, read_grades, write_class

import pacman
from conftest import NOBODY, nobody_can_run_python
from pacman.hosting import sandbox

FULL = {q: int(p) for q, p in EXPECTED["correct"]["points"].items()}  # type: ignore[attr-defined]
ZERO = {q: 0 for q in FULL}
PACKAGE = Path(pacman.__file__).resolve().parent
#: what each attack must have seen, printed into its own report
SAW = {
    "forges_worker_events": "wrote into 0 pipes",
    "unmounts_the_suite": "found 0 solution files",
    "reads_the_suite_through_proc": "found 0 solution files",
    "imports_the_package_agents": "ModuleNotFoundError",
    "execs_a_classmate": "found 0 classmates",
    "overwrites_classmates": "overwrote 0 files",
    "tampers_with_the_package": "changed 0 files",
}

pytestmark = pytest.mark.skipif(not sandbox.available(),
                                reason=f"no sandbox on this machine: {sandbox.limitation()}")


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


#: put in the environment of the class's grader, which its hosts inherit: a host of this run
#: is told from the hosts of other runs on the machine by it
RUN = f"PACMAN_ATTACK_RUN={os.getpid()}-{id(object())}"


def _hosts() -> list[str]:
    """The command lines of this run's running hosts (none may outlive a run)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # not a process, or gone
            continue
        if "pacman.hosting.host" not in line:
            continue
        try:
            ours = RUN.encode() in (entry / "environ").read_bytes().split(b"\0")
        except (FileNotFoundError, ProcessLookupError):  # gone meanwhile
            continue
        except OSError:  # its environment unreadable: counted
            ours = True
        if ours:
            found.append(line)
    return found


@pytest.fixture
def world() -> Iterator[Path]:
    """A folder any user may enter (pytest's own is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="pacman-attacks-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


USERS = ["as-this-user", pytest.param("as-nobody", marks=pytest.mark.skipif(
    not nobody_can_run_python(), reason="no unprivileged user here can run this Python"))]


@pytest.mark.parametrize("user", USERS)
def test_every_attack_earns_what_random_play_earns_and_changes_nothing(
        world: Path, user: str) -> None:
    folder, out = world / "class", world / "grades"
    students = {"random_player": RANDOM_PLAYER, **attacks(SUITE, folder, out, PACKAGE)}
    everyone = write_class(folder, students)
    prefix: list[str] = []
    if user == "as-nobody":
        out.mkdir()
        out.chmod(0o777)
        prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    package_before, class_before = _digest(PACKAGE), _digest(folder)
    command = [*prefix, sys.executable, "-m", "pacman", "grade", str(SUITE), "--submissions",
               str(folder), "-j", "2", "--test-timeout", "60", "-o", str(out)]

    key, _, value = RUN.partition("=")
    env = {**os.environ, key: value}
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=world,
                          env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = read_grades(out)
    assert set(rows) == everyone
    assert rows["honest_one"] == rows["honest_two"] == FULL
    assert rows["random_player"] == ZERO
    for name in students:  # steering is the classic shared stream's: what CS188 gives it
        earned = {**ZERO, "q1": 2} if name == "steers_the_ghosts" else ZERO
        assert rows[name] == earned, (name, rows[name])
    for name, phrase in SAW.items():
        report = (out / "reports" / f"{name}.txt").read_text(encoding="utf-8")
        assert f"ATTACK {name}: {phrase}" in report, (name, report[-1500:])
    # nothing of theirs changed anything outside their sandbox
    assert _digest(PACKAGE) == package_before
    assert _digest(folder) == class_before
    assert not [p for p in world.rglob("filler.bin")]
    assert not (out / "graded" / "forged.json").exists()
    for path in out.rglob("*"):
        if path.is_file():
            assert b"\x1b" not in path.read_bytes(), path
            if path.suffix == ".json" and path.parent.name == "graded":
                json.loads(path.read_text(encoding="utf-8"))  # whole, as the grader wrote it
    assert "\x1b" not in done.stdout + done.stderr
    assert "\\x1b[2J" in (out / "reports" / "escapes_the_terminal.txt").read_text(
        encoding="utf-8")
    assert _hosts() == []
    # the kept reports are the grader's: a second run resumes from them, to the same grades
    again = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=world,
                           env=env)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "graded before" in again.stdout + again.stderr
    assert read_grades(out) == rows


@pytest.mark.parametrize("agent_random, wins", [("shared", "won 10 of 10"), ("own", "won 0 of 10")])
def test_steering_the_ghosts_wins_only_on_the_shared_stream(
        tmp_path: Path, agent_random: str, wins: str) -> None:
    """The steering attack is real: on the classic shared stream (the default) it wins every
    q1 game with random play (2 points, as it does from the classic grader); with a stream of
    its own it wins what random play wins."""
    folder = tmp_path / "steerer"
    files = attacks(SUITE, tmp_path, tmp_path, PACKAGE)
    write_class(folder, {"steers_the_ghosts": files["steers_the_ghosts"]})
    done = subprocess.run(
        [sys.executable, "-m", "pacman", "grade", str(SUITE), "-q", "q1", "--agents",
         str(folder / "steers_the_ghosts" / "multiAgents.py"), "--agent-random", agent_random],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert f"ReflexAgent on openClassic: {wins} games" in done.stdout, done.stdout[-2000:]
    assert ("Total: 2/4" if agent_random == "shared" else "Total: 0/4") in done.stdout
