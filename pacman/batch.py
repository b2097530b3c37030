"""Batch experiments: a grid of configurations x N seeds, played in parallel, stored as they end.

`run_batch(configs, games=N)` plays every game not yet in the results store on an
`concurrent.futures.Executor` (a spawn-started process pool by default, or a Dask cluster) and
writes each one as soon as it is known. It is safe to interrupt and run again.

Faults are outcomes, not stopped batches:

- an agent that raises, or takes longer than `move_timeout` on a move, ends its game as
  `crash` / `timeout` inside `run_game`;
- a game still running `game_timeout` seconds after it was handed to an idle worker is recorded
  as `timeout` (incomplete: no score). On the process backend the pool's processes are
  terminated and a fresh pool takes the remaining work; the other games that were running are
  played again from the start (same seeds, same records). Dask cannot stop a running task: the
  task is cancelled and its thread finishes on its own;
- a worker that dies (`BrokenProcessPool`, Dask's `KilledWorker`) takes down the games it was
  running; each of them is played again once, alone, so the culprit is known: a game that
  fails twice is recorded as `crash` with the error. Finished games are never lost.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import json
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pacman.layout import load_layout, shipped_layouts
from pacman.record import GameRecord, Outcome
from pacman.store import AgentSpec, GameConfig, GameTask, ResultStore, Setting

DEFAULT_STORE = Path("results") / "pacman.db"
EXPERIMENT_KEYS = ("pacman", "ghosts", "layouts", "num_ghosts", "games", "seed", "max_moves",
                   "move_timeout", "game_timeout")
_POLL_SECONDS = 0.5  # longest wait between checks for overdue games, progress and Ctrl-C


class BatchError(ValueError):
    """A batch that cannot run as asked (bad grid, experiment file or backend)."""


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during `run_batch`: what finished is stored; `result` says how far it got."""

    def __init__(self, result: BatchResult) -> None:
        super().__init__("batch interrupted")
        self.result = result


# --- the grid -----------------------------------------------------------------------------


def cross_settings(name: str, axes: Mapping[str, Setting | Sequence[Setting]]) -> list[AgentSpec]:
    """One spec per combination of settings; a list value holds alternatives to cross.

    `cross_settings("alphabeta", {"depth": [2, 3], "evaluation": "better"})` gives two specs.
    """
    keys = sorted(axes)
    choices = [_alternatives(axes[key]) for key in keys]
    return [AgentSpec.of(name, dict(zip(keys, combination)))
            for combination in itertools.product(*choices)]


def _alternatives(value: Setting | Sequence[Setting]) -> list[Setting]:
    if isinstance(value, (list, tuple)):
        if not value:
            raise BatchError("an empty list of setting values crosses into no configuration")
        return list(value)
    return [value]  # type: ignore[list-item]


@dataclass(frozen=True)
class Grid:
    """The axes crossed into configurations: every Pacman x ghost x number of ghosts x layout."""

    pacman: Sequence[AgentSpec]
    ghosts: Sequence[AgentSpec] = (AgentSpec("RandomGhost"),)
    layouts: Sequence[str] = ("mediumClassic",)
    num_ghosts: Sequence[int | None] = (None,)
    max_moves: int | None = None
    move_timeout: float | None = None

    def configs(self) -> list[GameConfig]:
        """The crossed configurations, as given (not yet resolved)."""
        return [GameConfig(pacman, ghost, count, layout, self.max_moves, self.move_timeout)
                for layout in self.layouts for count in self.num_ghosts
                for ghost in self.ghosts for pacman in self.pacman]


@dataclass(frozen=True)
class ResolvedConfig:
    """A canonical configuration, with what a record needs when the batch writes one itself."""

    config: GameConfig
    layout_name: str
    agent_names: tuple[str, ...]


def plan(grid: Grid) -> list[ResolvedConfig]:
    """The grid's configurations, resolved and without duplicates, in grid order."""
    return resolve_configs(grid.configs())


def resolve_configs(configs: Sequence[GameConfig]) -> list[ResolvedConfig]:
    """Resolve each configuration (see `resolve_config`), dropping duplicates."""
    seen: dict[str, ResolvedConfig] = {}
    for config in configs:
        resolved = resolve_config(config)
        seen.setdefault(resolved.config.key(), resolved)
    return list(seen.values())


def resolve_config(config: GameConfig) -> ResolvedConfig:
    """The canonical form of a configuration, checked by building its agents once.

    Agent names become class names (`alphabeta` -> `AlphaBetaAgent`), settings get the class's
    defaults filled in (so `-p alphabeta` and `-a depth=2` are one configuration), a shipped
    layout stays a name and a layout file becomes an absolute path, and `num_ghosts=None`
    becomes the layout's number of ghosts. Raises LayoutError, RegistryError or BatchError.
    """
    from pacman.game import describe

    layout = load_layout(config.layout)
    layout_key = config.layout if config.layout in shipped_layouts() else str(
        Path(config.layout).resolve())
    available = len(layout.ghost_starts)
    count = available if config.num_ghosts is None else config.num_ghosts
    if count < 0 or count > available:
        raise BatchError(f"layout {layout.name} has {available} ghost start(s): cannot play "
                         f"with {count} ghosts")
    pacman, pacman_agent = _canonical(config.pacman, "pacman", 0)
    ghost, ghost_agent = _canonical(config.ghost, "ghost", 1)
    if config.max_moves is not None and config.max_moves < 1:
        raise BatchError(f"max_moves must be >= 1, got {config.max_moves}")
    if config.move_timeout is not None and config.move_timeout <= 0:
        raise BatchError(f"move_timeout must be > 0 seconds, got {config.move_timeout}")
    canonical = GameConfig(pacman, ghost, count, layout_key, config.max_moves,
                           None if config.move_timeout is None else float(config.move_timeout))
    names = (describe(pacman_agent), *[describe(ghost_agent)] * count)
    return ResolvedConfig(canonical, layout.name, names)


def _canonical(spec: AgentSpec, role: str, index: int) -> tuple[AgentSpec, Any]:
    from agents.registry import AgentEntry, RegistryError, find_agent, make_agent

    found = find_agent(spec.name, role)
    if isinstance(found, AgentEntry):
        if found.class_name == "KeyboardAgent":
            raise BatchError("the keyboard agent needs a window: it cannot play in a batch")
        name, cls = found.class_name, found.load()
    else:
        name, cls = spec.name, found
    try:
        agent = make_agent(name, role, spec.settings_dict(), index=index)
    except RegistryError:
        raise
    except Exception as error:  # a user's class may raise anything while it is built
        raise BatchError(f"cannot build {role} agent {name}: {type(error).__name__}: "
                         f"{error}") from None
    settings: dict[str, Setting] = {}
    try:
        parameters = list(inspect.signature(cls).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    for parameter in parameters:
        default = parameter.default
        if parameter.name != "index" and (default is None or isinstance(
                default, (bool, int, float, str))):
            settings[parameter.name] = default
    settings.update(spec.settings)
    return AgentSpec.of(name, settings), agent


# --- experiment files ---------------------------------------------------------------------


@dataclass(frozen=True)
class Experiment:
    """What an experiment file says; an empty axis or None means 'not given here'."""

    pacman: tuple[AgentSpec, ...] = ()
    ghosts: tuple[AgentSpec, ...] = ()
    layouts: tuple[str, ...] = ()
    num_ghosts: tuple[int | None, ...] = ()
    games: int | None = None
    seed: int | None = None
    max_moves: int | None = None
    move_timeout: float | None = None
    game_timeout: float | None = None


def load_experiment(path: str | Path) -> Experiment:
    """Read an experiment file: TOML (`.toml`, Python 3.11+) or JSON (`.json`).

    Keys: `pacman` and `ghosts` (lists of agent names, or tables with `agent` and settings,
    where a list value is crossed), `layouts`, `num_ghosts` (a value or a list), `games`,
    `seed`, `max_moves`, `move_timeout`, `game_timeout`.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise BatchError(f"cannot read experiment file {path}: {error.strerror}") from None
    data: Any
    if path.suffix.lower() == ".toml":
        if sys.version_info >= (3, 11):
            import tomllib

            try:
                data = tomllib.loads(raw.decode("utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
                raise BatchError(f"{path}: {error}") from None
        else:
            raise BatchError(f"{path}: TOML experiment files need Python 3.11; write it as JSON")
    elif path.suffix.lower() == ".json":
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise BatchError(f"{path}: {error}") from None
    else:
        raise BatchError(f"{path}: an experiment file must end in .toml or .json")
    try:
        return _experiment(data)
    except (BatchError, TypeError, ValueError) as error:
        raise BatchError(f"{path}: {error}") from None


def _experiment(data: Any) -> Experiment:
    if not isinstance(data, dict):
        raise BatchError("the experiment must be a table of keys")
    unknown = sorted(set(data) - set(EXPERIMENT_KEYS))
    if unknown:
        raise BatchError(f"unknown key(s) {', '.join(unknown)}; known: "
                         f"{', '.join(EXPERIMENT_KEYS)}")

    def listed(key: str) -> list[Any]:
        value = data.get(key, [])
        return value if isinstance(value, list) else [value]

    def number(key: str, kind: type) -> Any:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                kind is int and not isinstance(value, int)):
            raise BatchError(f"{key} must be a {'whole ' if kind is int else ''}number, "
                             f"got {value!r}")
        return kind(value)

    for key in ("layouts",):
        if not all(isinstance(v, str) for v in listed(key)):
            raise BatchError(f"{key} must be names (strings)")
    counts = listed("num_ghosts")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts):
        raise BatchError("num_ghosts must be whole numbers >= 0")
    games = number("games", int)
    if games is not None and games < 1:
        raise BatchError(f"games must be >= 1, got {games}")
    return Experiment(
        pacman=tuple(_agents(listed("pacman"), "pacman")),
        ghosts=tuple(_agents(listed("ghosts"), "ghosts")),
        layouts=tuple(listed("layouts")), num_ghosts=tuple(counts), games=games,
        seed=number("seed", int), max_moves=number("max_moves", int),
        move_timeout=number("move_timeout", float), game_timeout=number("game_timeout", float))


def _agents(entries: list[Any], key: str) -> list[AgentSpec]:
    specs: list[AgentSpec] = []
    for entry in entries:
        if isinstance(entry, str):
            specs.append(AgentSpec(entry))
        elif isinstance(entry, dict) and isinstance(entry.get("agent"), str):
            axes = {k: v for k, v in entry.items() if k != "agent"}
            for k, v in axes.items():
                for value in v if isinstance(v, list) else [v]:
                    if value is not None and not isinstance(value, (bool, int, float, str)):
                        raise BatchError(f"{key}: setting {k} must be a number, a string, a "
                                         f"boolean or a list of them, got {value!r}")
            specs.extend(cross_settings(entry["agent"], axes))
        else:
            raise BatchError(f"{key}: each entry is an agent name or a table with 'agent' "
                             f"and its settings, got {entry!r}")
    return specs


# --- backends -----------------------------------------------------------------------------


class Backend(Protocol):
    """Where games run: it makes executors, and stops their running games if it can."""

    #: games that can run at once (the batch keeps at most this many in flight)
    slots: int
    #: True if `stop` really ends running games (then game time limits free their worker)
    can_stop: bool

    def start(self) -> Executor:
        """A ready executor."""

    def stop(self, executor: Executor) -> None:
        """End the executor now, its running games with it."""

    def close(self, executor: Executor) -> None:
        """End the executor after a normal finish."""


def _worker_init() -> None:
    # Ctrl-C goes to the whole process group: only the parent handles it (stops the batch
    # and keeps what finished); a worker that got it too would print a traceback and die.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import agents.registry  # noqa: F401 - imports every game needs, done before any timing
    import pacman.game  # noqa: F401


def _warm_up(seconds: float) -> int:
    time.sleep(seconds)  # hold this worker so the next warm-up call finds another one
    return os.getpid()


def default_jobs() -> int:
    """The number of cores this process may use."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if callable(affinity) else os.cpu_count() or 1


class ProcessBackend:
    """A `ProcessPoolExecutor` of `jobs` workers started with `spawn`.

    Stopping terminates the pool's processes (`terminate_workers()` on Python 3.14+, else the
    pool's process table) and the batch starts a fresh pool for the remaining games.
    """

    can_stop = True

    def __init__(self, jobs: int | None = None) -> None:
        self.slots = jobs or default_jobs()
        if self.slots < 1:
            raise BatchError(f"jobs must be >= 1, got {self.slots}")

    def start(self) -> Executor:
        """A pool with every worker started and its imports done."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=self.slots,
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_init)
        # The pool starts its processes on demand, and a game's time limit is counted from
        # when it is handed to an idle worker: wait until every worker has answered a call.
        seen: set[int] = set()
        try:
            for _ in range(20):
                seen.update(f.result() for f in [pool.submit(_warm_up, 0.05)
                                                 for _ in range(self.slots)])
                if len(seen) >= self.slots:
                    break
        except BrokenProcessPool as error:
            pool.shutdown(wait=False, cancel_futures=True)
            raise BatchError(f"the worker processes could not start ({error}); a script that "
                             "runs a batch needs `if __name__ == '__main__':`") from None
        return pool

    def stop(self, executor: Executor) -> None:
        """Terminate the workers (running games are lost) and shut the pool down."""
        terminate = getattr(executor, "terminate_workers", None)
        if callable(terminate):  # Python 3.14+
            terminate()
            executor.shutdown(wait=False, cancel_futures=True)
            return
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join(timeout=5)

    def close(self, executor: Executor) -> None:
        """Shut the pool down."""
        executor.shutdown(wait=True)


class DaskBackend:
    """A Dask cluster through `distributed.Client.get_executor()`.

    `scheduler` is the address of a running scheduler (`tcp://host:8786`); without it a local
    cluster of `jobs` single-threaded worker processes is started on 127.0.0.1. Workers need
    this package (and any `module:Class` agent module) importable.
    """

    can_stop = False

    def __init__(self, scheduler: str | None = None, jobs: int | None = None,
                 connect_timeout: float = 15.0) -> None:
        try:
            # typed as Any: the extra may be missing, and it has no complete annotations
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise BatchError("the dask backend needs dask.distributed: pip install "
                             "'pacman-adversarial[dask]'") from None
        self._cluster: Any = None
        try:
            if scheduler is None:
                self._cluster = distributed.LocalCluster(
                    n_workers=jobs or default_jobs(), threads_per_worker=1, processes=True,
                    host="127.0.0.1", dashboard_address=":0")  # any free port
                self.client = distributed.Client(self._cluster)
            else:
                self.client = distributed.Client(scheduler, timeout=connect_timeout)
            self.client.wait_for_workers(1, timeout=connect_timeout)
        except (OSError, TimeoutError) as error:
            self.shutdown()
            where = scheduler or "a local cluster"
            raise BatchError(f"cannot use the Dask scheduler at {where}: {error}") from None
        self.slots = max(1, sum(self.client.nthreads().values()))

    def start(self) -> Executor:
        """The client's executor (pure=False: a game played again is a new task)."""
        executor: Executor = self.client.get_executor(pure=False)
        return executor

    def stop(self, executor: Executor) -> None:
        """Cancel what is queued; running tasks cannot be stopped."""
        executor.shutdown(wait=False)

    def close(self, executor: Executor) -> None:
        """Close the executor; the client stays for another batch until `shutdown`."""
        executor.shutdown(wait=True)

    def shutdown(self) -> None:
        """Close the client (and the local cluster, if this backend started one)."""
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def __enter__(self) -> DaskBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()


# --- one game in a worker -----------------------------------------------------------------


def play_game(task: GameTask) -> GameRecord:
    """Play one game of a batch (in a worker): build the agents, then `run_game`.

    An agent that fails while being built ends the game as `crash` (moves 0, score 0).
    """
    from agents.registry import make_agent
    from pacman.game import run_game

    config = task.config
    layout = load_layout(config.layout)
    count = len(layout.ghost_starts) if config.num_ghosts is None else config.num_ghosts
    try:
        pacman = make_agent(config.pacman.name, "pacman", config.pacman.settings_dict(), 0)
        ghosts = [make_agent(config.ghost.name, "ghost", config.ghost.settings_dict(), i + 1)
                  for i in range(count)]
    except Exception as error:
        return GameRecord(layout=layout.name, seed=task.seed,
                          agents=(config.pacman.name, *[config.ghost.name] * count),
                          outcome=Outcome.CRASH, score=0, pacman_moves=0, actions=(),
                          fault=f"could not build the agents: {type(error).__name__}: {error}")
    return run_game(layout, pacman, ghosts, seed=task.seed, max_moves=config.max_moves,
                    move_time_limit=config.move_timeout)


# --- running a batch ----------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """How far a running batch is: games stored in this run out of the games it has to play."""

    done: int
    total: int
    already: int
    elapsed: float

    @property
    def rate(self) -> float:
        """Games per second so far in this run."""
        return self.done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left at the current rate (None before the first game)."""
        rate = self.rate
        return (self.total - self.done) / rate if rate > 0 else None


def format_progress(progress: Progress, width: int = 24) -> str:
    """`[#####.....] 37/200 games  3.1 games/s  0:00:52 left` for a terminal line."""
    fraction = progress.done / progress.total if progress.total else 1.0
    filled = round(fraction * width)
    eta = progress.eta
    left = "--:--" if eta is None else _clock(eta)
    return (f"[{'#' * filled}{'.' * (width - filled)}] {progress.done}/{progress.total} games  "
            f"{progress.rate:.1f} games/s  {left} left")


def _clock(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


@dataclass(frozen=True)
class BatchResult:
    """What a batch run did."""

    path: Path
    planned: int  # games in the batch (configurations x games)
    already: int  # found in the store at the start
    stored: int  # written by this run
    outcomes: Mapping[str, int] = field(default_factory=dict)  # of the games this run stored
    retried: int = 0  # games played again after their worker died
    killed: int = 0  # games stopped by the game time limit
    elapsed: float = 0.0
    interrupted: bool = False

    @property
    def missing(self) -> int:
        """Games of the batch still not in the store."""
        return self.planned - self.already - self.stored


ProgressCallback = Callable[[Progress], None]


def run_batch(configs: Sequence[GameConfig | ResolvedConfig], *, games: int,
              store: ResultStore | str | Path = DEFAULT_STORE, seed: int = 0,
              jobs: int | None = None, backend: Backend | None = None,
              game_timeout: float | None = None,
              on_progress: ProgressCallback | None = None) -> BatchResult:
    """Play `games` games of every configuration that the store does not have yet.

    Game `i` of a configuration uses `derive_seed(seed, config.key(), i)`, so the records do
    not depend on the number of workers or the order games finish in. Games are handed out
    round-robin (game 0 of every configuration first), so a partial run is balanced.
    Raises BatchInterrupted (a KeyboardInterrupt) on Ctrl-C, after storing what finished.
    """
    if games < 1:
        raise BatchError(f"games must be >= 1, got {games}")
    if game_timeout is not None and game_timeout <= 0:
        raise BatchError(f"game_timeout must be > 0 seconds, got {game_timeout}")
    resolved = resolve_configs([c if isinstance(c, GameConfig) else c.config for c in configs])
    owned = not isinstance(store, ResultStore)
    results = ResultStore(store) if not isinstance(store, ResultStore) else store
    try:
        done = results.done(seed)
        tasks = [GameTask.of(r.config, seed, index) for index in range(games) for r in resolved]
        todo = [task for task in tasks if (task.config.key(), task.index) not in done]
        already = len(tasks) - len(todo)
        if not todo:
            return BatchResult(results.path, len(tasks), already, 0)
        if backend is None:
            backend = ProcessBackend(min(jobs or default_jobs(), len(todo)))
        names = {r.config.key(): r for r in resolved}
        runner = _Runner(backend, results, todo, names, game_timeout, on_progress, len(tasks),
                         already)
        return runner.run()
    finally:
        if owned:
            results.close()


@dataclass
class _Flight:
    task: GameTask
    deadline: float


class _Runner:
    """The scheduling loop of one `run_batch` call."""

    def __init__(self, backend: Backend, store: ResultStore, todo: list[GameTask],
                 resolved: Mapping[str, ResolvedConfig], game_timeout: float | None,
                 on_progress: ProgressCallback | None, planned: int, already: int) -> None:
        self.backend, self.store, self.resolved = backend, store, resolved
        self.game_timeout, self.on_progress = game_timeout, on_progress
        self.planned, self.already, self.total = planned, already, len(todo)
        self.pending: deque[GameTask] = deque(todo)
        self.todo_keys = {(task.config.key(), task.index) for task in todo}
        self.base_seed = todo[0].base_seed if todo else 0
        self.solo: deque[GameTask] = deque()  # to play again alone, after their worker died
        self.failures: dict[GameTask, int] = {}
        self.inflight: dict[Future[GameRecord], _Flight] = {}
        self.outcomes: dict[str, int] = {}
        self.stored = self.retried = self.killed = 0
        self.started = self.clock = time.perf_counter()
        self.executor: Executor | None = None
        # with a game time limit, keep exactly one game per worker so a game starts when it
        # is submitted; without one, one extra queued game per worker keeps workers busy
        self.window = backend.slots if game_timeout is not None else 2 * backend.slots

    def run(self) -> BatchResult:
        finished: list[tuple[GameTask, GameRecord, bool]] = []
        last_report = 0.0
        try:
            self._report()
            self.executor = self.backend.start()
            self.clock = time.perf_counter()  # rates count from the first game, not start-up
            while self.pending or self.solo or self.inflight:
                self._fill()
                done, _ = wait(list(self.inflight), timeout=self._wait_time(),
                               return_when=FIRST_COMPLETED)
                broken = False
                for future in done:
                    broken |= self._collect(future, finished)
                if broken:
                    self._restart_after_break(finished)
                self._stop_overdue(finished)
                self._fill()  # hand out new work before the (slower) writes
                for task, record, complete in finished:
                    self._store(task, record, complete)
                now = time.perf_counter()
                if finished or now - last_report >= 1.0:
                    self._report()
                    last_report = now
                finished.clear()
            self.backend.close(self.executor)
            self.executor = None
        except KeyboardInterrupt:
            for task, record, complete in finished:
                self._store(task, record, complete)
            for future, flight in list(self.inflight.items()):
                if future.done() and not future.cancelled() and future.exception() is None:
                    self._store(flight.task, future.result(), True)
            if self.executor is not None:
                self.backend.stop(self.executor)
            # Ctrl-C may land between a row's commit and `stored += 1`: count the file itself
            self.stored = len(self.todo_keys & self.store.done(self.base_seed))
            raise BatchInterrupted(self._result(interrupted=True)) from None
        except BaseException:
            if self.executor is not None:
                self.backend.stop(self.executor)
            raise
        return self._result(interrupted=False)

    def _result(self, interrupted: bool) -> BatchResult:
        return BatchResult(self.store.path, self.planned, self.already, self.stored,
                           dict(self.outcomes), self.retried, self.killed,
                           time.perf_counter() - self.started, interrupted)

    def _report(self) -> None:
        if self.on_progress is not None:
            self.on_progress(Progress(self.stored, self.total, self.already,
                                      time.perf_counter() - self.clock))

    def _fill(self) -> None:
        assert self.executor is not None
        if self.solo:  # a suspect runs with nothing else in flight
            if not self.inflight:
                self._submit(self.solo.popleft())
            return
        while self.pending and len(self.inflight) < self.window:
            self._submit(self.pending.popleft())

    def _submit(self, task: GameTask) -> None:
        assert self.executor is not None
        deadline = float("inf") if self.game_timeout is None else (
            time.perf_counter() + self.game_timeout)
        self.inflight[self.executor.submit(play_game, task)] = _Flight(task, deadline)

    def _wait_time(self) -> float:
        if not self.inflight:
            return 0.0
        soonest = min(flight.deadline for flight in self.inflight.values())
        return max(0.0, min(_POLL_SECONDS, soonest - time.perf_counter()))

    def _collect(self, future: Future[GameRecord],
                 finished: list[tuple[GameTask, GameRecord, bool]]) -> bool:
        """Take a done future's game; True if it says the process pool broke."""
        flight = self.inflight.pop(future)
        try:
            finished.append((flight.task, future.result(), True))
        except CancelledError:
            self.pending.appendleft(flight.task)
        except BrokenProcessPool as error:
            self._failed(flight.task, error, finished)
            return True
        except Exception as error:  # e.g. Dask's KilledWorker, an unpicklable result
            self._failed(flight.task, error, finished)
        return False

    def _failed(self, task: GameTask, error: BaseException,
                finished: list[tuple[GameTask, GameRecord, bool]]) -> None:
        count = self.failures[task] = self.failures.get(task, 0) + 1
        if count >= 2:
            message = f"worker failed twice: {type(error).__name__}: {error}"
            finished.append((task, self._made_up(task, Outcome.CRASH, message), False))
        else:
            self.retried += 1
            self.solo.append(task)

    def _restart_after_break(self, finished: list[tuple[GameTask, GameRecord, bool]]) -> None:
        # every game in flight went down with the pool (or finished just before it broke)
        done, not_done = wait(list(self.inflight), timeout=30)
        for future in done:
            self._collect(future, finished)
        for future in not_done:
            self._failed(self.inflight.pop(future).task, BrokenProcessPool("no answer"),
                         finished)
        assert self.executor is not None
        self.backend.stop(self.executor)
        self.executor = None
        self.executor = self.backend.start()

    def _stop_overdue(self, finished: list[tuple[GameTask, GameRecord, bool]]) -> None:
        now = time.perf_counter()
        overdue = [future for future, flight in self.inflight.items() if flight.deadline <= now]
        stopped = False
        for future in overdue:
            if future.done():  # it made it after all: collected on the next turn
                continue
            task = self.inflight.pop(future).task
            message = (f"game went over the game time limit of {self.game_timeout:g}s; its "
                       "worker was stopped")
            finished.append((task, self._made_up(task, Outcome.TIMEOUT, message), False))
            self.killed += 1
            stopped = True
            if not self.backend.can_stop:
                future.cancel()
        if stopped and self.backend.can_stop:
            # terminate the pool; games that were running alongside are played again
            assert self.executor is not None
            for future, flight in list(self.inflight.items()):
                if future.done() and not future.cancelled() and future.exception() is None:
                    finished.append((flight.task, future.result(), True))
                elif flight.task in self.failures:
                    self.solo.appendleft(flight.task)
                else:
                    self.pending.appendleft(flight.task)
            self.inflight.clear()
            self.backend.stop(self.executor)
            self.executor = None
            self.executor = self.backend.start()

    def _made_up(self, task: GameTask, outcome: Outcome, fault: str) -> GameRecord:
        """The record of a game the batch gave up on: no moves or score were measured."""
        resolved = self.resolved[task.config.key()]
        return GameRecord(layout=resolved.layout_name, seed=task.seed,
                          agents=resolved.agent_names, outcome=outcome, score=0,
                          pacman_moves=0, actions=(), fault=fault)

    def _store(self, task: GameTask, record: GameRecord, complete: bool) -> None:
        if self.store.add(task, record, complete=complete):
            self.stored += 1
            self.outcomes[record.outcome.value] = self.outcomes.get(record.outcome.value, 0) + 1
