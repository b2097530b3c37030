"""Batches on a Dask cluster whose scheduler and workers are separate processes in folders of
their own, on 127.0.0.1, as on other machines (issue 27, the cluster items).

Workers need only this package: the user's agent modules, layouts and weights files travel
with the games by content; a worker running other code, or none of it, is refused with one
line; a game that cannot start is never stored as the agents' fault; no usable worker for
`--worker-wait` seconds stops the batch with one line and exit 2, its stored games kept; the
games in flight follow the workers there now.

How the faults are made: a worker "on another machine" is a worker started in another
folder, and files the client deletes once the batch has read them (so no worker could read
them from the client's disk); a worker "running other code" imports a copy of this package with
one line added (PYTHONPATH), so its code version really differs; a worker "without the
package" is started with a `--preload` script that makes `import pacman` fail there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import closing, suppress
from pathlib import Path
from typing import Any

import pytest

from conftest import optional
from pacman.errors import BatchError
from pacman.experiments import run_batch
from pacman.experiments.cluster import DaskBackend
from pacman.experiments.config import GameConfig
from pacman.experiments.grid import resolve_configs
from pacman.specs import AgentSpec
from pacman.versions import package_version

distributed = optional("distributed", "dask")

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = ["--max-moves", "20", "--progress-every", "0"]
GAME = ["-l", "testClassic", *OPTIONS]
LONG = ["-l", "mediumClassic", *OPTIONS]  # (20 moves, never over sooner: a game takes its time)

AGENT = '''
import time

from helper import PAUSE
from pacman.agents.simple import GreedyAgent


class Mine(GreedyAgent):
    """A greedy Pacman whose module imports a helper module of its folder."""

    def get_action(self, state):
        time.sleep(PAUSE)
        return super().get_action(state)
'''

EVALUATION = '''
def evaluate(state):
    return state.score - len(state.ghost_positions)
'''

LAYOUT = """%%%%%%%%%
%.P   G %
% %%%%% %
%.  o  .%
%%%%%%%%%
"""


# --- a cluster of separate processes ----------------------------------------------------------


class Cluster:
    """A `dask scheduler` and `dask worker`s, each a process started in a folder of its own."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.processes: list[subprocess.Popen[bytes]] = []
        where = folder / "scheduler"
        where.mkdir(parents=True)
        info = where / "scheduler.json"
        # (idle and death time-outs: a test run killed from outside leaves nothing running)
        self.scheduler = self._start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                      "--port", "0", "--no-dashboard", "--idle-timeout", "600",
                                      "--scheduler-file", str(info)], where)
        deadline = time.monotonic() + 60
        while not info.is_file() or not info.read_text().strip():
            assert self.scheduler.poll() is None, (where / "log").read_text()
            assert time.monotonic() < deadline, "the scheduler did not start in 60 s"
            time.sleep(0.05)
        time.sleep(0.05)  # (the file is written whole, but let its writer finish)
        self.address: str = json.loads(info.read_text())["address"]

    def _start(self, command: list[str], where: Path,
               env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        log = open(where / "log", "ab")  # noqa: SIM115 (the process keeps it)
        process = subprocess.Popen([sys.executable, "-m", *command], cwd=where, env=env,
                                   stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        log.close()
        self.processes.append(process)
        return process

    def add_worker(self, name: str, env: dict[str, str] | None = None,
                   preload: Path | None = None, wait: bool = True
                   ) -> subprocess.Popen[bytes]:
        """Start a single-threaded worker in folder `name` (and wait until it is there)."""
        where = self.folder / name
        where.mkdir(parents=True)
        before = set(self.workers())
        command = ["distributed.cli.dask_worker", self.address, "--host", "127.0.0.1",
                   "--nthreads", "1", "--no-dashboard", "--no-nanny", "--death-timeout", "60",
                   "--name", name]
        if preload is not None:
            command += ["--preload", str(preload)]
        process = self._start(command, where, env)
        deadline = time.monotonic() + 60
        while wait and not set(self.workers()) - before:
            assert process.poll() is None, (where / "log").read_text()
            assert time.monotonic() < deadline, "the worker did not join in 60 s"
            time.sleep(0.1)
        return process

    def workers(self) -> dict[str, str]:
        """The workers there now: address -> name."""
        with distributed.Client(self.address, timeout=10) as client:
            info = client.scheduler_info(n_workers=-1)["workers"]
        return {address: str(entry.get("name")) for address, entry in info.items()}

    def executed(self) -> dict[str, int]:
        """How many tasks each worker ran, by name."""
        with distributed.Client(self.address, timeout=10) as client:
            counts = client.run(lambda dask_worker: dask_worker.state.executed_count)
            names = {address: str(entry.get("name")) for address, entry in
                     client.scheduler_info(n_workers=-1)["workers"].items()}
        return {names[address]: count for address, count in counts.items()}

    def stop(self, process: subprocess.Popen[bytes] | None = None) -> None:
        """Stop one process, or all of them."""
        for each in [process] if process is not None else list(self.processes):
            with suppress(ProcessLookupError):
                each.kill()
            each.wait(timeout=30)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A scheduler and two workers, shared by the tests that do not change them."""
    made = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        made.add_worker("w1")
        made.add_worker("w2")
        yield made
    finally:
        made.stop()


@pytest.fixture
def bare(tmp_path: Path) -> Iterator[Cluster]:
    """A scheduler of its own, without workers: the test adds the ones it needs."""
    made = Cluster(tmp_path / "cluster")
    try:
        yield made
    finally:
        made.stop()


@pytest.fixture
def client_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's folder (the current one), with an agent module and its helper, an
    evaluation module, a weights file and a layout file."""
    folder = tmp_path / "client"
    folder.mkdir()
    (folder / "mine.py").write_text(AGENT)
    (folder / "helper.py").write_text("PAUSE = 0.0\n")
    (folder / "myeval.py").write_text(EVALUATION)
    shutil.copy(ROOT / "pacman" / "agents" / "weights" / "learned.json", folder / "w.json")
    (folder / "small.lay").write_text(LAYOUT)
    monkeypatch.chdir(folder)
    return folder


def batch(folder: Path, *args: str, env: dict[str, str] | None = None,
          ) -> subprocess.CompletedProcess[str]:
    """`pacman batch ARGS` run in `folder`."""
    return subprocess.run([sys.executable, "-m", "pacman", "batch", *args], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=300)


def records(path: Path) -> dict[tuple[str, int, str], dict[str, Any]]:
    """Each stored game's record (timings left out), by configuration key, index and code."""
    found = {}
    with closing(sqlite3.connect(path)) as db:
        db.row_factory = sqlite3.Row
        for row in db.execute("SELECT * FROM games"):
            record = json.loads(row["record"])
            for timing in ("think_time", "pacman_move_times"):
                record.pop(timing, None)
            found[row["config_key"], row["game_index"], row["code"]] = record
    return found


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("pacman: error:")]


# --- the user's files travel with the games ---------------------------------------------------


def test_the_users_files_travel_with_the_games_and_play_as_here(
        cluster: Cluster, client_folder: Path, tmp_path: Path) -> None:
    """An agent module (and its helper), a layout file, `evaluation=@weights.json` and
    `evaluation=file.py:fn` / `module:fn` (relative paths): the client reads them once, then
    deletes them, and every worker, in its own folder, plays exactly the local games."""
    configs = [
        GameConfig(AgentSpec("mine.py:Mine"), layout="small.lay", max_moves=20),
        GameConfig(AgentSpec.of("reflex", {"evaluation": "@w.json"}), layout="testClassic",
                   max_moves=20),
        GameConfig(AgentSpec.of("reflex", {"evaluation": "myeval.py:evaluate"}),
                   layout="testClassic", max_moves=20),
        GameConfig(AgentSpec.of("alphabeta", {"depth": 1, "evaluation": "myeval:evaluate"}),
                   layout="small.lay", max_moves=20),
    ]
    resolved = resolve_configs(configs)
    here = run_batch(resolved, games=3, store=tmp_path / "here.db", jobs=1)
    assert here.stored == 12

    hidden = tmp_path / "hidden"

    def hide(progress: object) -> None:  # once the batch has read them: no worker can
        if not hidden.exists():
            client_folder.rename(hidden)
            client_folder.mkdir()

    with DaskBackend(cluster.address) as backend:
        result = run_batch(resolved, games=3, store=tmp_path / "dask.db", backend=backend,
                           on_progress=hide)
    assert hidden.exists()
    assert (result.stored, result.outcomes.get("crash", 0)) == (12, 0)
    there = records(tmp_path / "dask.db")
    assert there == records(tmp_path / "here.db")  # same games, keys and code versions
    assert {record["agents"][0] for record in there.values()} == {
        "Mine", "ReflexAgent @w.json", "ReflexAgent myeval.py:evaluate",
        "AlphaBetaAgent depth=1 myeval:evaluate"}


def test_a_layout_file_is_part_of_the_code_version(client_folder: Path) -> None:
    (config,) = resolve_configs([GameConfig(AgentSpec("greedy"), layout="small.lay")])
    (client_folder / "small.lay").write_text(LAYOUT.replace("G ", " G"))
    (edited,) = resolve_configs([GameConfig(AgentSpec("greedy"), layout="small.lay")])
    assert config.config.key() == edited.config.key() and config.code != edited.code


# --- a game that cannot start is not stored ---------------------------------------------------


def test_a_game_that_cannot_start_here_is_not_stored_and_a_rerun_plays_it(
        client_folder: Path, tmp_path: Path) -> None:
    """On this machine: the agent file is gone once the batch began. Not the agent's crash:
    one line, nothing stored, and the rerun plays every game."""
    resolved = resolve_configs([GameConfig(AgentSpec("mine.py:Mine"), layout="testClassic",
                                           max_moves=20)])
    store = tmp_path / "r.db"

    def remove(progress: object) -> None:
        with suppress(FileNotFoundError):
            (client_folder / "mine.py").rename(tmp_path / "mine.py")

    with pytest.raises(BatchError) as stopped:
        run_batch(resolved, games=2, store=store, jobs=1, on_progress=remove)
    message = str(stopped.value)
    assert "could not start: the agent file" in message and "mine.py is missing" in message
    assert "0 of 2 games are stored" in message and "\n" not in message
    (tmp_path / "mine.py").rename(client_folder / "mine.py")
    again = run_batch(resolved, games=2, store=store, jobs=1)
    assert (again.already, again.stored, again.outcomes.get("crash", 0)) == (0, 2, 0)


def test_a_module_the_workers_lack_is_not_stored_as_a_crash(cluster: Cluster,
                                                            client_folder: Path) -> None:
    """`module:Class` of a module the client imports by name (PYTHONPATH) and the workers do
    not have: every worker is refused, one error line, exit 2, nothing stored; the same games
    then play here."""
    elsewhere = client_folder.parent / "site"
    elsewhere.mkdir()
    (client_folder / "mine.py").rename(elsewhere / "onlyhere.py")
    (client_folder / "helper.py").rename(elsewhere / "helper.py")
    env = {**os.environ, "PYTHONPATH": str(elsewhere)}
    args = ["-p", "onlyhere:Mine", *GAME, "-n", "2", "-o", "m.db"]
    failed = batch(client_folder, *args, "--backend", "dask", "--scheduler", cluster.address,
                   "--worker-wait", "2", env=env)
    assert failed.returncode == 2, failed.stderr
    (error,) = error_lines(failed.stderr)
    assert "no usable Dask worker for 2 s" in error
    assert "module 'onlyhere' cannot be imported here" in error
    assert "0 of 2 games are stored" in error
    assert all(line.startswith("pacman:") for line in failed.stderr.splitlines())
    here = batch(client_folder, *args, "-j", "1", env=env)
    assert here.returncode == 0, here.stderr
    assert "2 games played, 0 already stored" in here.stdout


# --- workers that run other code, or none ---------------------------------------------------


def other_code(folder: Path) -> dict[str, str]:
    """The environment of a worker that imports a copy of this package, one line added."""
    shutil.copytree(ROOT / "pacman", folder / "pacman",
                    ignore=shutil.ignore_patterns("__pycache__"))
    with open(folder / "pacman" / "rules.py", "a", encoding="utf-8") as rules:
        rules.write("\n# one line added: another version of the code\n")
    return {**os.environ, "PYTHONPATH": str(folder)}


def test_a_worker_running_other_code_is_refused_and_plays_nothing(
        bare: Cluster, client_folder: Path, tmp_path: Path) -> None:
    bare.add_worker("other", env=other_code(tmp_path / "other-code"))
    games = ["-p", "greedy", *GAME, "-n", "6"]
    args = [*games, "-o", "v.db", "--backend", "dask", "--scheduler", bare.address]
    alone = batch(client_folder, *args, "--worker-wait", "2")
    assert alone.returncode == 2, alone.stderr
    notice = re.search(r"Dask worker \S+ is not used: it runs pacman code ([0-9a-f]{12}), "
                       r"this batch ([0-9a-f]{12})", alone.stderr)
    assert notice is not None, alone.stderr
    assert notice[2] == package_version() != notice[1]
    (error,) = error_lines(alone.stderr)
    assert "no usable Dask worker for 2 s" in error and notice[1] in error
    assert "0 of 6 games are stored" in error

    bare.add_worker("same")  # a worker of this code joins: the batch goes on with it
    joined = batch(client_folder, *args, "--worker-wait", "2")
    assert joined.returncode == 0, joined.stderr
    assert "6 games played, 0 already stored" in joined.stdout
    assert "is not used: it runs pacman code" in joined.stderr
    assert bare.executed() == {"other": 0, "same": 6}
    assert batch(client_folder, *games, "-o", "here.db", "-j", "1").returncode == 0
    assert records(client_folder / "v.db") == records(client_folder / "here.db")


def test_a_worker_without_the_package_is_refused_with_one_line(
        bare: Cluster, client_folder: Path, tmp_path: Path) -> None:
    preload = tmp_path / "no_pacman.py"
    preload.write_text("import sys\n\nsys.modules['pacman'] = None  # no pacman here\n")
    bare.add_worker("empty", preload=preload)
    run = batch(client_folder, "-p", "greedy", *GAME, "-n", "2", "-o", "p.db", "--backend",
                "dask", "--scheduler", bare.address, "--worker-wait", "1")
    assert run.returncode == 2, run.stderr
    assert re.search(r"Dask worker \S+ is not used: it cannot run pacman \(.*No module named",
                     run.stderr), run.stderr
    (error,) = error_lines(run.stderr)
    assert "no usable Dask worker for 1 s" in error and "0 of 2 games are stored" in error
    assert bare.workers(), "the refused worker is still up"


# --- no workers --------------------------------------------------------------------------------


def test_a_cluster_without_workers_is_one_line_after_the_wait(
        bare: Cluster, client_folder: Path) -> None:
    run = batch(client_folder, "-p", "greedy", *GAME, "-n", "2", "-o", "n.db", "--backend",
                "dask", "--scheduler", bare.address, "--worker-wait", "1")
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines() == [
        f"pacman: error: the Dask scheduler at {bare.address} had no worker for 1 s: start "
        "workers (they need this package only), or wait longer (--worker-wait); 0 of 2 games "
        "are stored in n.db: run the same command again to play the rest"]


def test_a_cluster_that_loses_every_worker_stops_and_keeps_its_games(
        bare: Cluster, client_folder: Path) -> None:
    (client_folder / "helper.py").write_text("PAUSE = 0.03\n")
    worker = bare.add_worker("only")
    store = client_folder / "l.db"
    args = ["-p", "mine.py:Mine", *LONG, "-n", "6", "-o", str(store), "--backend", "dask",
            "--scheduler", bare.address]
    running = subprocess.Popen([sys.executable, "-m", "pacman", "batch", *args,
                                "--worker-wait", "2"], cwd=client_folder,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while count_rows(store) < 1:
        assert running.poll() is None, running.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    bare.stop(worker)
    _, err = running.communicate(timeout=120)
    assert running.returncode == 2, err
    (error,) = error_lines(err)
    kept = count_rows(store)
    assert 1 <= kept < 6 and f"{kept} of 6 games are stored" in error
    bare.add_worker("again")
    rerun = batch(client_folder, *args)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{6 - kept} games played, {kept} already stored" in rerun.stdout


def count_rows(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with closing(sqlite3.connect(path, timeout=5)) as db:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


# --- workers that join later are used ---------------------------------------------------------


class _Growing:
    """A backend whose workers grow from one to three after its first game: threads run the
    games, and the most running at once is counted."""

    can_stop = False

    def __init__(self) -> None:
        self.reads = 0
        self.running = self.most = 0
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(max_workers=8)

    @property
    def slots(self) -> int:
        self.reads += 1
        return 1 if self.reads <= 2 else 3

    def start(self) -> Executor:
        backend = self

        class Counting(Executor):
            def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
                def counted() -> Any:
                    with backend.lock:
                        backend.running += 1
                        backend.most = max(backend.most, backend.running)
                    try:
                        time.sleep(0.2)  # long enough for the batch to hand out more
                        return fn(*args, **kwargs)
                    finally:
                        with backend.lock:
                            backend.running -= 1
                return backend.pool.submit(counted)

        return Counting()

    def stop(self, executor: Executor) -> None:
        self.pool.shutdown(wait=True)

    def close(self, executor: Executor) -> None:
        self.pool.shutdown(wait=True)


def test_the_games_in_flight_follow_the_workers_there_now(tmp_path: Path) -> None:
    backend = _Growing()
    config = GameConfig(AgentSpec("random"), layout="testClassic", max_moves=5)
    result = run_batch(resolve_configs([config]), games=12, store=tmp_path / "g.db",
                       backend=backend)
    assert result.stored == 12
    assert backend.most == 6  # two per thread of the three workers, once they are there


def test_a_worker_that_joins_a_running_batch_is_used(bare: Cluster, client_folder: Path
                                                     ) -> None:
    (client_folder / "helper.py").write_text("PAUSE = 0.02\n")
    bare.add_worker("first")
    joined: list[subprocess.Popen[bytes]] = []

    def join(progress: object) -> None:
        if not joined:
            joined.append(bare.add_worker("late", wait=False))

    with DaskBackend(bare.address) as backend:
        assert backend.slots == 1
        run_batch(resolve_configs([GameConfig(AgentSpec("mine.py:Mine"),
                                              layout="mediumClassic", max_moves=20)]),
                  games=24, store=client_folder / "j.db", backend=backend, on_progress=join)
        assert backend.slots == 2
    executed = bare.executed()
    assert executed["late"] >= 4 and executed["first"] + executed["late"] == 24, executed


# --- addresses, local clusters, options --------------------------------------------------------


def test_a_malformed_address_is_one_line(client_folder: Path) -> None:
    run = batch(client_folder, "-p", "greedy", *GAME, "-o", "a.db", "--backend", "dask",
                "--scheduler", "tcp://127.0.0.1:notaport")
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        "pacman: error: bad Dask scheduler address 'tcp://127.0.0.1:notaport': write "
        "tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786 (invalid literal for int() with base 10: "
        "'notaport')"]


@pytest.fixture
def not_dask() -> Iterator[tuple[str, str]]:
    """Two servers that are not Dask: one that says nothing, one that answers rubbish."""
    silent, rude = socket.socket(), socket.socket()
    for server in (silent, rude):
        server.bind(("127.0.0.1", 0))
        server.listen()
    stop = threading.Event()

    def answer() -> None:
        rude.settimeout(0.1)
        while not stop.is_set():
            with suppress(OSError):
                connection, _ = rude.accept()
                with connection:
                    connection.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        yield (f"tcp://127.0.0.1:{silent.getsockname()[1]}",
               f"tcp://127.0.0.1:{rude.getsockname()[1]}")
    finally:
        stop.set()
        thread.join()
        silent.close()
        rude.close()


def test_an_address_that_is_not_dask_is_one_line_not_a_hang(
        not_dask: tuple[str, str], cluster: Cluster, client_folder: Path) -> None:
    silent, rude = not_dask
    with pytest.raises(BatchError, match="no Dask scheduler answered within 1 s"):
        DaskBackend(silent, connect_timeout=1)
    run = batch(client_folder, "-p", "greedy", *GAME, "-o", "a.db", "--backend", "dask",
                "--scheduler", rude)
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1, run.stderr
    assert run.stderr.startswith(f"pacman: error: cannot use the Dask scheduler at {rude}: ")
    worker = next(iter(cluster.workers()))
    run = batch(client_folder, "-p", "greedy", *GAME, "-o", "a.db", "--backend", "dask",
                "--scheduler", worker)
    assert run.stderr.splitlines() == [f"pacman: error: cannot use the Dask scheduler at "
                                       f"{worker}: it is a Dask worker, not a scheduler"]


def listening() -> set[Any]:
    """The addresses this process and its children listen on."""
    import psutil

    processes = [psutil.Process(), *psutil.Process().children(recursive=True)]
    found = set()
    for process in processes:
        with suppress(psutil.Error):  # (a process that ended meanwhile)
            found |= {(process.pid, connection.laddr)
                      for connection in process.net_connections(kind="inet")
                      if connection.status == psutil.CONN_LISTEN}
    return found


def test_a_local_cluster_listens_on_127_0_0_1_only() -> None:
    before = listening()  # (other tests' clusters)
    with DaskBackend(jobs=1) as backend:
        assert backend.slots == 1
        opened = listening() - before
    assert len(opened) >= 3  # the scheduler, its worker and the worker's nanny, at least
    assert {address.ip for _, address in opened} == {"127.0.0.1"}, opened


def test_dask_scheduler_address_is_used_without_scheduler(cluster: Cluster,
                                                          client_folder: Path) -> None:
    env = {**os.environ, "DASK_SCHEDULER_ADDRESS": cluster.address}
    before = sum(cluster.executed().values())
    run = batch(client_folder, "-p", "greedy", *GAME, "-n", "2", "-o", "e.db", "--backend",
                "dask", env=env)
    assert run.returncode == 0, run.stderr
    assert len(records(client_folder / "e.db")) == 2
    assert sum(cluster.executed().values()) == before + 2  # played there, not locally
    with_jobs = batch(client_folder, "-p", "greedy", *GAME, "-o", "e.db", "--backend", "dask",
                      "-j", "2", env=env)
    assert with_jobs.returncode == 2
    assert with_jobs.stderr.splitlines() == [
        "pacman: error: jobs (-j) sets the workers of a local Dask cluster: a running "
        f"scheduler ({cluster.address}, DASK_SCHEDULER_ADDRESS) has workers of its own; "
        "leave -j out"]


def test_jobs_with_a_scheduler_is_one_line(cluster: Cluster, client_folder: Path) -> None:
    run = batch(client_folder, "-p", "greedy", *GAME, "-o", "j.db", "--backend", "dask",
                "--scheduler", cluster.address, "-j", "7")
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        f"pacman: error: jobs (-j) sets the workers of a local Dask cluster: a running "
        f"scheduler ({cluster.address}) has workers of its own; leave -j out"]


def test_the_game_time_limit_on_dask_is_kept_by_the_worker(cluster: Cluster,
                                                           client_folder: Path) -> None:
    """The worker plays the game in a child process that is stopped at the limit: the record
    has the moves made until then (not a made-up "its worker was stopped")."""
    (client_folder / "helper.py").write_text("PAUSE = 0.3\n")
    run = batch(client_folder, "-p", "mine.py:Mine", *LONG, "-n", "2", "-o", "t.db",
                "--backend", "dask", "--scheduler", cluster.address, "--game-timeout", "1")
    assert run.returncode == 0, run.stderr
    games = list(records(client_folder / "t.db").values())
    assert [game["outcome"] for game in games] == ["timeout", "timeout"]
    for game in games:
        assert 1 <= game["pacman_moves"] < 20
        assert "time limit" in game["fault"] and "worker was stopped" not in game["fault"]
