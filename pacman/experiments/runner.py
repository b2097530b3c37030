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

import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from pacman.experiments.backends import Backend, ProcessBackend, default_jobs
from pacman.experiments.grid import BatchError, ResolvedConfig, resolve_configs
from pacman.experiments.store import GameConfig, GameTask, ResultStore
from pacman.layout import load_layout
from pacman.record import GameRecord, Outcome

DEFAULT_STORE = Path("results") / "pacman.db"
_POLL_SECONDS = 0.5  # longest wait between checks for overdue games, progress and Ctrl-C


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during `run_batch`: what finished is stored; `result` says how far it got."""

    def __init__(self, result: BatchResult) -> None:
        super().__init__("batch interrupted")
        self.result = result


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
