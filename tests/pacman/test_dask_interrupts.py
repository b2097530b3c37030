"""Ctrl-C, `kill` and `kill -9` of a `pacman batch --backend dask` at any moment (issue 46,
class 11): one line and exit 130, no Dask traceback, no worker left behind.

Each moment is an event of the running batch, waited for, not a time: its first worker
process exists (the local cluster is starting), or its first game is stored (the cluster is up
and playing). Ctrl-C goes to the terminal's whole process group, workers included (as a
terminal sends it); `kill` and `kill -9` to the batch alone.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing, suppress
from pathlib import Path

import pytest

from conftest import optional

optional("distributed", "dask")
psutil = optional("psutil", "dask")

ROOT = Path(__file__).resolve().parents[2]
WAIT = 120.0  # the longest any event may take on a busy machine


def start(folder: Path) -> subprocess.Popen[str]:
    """A batch of many games on a local two-worker cluster, in a process group of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "pacman", "batch", "--backend", "dask", "-j", "2", "-p",
         "greedy", "-l", "smallClassic", "--games", "200", "-o", str(folder / "r.db")],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)})


def workers(batch: subprocess.Popen[str]) -> list[psutil.Process]:
    """The batch's worker processes (started by `multiprocessing`'s spawn)."""
    found = []
    with suppress(psutil.Error):
        for child in psutil.Process(batch.pid).children(recursive=True):
            with suppress(psutil.Error):
                if any("spawn_main" in part for part in child.cmdline()):
                    found.append(child)
    return found


def a_worker_starts(batch: subprocess.Popen[str], folder: Path) -> bool:
    return bool(workers(batch))


def a_game_is_stored(batch: subprocess.Popen[str], folder: Path) -> bool:
    path = folder / "r.db"
    if not path.exists():
        return False
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)) as db:
            return bool(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:  # (being created)
        return False


def wait_for(event: Callable[[subprocess.Popen[str], Path], bool],
             batch: subprocess.Popen[str], folder: Path) -> list[psutil.Process]:
    """Wait until `event` happens (polling the batch's processes and files); its workers."""
    deadline = time.monotonic() + WAIT
    while not event(batch, folder):
        assert batch.poll() is None, batch.communicate()
        assert time.monotonic() < deadline, f"no {event.__name__} in {WAIT:g} s"
        time.sleep(0.01)
    return workers(batch)


def finish(batch: subprocess.Popen[str]) -> tuple[int, list[str]]:
    """The batch's exit code and the lines on stderr, once every process that holds its
    pipes (its workers too) is gone."""
    try:
        _, err = batch.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        os.killpg(batch.pid, signal.SIGKILL)
        _, err = batch.communicate()
        pytest.fail(f"the batch or its workers still ran after {WAIT:g} s: {err[-2000:]}")
    return batch.returncode, [line for line in err.splitlines() if line.strip()]


def none_left(processes: list[psutil.Process]) -> bool:
    deadline = time.monotonic() + WAIT
    while any(process.is_running() and process.status() != psutil.STATUS_ZOMBIE
              for process in processes):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


MOMENTS = {"a worker starts": a_worker_starts, "a game is stored": a_game_is_stored}


@pytest.mark.parametrize("how", ["ctrl-c", "kill"])
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_an_interrupted_dask_batch_says_one_line_and_exits_130(
        moment: str, how: str, tmp_path: Path) -> None:
    batch = start(tmp_path)
    seen = wait_for(MOMENTS[moment], batch, tmp_path)
    if how == "ctrl-c":
        os.killpg(batch.pid, signal.SIGINT)  # (as a terminal sends it: workers too)
    else:
        batch.send_signal(signal.SIGTERM)
    code, lines = finish(batch)
    assert code == 130, lines
    assert len(lines) == 1 and lines[0].startswith("pacman: interrupted"), lines
    if moment == "a game is stored":
        assert lines[0].startswith("pacman: interrupted: ") and "of 200 games" in lines[0]
    assert none_left(seen)


def test_a_dask_batch_killed_with_kill_9_takes_its_workers_quietly(tmp_path: Path) -> None:
    batch = start(tmp_path)
    seen = wait_for(a_game_is_stored, batch, tmp_path)
    assert seen
    batch.kill()
    code, lines = finish(batch)  # (its pipes close when its workers are gone)
    assert code == -signal.SIGKILL
    assert none_left(seen)
    # at most multiprocessing's resource tracker's two lines about the batch's semaphores
    assert len(lines) <= 2 and not any("Traceback" in line for line in lines), lines
