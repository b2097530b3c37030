"""A batch's store against forged rows: what a user agent can write, and what the batch does
with a row it did not write.

A user agent plays in a sandboxed host (the default isolation for code of the user's): the
store is not in its world, so a forger finds nothing to write, and the batch stores exactly the
games played. And whatever writes a row for a game the batch holds the claim on (only that
batch can play it) is tampering: the batch says so and stores the game it played instead.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import NOBODY, nobody_can_run_python
from pacman.hosting import sandbox

ROOT = Path(__file__).resolve().parents[2]

FORGER = '''
import os, sqlite3
from pacman.agents.simple import RandomAgent

STORE = os.environ["FORGE_STORE"]  # the store's path, known to the forger


def forge():
    """Every row of the store a win of 1500, and a win for each of the next games."""
    found = 0
    for path in (STORE, os.path.basename(STORE)):
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:
            continue
        os.close(fd)
        found += 1
        with sqlite3.connect(path) as db:
            db.execute("UPDATE games SET outcome = 'win', score = 1500")
    return found


class Forger(RandomAgent):
    def get_action(self, state):
        if not getattr(self, "tried", False):
            self.tried = True
            print(f"FORGER found {forge()} stores")
        return super().get_action(state)
'''

GATED = '''
import os, time
from pacman.agents.simple import RandomAgent


class Gated(RandomAgent):
    """Notes each game it starts in PLAYS_LOG and waits for the file GATE_<game number>."""

    def get_action(self, state):
        if not getattr(self, "started", False):
            self.started = True
            with open(os.environ["PLAYS_LOG"], "a") as log:
                log.write("started\\n")
            count = len(open(os.environ["PLAYS_LOG"]).read().split())
            gate = os.environ["GATE"] + str(count)
            while not os.path.exists(gate):
                time.sleep(0.01)
        return super().get_action(state)
'''


def _environment(folder: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(folder)])}


def _rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT game_index, seed, outcome, score, pacman_moves FROM games "
                          "ORDER BY game_index").fetchall()




USERS = ["as-this-user", pytest.param("as-nobody", marks=pytest.mark.skipif(
    not nobody_can_run_python(), reason="no unprivileged user here can run this Python"))]


@pytest.mark.skipif(not sandbox.available(),
                    reason=f"no sandbox on this machine: {sandbox.limitation()}")
@pytest.mark.parametrize("user", USERS)
def test_a_hosted_forger_finds_no_store_and_the_games_are_stored_as_played(user: str) -> None:
    folder = Path(tempfile.mkdtemp(prefix="pacman-forger-"))  # one any user may enter
    try:
        _forge_and_compare(folder, [] if user == "as-this-user" else [
            "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _forge_and_compare(tmp_path: Path, prefix: list[str]) -> None:
    tmp_path.chmod(0o777)
    store, honest = tmp_path / "results.db", tmp_path / "honest.db"
    (tmp_path / "forger.py").write_text(FORGER)
    (tmp_path / "forger.py").chmod(0o644)
    command = [*prefix, sys.executable, "-m", "pacman", "batch", "-p", "forger.py:Forger",
               "-l", "testClassic", "-n", "4", "--max-moves", "40", "-j", "1", "-o"]
    for path, target in ((store, store), (honest, tmp_path / "none.db")):
        done = subprocess.run([*command, str(path)], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path,
                              env={**_environment(tmp_path), "FORGE_STORE": str(target)})
        assert done.returncode == 0, done.stderr
    assert len(_rows(store)) == 4
    assert _rows(store) == _rows(honest)  # the same games, as played
    check = subprocess.run([sys.executable, "-m", "pacman", "store", "check", str(store)],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_row_written_for_a_game_the_batch_holds_is_replaced_by_the_game_played(
        tmp_path: Path) -> None:
    (tmp_path / "gated.py").write_text(GATED)
    store, log, gate = tmp_path / "r.db", tmp_path / "plays.log", tmp_path / "gate"
    env = {**_environment(tmp_path), "PLAYS_LOG": str(log), "GATE": str(gate)}
    command = [sys.executable, "-m", "pacman", "batch", "-p", "gated:Gated", "-l",
               "testClassic", "--max-moves", "40", "-j", "1", "--isolation", "none", "-o",
               str(store)]
    (tmp_path / "gate1").touch()
    first = subprocess.run([*command, "-n", "1"], capture_output=True, text=True, timeout=300,
                           env=env)
    assert first.returncode == 0, first.stderr
    played = _rows(store)
    batch = subprocess.Popen([*command, "-n", "2"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    try:
        while len(log.read_text().split()) < 2:  # game 1 is being played: its claim is held
            assert batch.poll() is None, batch.communicate()
            time.sleep(0.01)
        with sqlite3.connect(store) as db:  # a forger copies game 0's row as a won game 1
            columns = [row[1] for row in db.execute("PRAGMA table_info(games)")][1:]
            names = ", ".join(columns)
            picked = ", ".join("1" if c == "game_index" else "'win'" if c == "outcome" else
                               "1500" if c == "score" else c for c in columns)
            db.execute(f"INSERT INTO games ({names}) SELECT {picked} FROM games "
                       "WHERE game_index = 0")
            assert db.execute("SELECT outcome FROM games WHERE game_index = 1").fetchone() == (
                "win",)
        (tmp_path / "gate2").touch()
        out, err = batch.communicate(timeout=300)
    finally:
        batch.kill()
        batch.wait()
    assert batch.returncode == 0, err
    assert "1 rows appeared in the store for games only this batch could play" in err
    assert "1 games played, 1 already stored: 2 of 2" in out
    rows = _rows(store)
    assert rows[0] == played[0]
    assert rows[1][2:4] != ("win", 1500)
    # the game played is the one stored: a fresh store gets the same game 1
    fresh = tmp_path / "fresh.db"
    (tmp_path / "plays.log").unlink()
    again = subprocess.run([*command[:-1], str(fresh), "-n", "2"], capture_output=True,
                           text=True, timeout=300, env=env)
    assert again.returncode == 0, again.stderr
    assert _rows(fresh) == rows
