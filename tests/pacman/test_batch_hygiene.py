"""A batch's processes and numbers: no process outlives the batch, Ctrl-C at any moment is one
line, a dead worker is a recorded failure, every number is range-checked, `-k` clamps."""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from pacman.cli import main
from pacman.errors import BatchError, LimitError
from pacman.experiments import resolve_config, run_batch
from pacman.experiments.config import GameConfig
from pacman.experiments.store import ResultStore, open_results
from pacman.record import Outcome
from pacman.specs import AgentSpec

ROOT = Path(__file__).resolve().parents[2]

AGENTS = '''
import os
import signal
import time

from pacman.agents.simple import RandomAgent


class Slow(RandomAgent):
    """A random Pacman that takes its time (MOVE_SECONDS per move)."""

    def get_action(self, state):
        time.sleep(float(os.environ.get("MOVE_SECONDS", "0.01")))
        return super().get_action(state)


class Killer(RandomAgent):
    """A Pacman whose first move kills its own process, as `kill -9` from outside would."""

    def get_action(self, state):
        os.kill(os.getpid(), signal.SIGKILL)
'''


@pytest.fixture
def agents_folder(tmp_path: Path) -> Path:
    (tmp_path / "test_agents.py").write_text(AGENTS)
    return tmp_path


def environment(folder: Path, move_seconds: float = 0.01) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(folder)]),
            "MOVE_SECONDS": str(move_seconds)}


def batch_command(out: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "pacman", "batch", *args, "-o", str(out)]


def row_count(path: Path) -> int:
    if not path.exists():  # (connecting would create it)
        return 0
    try:
        with closing(sqlite3.connect(path, timeout=5)) as db:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:  # not created yet
        return 0


def wait_for_rows(path: Path, rows: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while row_count(path) < rows:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the batch stored nothing in 60 s"
        time.sleep(0.05)


def session(sid: int) -> list[str]:
    """The live (not zombie) processes of session `sid`: the batch and all it started."""
    listed = subprocess.run(["ps", "-s", str(sid), "-o", "pid=,stat=,args="],
                            capture_output=True, text=True).stdout.splitlines()
    return [line.strip() for line in listed if line.split()[1][:1] != "Z"]


def wait_until_gone(sid: int, seconds: float = 10.0) -> list[str]:
    deadline = time.monotonic() + seconds
    while session(sid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return session(sid)


def cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- processes ----------------------------------------------------------------------------


def test_killing_only_the_batch_ends_its_workers_and_the_resource_tracker(
        agents_folder: Path) -> None:
    db = agents_folder / "r.db"
    batch = subprocess.Popen(
        batch_command(db, "-p", "test_agents:Slow", "-l", "smallClassic", "-n", "200", "-j",
                      "2", "--max-moves", "30"),
        env=environment(agents_folder), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True)
    wait_for_rows(db, 1, batch)
    children = subprocess.run(["pgrep", "-P", str(batch.pid), "-a"], capture_output=True,
                              text=True).stdout
    lines = children.splitlines()
    assert sum("spawn_main" in line for line in lines) == 2, children  # the two workers
    assert sum("resource_tracker" in line for line in lines) == 1, children
    batch.send_signal(signal.SIGKILL)  # the batch alone: its workers get no signal
    batch.communicate(timeout=30)
    assert wait_until_gone(batch.pid) == []  # (zombies waiting for init to reap them aside)


def write_to_fifo(fifo: Path, text: str, process: subprocess.Popen[str]) -> None:
    """Write `text` once the batch opens the FIFO (so its command line is running)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            handle = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as error:
            if error.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the batch never read its experiment file"
        time.sleep(0.002)
    os.set_blocking(handle, True)
    os.write(handle, text.encode())
    os.close(handle)


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2, 0.5, 1.0, 2.0])
def test_ctrl_c_at_any_moment_is_one_line_and_the_store_stays_whole(
        delay: float, agents_folder: Path) -> None:
    # The process waits on a FIFO before it runs `pacman batch` (an experiment file must be
    # a regular file, so the gate is in front of the command), so the delay counts from the
    # moment the command starts, whatever the machine's load; then the Ctrl-C lands in
    # importing, reading the grid, resolving agents, opening the store, starting the workers
    # (whose start-up must not print), playing or storing games.
    fifo = agents_folder / "gate"
    os.mkfifo(fifo)
    db = agents_folder / "r.db"
    grid_file = agents_folder / "grid.json"
    grid = {"pacman": ["test_agents:Slow"], "layouts": ["smallClassic"], "games": 30,
            "max_moves": 20}
    grid_file.write_text(json.dumps(grid))
    arguments = batch_command(db, str(grid_file), "-j", "2")[3:]
    # (a Ctrl-C at the gate is what `python -m pacman` makes of one while it loads; `-m` in
    # argv[0] while the package loads, as `python -m pacman` has it)
    command = [sys.executable, "-c",
               "import os, signal, sys, runpy; signal.signal(signal.SIGINT, lambda *_: ("
               "os.write(2, b'pacman: interrupted\\n'), os._exit(130))); "
               f"open({str(fifo)!r}, 'rb').read(); sys.argv = ['-m', *{arguments!r}]; "
               "runpy.run_module('pacman', run_name='__main__')"]
    batch = subprocess.Popen(command, env=environment(agents_folder), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    write_to_fifo(fifo, "go", batch)
    time.sleep(delay)
    os.killpg(batch.pid, signal.SIGINT)  # as the terminal does: the batch and its workers
    _out, err = batch.communicate(timeout=60)
    assert batch.returncode == 130, err
    assert len(err.splitlines()) == 1 and err.startswith("pacman: interrupted"), err
    assert wait_until_gone(batch.pid) == []
    stored = row_count(db)
    said = re.search(r"interrupted: (\d+) of 30 games are stored", err)
    if said:
        assert int(said.group(1)) == stored
    if db.exists():
        with closing(sqlite3.connect(db)) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert connection.execute("SELECT COUNT(*), COUNT(DISTINCT game_index) FROM games"
                                      ).fetchone() == (stored, stored)
            assert connection.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)
        with open_results(db) as store:
            kept = [(g.index, g.record_json) for g in store.games()]
    else:
        kept = []
    fifo.unlink()
    fifo.write_text(json.dumps(grid))  # the same grid, from a plain file this time
    resumed = subprocess.run(command, env=environment(agents_folder, 0.0), capture_output=True,
                             text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{30 - stored} games played, {stored} already stored" in resumed.stdout
    with open_results(db) as store:
        games = [(g.index, g.record_json) for g in store.games()]
    assert games[:stored] == kept and sorted(i for i, _ in games) == list(range(30))


def test_ctrl_c_while_the_command_is_still_importing_is_one_line(tmp_path: Path) -> None:
    # Sent while the command imports, once our package's first lines have run (here a
    # `sitecustomize` hook says when the import of `pacman.cli` starts). Before those lines,
    # the start-up is Python's own (its `site`, `runpy` for `python -m`, the console script's
    # first imports): a Ctrl-C there is Python's "Fatal Python error: init_import_site" or
    # traceback, exit 1, before any code of ours can run.
    started = tmp_path / "importing"
    (tmp_path / "sitecustomize.py").write_text(
        "import sys\n"
        "class _Hook:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'pacman.cli':\n"
        f"            open({str(started)!r}, 'w').close()\n"
        "        return None\n"
        "sys.meta_path.insert(0, _Hook())\n", encoding="utf-8")
    batch = subprocess.Popen(batch_command(tmp_path / "r.db", "-p", "random", "-n", "1"),
                             env=environment(tmp_path), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    while not started.exists():
        assert batch.poll() is None, batch.communicate()
        time.sleep(0.001)
    os.killpg(batch.pid, signal.SIGINT)
    _, err = batch.communicate(timeout=60)
    assert batch.returncode == 130 and len(err.splitlines()) == 1, err


def test_a_worker_killed_from_outside_is_played_again_not_a_hang(agents_folder: Path) -> None:
    db = agents_folder / "r.db"
    batch = subprocess.Popen(
        batch_command(db, "-p", "test_agents:Slow", "-l", "smallClassic", "-n", "12", "-j",
                      "2", "--max-moves", "20"),
        env=environment(agents_folder), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True)
    wait_for_rows(db, 1, batch)
    workers = subprocess.run(["pgrep", "-P", str(batch.pid), "-f", "spawn_main"],
                             capture_output=True, text=True).stdout.split()
    os.kill(int(workers[0]), signal.SIGKILL)
    out, err = batch.communicate(timeout=120)
    assert batch.returncode == 0, err
    assert "12 of 12" in out
    retried = re.search(r"played again after a worker died: (\d+)", out)
    assert retried and int(retried.group(1)) >= 1, out
    with ResultStore(db) as store:
        games = store.games()
    assert sorted(g.index for g in games) == list(range(12))
    assert all(g.complete for g in games)  # played again, alone, to the end
    assert wait_until_gone(batch.pid) == []


def test_a_game_whose_worker_is_killed_twice_is_a_recorded_crash(
        agents_folder: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(agents_folder))  # spawned workers inherit sys.path
    db = agents_folder / "r.db"
    code, _out, err = cli("batch", "-p", "test_agents:Killer", "-p", "random", "-l",
                         "testClassic", "-n", "1", "-j", "2", "--max-moves", "50", "-o",
                         str(db), "--isolation", "none", capsys=capsys)  # in the worker
    assert code == 0, err
    with ResultStore(db) as store:
        games = {game.config.pacman.name: game for game in store.games()}
    killed = games["test_agents:Killer"]
    assert (killed.outcome, killed.complete) == (Outcome.CRASH, False)
    assert "worker failed twice" in (killed.fault or "")
    assert games["RandomAgent"].complete


# --- numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["--seed", str(10**29)], "argument --seed: expected a whole number from"),
    (["--seed", str(-10**29)], "argument --seed: expected a whole number from"),
    (["--seed", "1" * 5000], "argument --seed: expected a whole number, got"),
    (["-n", "0"], "argument -n/--games: expected a whole number from 1 to 1000000"),
    (["-n", str(10**7)], "argument -n/--games: expected a whole number from 1 to 1000000"),
    (["--max-moves", str(2**63)], "argument --max-moves: expected a whole number from 0 to"),
    (["-j", str(10**6)], "argument -j/--jobs: expected a whole number from 1 to 256"),
    (["-j", "0"], "argument -j/--jobs: expected a whole number from 1 to 256"),
    (["--game-timeout", "inf"], "argument --game-timeout: expected seconds > 0"),
    (["--game-timeout", "nan"], "argument --game-timeout: expected seconds > 0"),
    (["--move-timeout", "1e300"], "argument --move-timeout: expected seconds > 0"),
    (["-k", str(10**30)], "argument -k/--num-ghosts"),
    (["-p", "random", "-p", "greedy", "-l", "testClassic", "-l", "smallClassic", "-n",
      "300000"], "4 configurations x 300000 games = 1,200,000 games, more than one batch"),
])
def test_numbers_out_of_range_are_one_line(args: list[str], message: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    if "-p" not in args:
        args = ["-p", "random", "-l", "testClassic", "-n", "1", *args]
    code, out, err = cli("batch", *args, "-o", str(tmp_path / "r.db"), capsys=capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("pacman: error: "), err
    assert message in err
    assert not (tmp_path / "r.db").exists()


@pytest.mark.parametrize("key, value, message", [
    ("seed", 10**29, "seed must be a whole number from"),
    ("games", 10**12, "games must be a whole number from 1 to 1000000"),
    ("max_moves", 2**64, "max_moves must be a whole number from 0 to"),
    ("game_timeout", 1e300, "game_timeout: expected seconds > 0"),
    ("move_timeout", 1e300, "move_timeout: expected seconds > 0"),
])
def test_numbers_of_an_experiment_file_are_range_checked(
        key: str, value: object, message: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"pacman": ["random"], "layouts": ["testClassic"], key: value}))
    code, out, err = cli("batch", str(grid), "-o", str(tmp_path / "r.db"), capsys=capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and f"{grid}: {message}" in err, err


def test_run_batch_checks_its_numbers(tmp_path: Path) -> None:
    config = GameConfig(AgentSpec("random"), layout="testClassic")
    for kwargs, message in [({"seed": 10**29}, "seed must be a whole number"),
                            ({"games": 10**7}, "games must be a whole number")]:
        with pytest.raises(BatchError, match=message):
            run_batch([config], **{"games": 1, "store": tmp_path / "r.db", **kwargs})
    with pytest.raises(LimitError, match="game_time_limit: expected seconds > 0"):
        run_batch([config], games=1, store=tmp_path / "r.db", game_time_limit=float("inf"))
    huge = GameConfig(AgentSpec("random"), layout="testClassic", max_moves=2**63)
    with pytest.raises(BatchError, match="max_moves must be at most"):
        run_batch([huge], games=1, store=tmp_path / "r.db")
    assert not (tmp_path / "r.db").exists()


@pytest.mark.parametrize("seed", [2**63 - 1, -(2**63)])
def test_the_largest_seeds_are_stored(seed: int, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = cli("batch", "-p", "random", "-l", "testClassic", "-n", "2", "--seed",
                         str(seed), "--max-moves", "30", "-j", "1", "-o",
                         str(tmp_path / "r.db"), capsys=capsys)
    assert code == 0, err
    with open_results(tmp_path / "r.db") as store:
        assert {game.base_seed for game in store.games()} == {seed}


def test_more_ghosts_than_the_layout_has_clamps_as_play_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "r.db"
    code, out, err = cli("batch", "-p", "random", "-l", "testClassic", "-k", "100", "-k", "1",
                         "-n", "2", "--max-moves", "30", "-j", "1", "-o", str(db),
                         capsys=capsys)
    assert code == 0, err
    assert "2 games played" in out  # -k 100 and -k 1 are the same configuration here
    with open_results(db) as store:
        assert {game.config.num_ghosts for game in store.games()} == {1}
    code, out, err = cli("table", str(db), "--by", "num_ghosts", "--format", "csv",
                         capsys=capsys)
    assert code == 0 and out.splitlines()[1].startswith("1,2,"), out
    code, out, _ = cli("batch", "-p", "random", "-l", "smallClassic", "-k", "5", "--dry-run",
                       "-o", str(db), capsys=capsys)
    assert code == 0 and "vs 2 RandomGhost on smallClassic" in out
    assert resolve_config(GameConfig(AgentSpec("random"), num_ghosts=1,
                                     layout="testClassic")).config.num_ghosts == 1


@pytest.mark.parametrize("name, text", [
    ("deep.json", '{"pacman": ' + "[" * 100_000 + "]" * 100_000 + "}"),
    ("deep.toml", "pacman = " + "[" * 100_000 + "]" * 100_000 + "\n"),
    ("deep_tables.json", '{"pacman": [' + '{"a":' * 100_000 + "1" + "}" * 100_000 + "]}"),
])
def test_an_experiment_file_nested_too_deeply_is_one_line(
        name: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    path.write_text(text)
    code, out, err = cli("batch", str(path), "-o", str(tmp_path / "r.db"), capsys=capsys)
    assert (code, out) == (2, "")
    assert err == f"pacman: error: {path}: nested too deeply to be an experiment file\n"
