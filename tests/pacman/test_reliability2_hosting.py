"""Hosting untrusted agent code (issue 27, items 4, 5, 9, 13 and 15): whatever an agent's code
does while it loads or plays is its recorded outcome or one line naming it, and no process of
a command outlives it.

- an agent whose `describe()` fails is its games' `crash` in `batch`, as in `play`;
- an agent that forks under a time limit: the copy never speaks for it, and a move the game
  does not allow on the watched channel is a `crash`, not a traceback;
- loading an agent's code has a time limit (`load_limit`), and a process that dies while it
  loads is one line;
- a worker killed while the process pool starts is replaced;
- the agent processes of a command killed with SIGKILL die with it, even while agent code
  holds the interpreter (a loop in C at import).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from pacman import limits as time_limits
from pacman import load_layout
from pacman.cli import main
from pacman.experiments.backends import START_ATTEMPTS, ProcessBackend
from pacman.experiments.store import ResultStore
from pacman.hosting.isolation import _death_pact
from pacman.hosting.local import play
from pacman.hosting.watched import WatchedGames
from pacman.limits import TimeLimits
from pacman.record import Outcome
from pacman.specs import AgentSpec, GameSpec

ROOT = Path(__file__).resolve().parents[2]
TINY = load_layout("testClassic")

AGENTS = '''
import gc
import os


class BadDescribe:
    def get_action(self, state):
        return state.legal_actions(0)[0]

    def describe(self):
        raise ValueError("no description")


class Last:
    def get_action(self, state):
        return state.legal_actions(0)[-1]


class Forker:
    """Forks on every move: the copy answers the first legal move, the original the last."""

    def get_action(self, state):
        if os.fork() == 0:
            return state.legal_actions(0)[0]
        return state.legal_actions(0)[-1]


class Forger:
    """Writes a move of a ghost on the watched game's channel, then plays."""

    def get_action(self, state):
        for thing in gc.get_objects():
            if type(thing).__name__ == "Channel":
                thing.send({"event": "move", "agent": 2, "action": "North"})
        return state.legal_actions(0)[-1]
'''

LOOPS = '''
while True:
    pass


class Loop:
    def get_action(self, state):
        return "Stop"
'''

C_LOOPS = '''
total = sum(range(10 ** 15))  # a loop in C: it never lets another thread of its process run


class Loop:
    def get_action(self, state):
        return "Stop"
'''

EXITS = '''
import os

os._exit(6)


class Exit:
    def get_action(self, state):
        return "Stop"
'''


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (("hosting_agents.py", AGENTS), ("loops.py", LOOPS),
                       ("c_loops.py", C_LOOPS), ("exits.py", EXITS)):
        (tmp_path / name).write_text(textwrap.dedent(text))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def command(*argv: str, cwd: Path, env: dict[str, str] | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pacman", *argv], capture_output=True,
                          text=True, cwd=cwd, timeout=timeout, env=env)


def one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pacman: error: "), stderr
    return lines[0]


# --- item 4: describe() that raises ----------------------------------------------------------


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_an_agent_whose_describe_fails_is_a_crash_in_batch_as_in_play(
        folder: Path, isolation: str) -> None:
    db = folder / "r.db"
    done = command("batch", "-p", "hosting_agents.py:BadDescribe", "-l", "testClassic", "-n",
                   "2", "-j", "1", "--max-moves", "20", "-o", str(db), "--isolation", isolation,
                   cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    with ResultStore(db) as store:
        games = store.games()
    assert len(games) == 2
    for game in games:
        stored = game.record()
        played = play(GameSpec.of(TINY, AgentSpec(str(folder / "hosting_agents.py:BadDescribe")),
                                  AgentSpec("RandomGhost"), 1, stored.seed, max_moves=20),
                      isolation=isolation)
        assert (stored.outcome, stored.fault, stored.fault_agent) == (
            Outcome.CRASH, "ValueError: no description", 0)
        # the game of record `play` plays, names included (in a host as without one)
        assert stored.agents == played.agents == ("BadDescribe", "RandomGhost")
        assert (stored.outcome, stored.score, stored.actions, stored.fault) == (
            played.outcome, played.score, played.actions, played.fault)


# --- item 5: forks and forged moves under a time limit ---------------------------------------


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_a_forking_agent_plays_the_game_of_its_original_process(folder: Path,
                                                                isolation: str) -> None:
    def game(agent: str) -> str:
        done = command("play", "-p", f"hosting_agents.py:{agent}", "-l", "testClassic", "-q",
                       "--seed", "1", "--max-moves", "20", "--timeout", "5", "--isolation",
                       isolation, cwd=folder)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()[0]

    forked = game("Forker")
    assert forked.startswith("game 1: seed 1, capped"), forked
    assert forked == game("Last")  # the copies ended at their first word on the channel


def test_a_move_forged_on_the_watched_channel_is_the_agents_crash(folder: Path) -> None:
    spec = GameSpec.of(TINY, AgentSpec(str(folder / "hosting_agents.py:Forger")),
                       AgentSpec("RandomGhost"), 1, 1, max_moves=20,
                       limits=TimeLimits(move=5.0))
    with WatchedGames(isolation="none") as watched:
        record = watched.play(spec)
        assert record.outcome is Outcome.CRASH
        assert record.fault == ("the agents' process sent a move the game does not allow "
                                "(agent 2, North)")
        # and the next game gets a fresh child
        again = watched.play(GameSpec.of(TINY, AgentSpec("GreedyAgent"),
                                          AgentSpec("RandomGhost"), 1, 1, max_moves=20,
                                          limits=TimeLimits(move=5.0)))
    assert again.outcome is not Outcome.CRASH


# --- item 9: loading an agent's code has a time limit ----------------------------------------


def test_the_load_limit_is_the_game_limit_within_bounds() -> None:
    assert time_limits.load_limit(None) == time_limits.LOAD_SECONDS == 60
    assert time_limits.load_limit(4) == time_limits.LOAD_SECONDS_MIN == 10
    assert time_limits.load_limit(25) == 25
    assert time_limits.load_limit(1e6) == 60
    assert time_limits.TimeLimits(move=1.0, game=25.0).load == 25


@pytest.mark.parametrize("isolation", ["process", "none"])
@pytest.mark.parametrize("which", ["play", "batch"])
def test_an_agent_that_loops_at_import_is_one_line_after_the_load_limit(
        folder: Path, isolation: str, which: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(time_limits, "LOAD_SECONDS_MIN", 1.0)  # the limit: the game's 2 s
    limits = (["--timeout", "1", "--game-timeout", "2", "-q"] if which == "play" else
              ["--move-timeout", "1", "--game-timeout", "2", "-o", str(folder / "r.db")])
    code = main([which, "-p", "loops.py:Loop", "-l", "testClassic", "--max-moves", "20",
                 "--isolation", isolation, *limits])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert one_error_line(err).endswith(
        "loops.py:Loop did not load within 2s (the limit on loading an agent's code: "
        "importing it and building it)")
    assert not (folder / "r.db").exists()


@pytest.mark.parametrize("which", ["play", "batch"])
def test_an_agents_file_that_loops_at_import_is_one_line(
        folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        which: str) -> None:
    """`--agents FILE` is imported by `play` and `batch` themselves to read its class names:
    a soft limit."""
    monkeypatch.setattr(time_limits, "LOAD_SECONDS_MIN", 1.0)
    limits = (["-q", "--timeout", "1"] if which == "play" else
              ["--move-timeout", "1", "-o", str(folder / "r.db")])
    code = main([which, "--agents", "loops.py", "-p", "Loop", "-l", "testClassic",
                 "--game-timeout", "2", *limits])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert one_error_line(err) == (
        "pacman: error: loops.py did not load within 2s (the limit on loading an agent's "
        "code: importing it and building it)")


@pytest.mark.parametrize("isolation", ["process", "none"])
@pytest.mark.parametrize("which", ["play", "batch"])
def test_an_agent_that_exits_at_import_is_one_line(folder: Path, isolation: str,
                                                   which: str) -> None:
    limits = (["--timeout", "1", "-q"] if which == "play" else
              ["--move-timeout", "1", "-o", str(folder / "r.db")])
    done = command(which, "-p", "exits.py:Exit", "-l", "testClassic", "--max-moves", "20",
                   "--isolation", isolation, *limits, cwd=folder)
    assert done.returncode == 2, done.stdout + done.stderr
    line = one_error_line(done.stderr)
    assert "exits.py:Exit" in line or "exits.py" in line, line
    assert "exit code 6" in line or "os._exit(6) called by agent code" in line, line


# --- item 13: a worker that dies while the pool starts ---------------------------------------


def _workers_killer(stop: threading.Event, kills: list[int], every: bool) -> None:
    """Kill the pool workers of this process as they appear (the first, or every one)."""
    task = f"/proc/{os.getpid()}/task"
    while not stop.is_set() and (every or not kills):
        for thread in os.listdir(task):
            try:
                children = Path(f"{task}/{thread}/children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                try:
                    spawned = b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
                except OSError:
                    continue
                if spawned and child not in kills and (every or not kills):
                    os.kill(child, signal.SIGKILL)
                    kills.append(child)
        time.sleep(0.001)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_a_worker_killed_while_the_pool_starts_is_replaced() -> None:
    stop, kills = threading.Event(), []
    killer = threading.Thread(target=_workers_killer, args=(stop, kills, False))
    killer.start()
    backend = ProcessBackend(2)
    try:
        pool = backend.start()
    finally:
        stop.set()
        killer.join()
    try:
        assert len(kills) == 1
        assert sorted(pool.map(abs, [-2, -1])) == [1, 2]  # a working pool, in its place
    finally:
        backend.stop(pool)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_workers_that_always_die_at_start_are_one_line_after_bounded_tries(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    stop, kills = threading.Event(), []
    killer = threading.Thread(target=_workers_killer, args=(stop, kills, True))
    killer.start()
    try:
        code = main(["batch", "-p", "random", "-l", "testClassic", "-n", "2", "-j", "2",
                     "--max-moves", "20", "-o", str(tmp_path / "r.db")])
    finally:
        stop.set()
        killer.join()
    _out, err = capsys.readouterr()
    assert code == 2
    assert one_error_line(err).startswith(
        f"pacman: error: the worker processes could not start ({START_ATTEMPTS} tries; ")
    assert len(kills) >= START_ATTEMPTS


# --- item 15: a command's agent processes die with it ----------------------------------------


def _descendants(pid: int) -> dict[int, str]:
    """The processes below `pid`, each with its start time (so a reused pid is not them)."""
    found: dict[int, str] = {}
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for thread in threads:
        try:
            children = Path(f"/proc/{pid}/task/{thread}/children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            started = _started(child)
            if started is not None:
                found[child] = started
                found.update(_descendants(child))
    return found


def _started(pid: int) -> str | None:
    """The start time of a live (not zombie) process, or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else fields[19]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("namespaces", [True, False])
@pytest.mark.parametrize("which", ["play", "batch"])
def test_agent_processes_die_with_a_killed_command(folder: Path, which: str,
                                                   namespaces: bool) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if not namespaces:  # an `unshare` that fails: hosts without namespaces of their own
        fake = folder / "bin"
        fake.mkdir()
        (fake / "unshare").write_text("#!/bin/sh\nexit 1\n")
        (fake / "unshare").chmod(0o755)
        env["PATH"] = f"{fake}{os.pathsep}{env.get('PATH', '')}"
    argv = (["play", "-q", "--timeout", "1"] if which == "play" else
            ["batch", "--move-timeout", "1", "-o", str(folder / "r.db")])
    command = subprocess.Popen([sys.executable, "-m", "pacman", *argv, "-p", "c_loops.py:Loop",
                                "-l", "testClassic"], cwd=folder, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 60
        while not children and time.monotonic() < deadline:
            time.sleep(0.1)
            children = _descendants(command.pid)
        assert children, "no agent process started"
        time.sleep(1.5)  # into the agent's import, which holds its interpreter from then on
        children.update(_descendants(command.pid))
    finally:
        command.kill()
        command.wait()
    deadline = time.monotonic() + 10
    alive = children
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = {pid: started for pid, started in children.items() if _started(pid) == started}
    for pid in alive:  # (so that a failure leaves nothing spinning)
        os.kill(pid, signal.SIGKILL)
    assert not alive


def test_children_die_with_the_main_thread_only() -> None:
    """The kernel's signal comes when the forking thread ends: only the main thread asks."""
    assert callable(_death_pact()) == sys.platform.startswith("linux")
    found: list[object] = []
    thread = threading.Thread(target=lambda: found.append(_death_pact()))
    thread.start()
    thread.join()
    assert found == [None]


def test_stopping_a_busy_pool_waits_for_its_manager_thread() -> None:
    # The manager thread closes the pool's wake-up pipe once it sees the workers gone; if the
    # batch exits before that, Python 3.11's exit hook can write to the pipe as it closes
    # ("Exception ignored ... Bad file descriptor" after a Ctrl-C). stop() waits for it.
    backend = ProcessBackend(1)
    pool = backend.start()
    manager = vars(pool)["_executor_manager_thread"]
    assert isinstance(manager, threading.Thread) and manager.is_alive()
    busy = pool.submit(time.sleep, 600)
    backend.stop(pool)
    assert not manager.is_alive()
    assert busy.done()
