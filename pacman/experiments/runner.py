"""Batch experiments: a grid of configurations x N seeds, played in parallel, stored as they end.

`run_batch(configs, games=N)` plays every game not yet in the results store on an
`concurrent.futures.Executor` (a spawn-started process pool by default, or a Dask cluster) and
writes each one as soon as it is known. It is safe to interrupt and run again.

Faults are outcomes, not stopped batches:

- an agent that raises, or takes longer than `move_time_limit` on a move, ends its game as
  `crash` / `timeout` inside `run_game`;
- a game still running `game_time_limit` seconds after it was handed to an idle worker is recorded
  as `timeout` (incomplete: no score). On the process backend the pool's processes are
  terminated and a fresh pool takes the remaining work; the other games that were running are
  played again from the start (same seeds, same records). Dask cannot stop a running task, so
  there the worker keeps the limit: it plays the game in a child process that it stops at the
  limit (`play_game`), and the record is a `timeout` with the moves made until then;
- a worker that dies (`BrokenProcessPool`, Dask's `KilledWorker`) takes down the games it was
  running; each of them is played again once, alone, so the culprit is known: a game that
  fails twice is recorded as `crash` with the error. Finished games are never lost.

Faults of the infrastructure are not outcomes: a game that cannot start for a reason outside
its agents (`GameNotStarted`: its layout or agent file gone since the batch began, a module a
worker cannot import, a Dask worker running other code) is never stored. A Dask worker that
refuses a game is taken out of use and the game goes to another (`cluster.DaskBackend`); on
this machine, or with no usable Dask worker left, the batch stops with one `BatchError` line
and keeps what it stored, and running it again plays the rest.

Two batches on one results file at the same time share the work rather than refuse: a game is
claimed in the store (`ResultStore.claim`) before it is handed to a worker, a game another
running batch has claimed is left to it, and a batch whose own games are done waits for the
games the others still play (and plays them itself if their batch dies). Each game is played
once, and `BatchResult.others` counts the games of this batch that another one stored. Users
start a second batch on purpose (another terminal, another grid into the default file), so
sharing is what they expect; refusing would make the default file usable by one batch at once.

What ends a batch early is one exception: Ctrl-C (or SIGTERM in the CLI) raises
`BatchInterrupted` after storing what finished; a results file that fails (a full disk, a
damaged file) raises `StoreError` after stopping the workers. Either way every game stored
before stays, the workers are gone, and running the same batch again resumes it.

One job in one file (about 600 lines): the loop that hands games out and stores them; its parts
share the pool, the claims and the progress.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pacman.errors import BatchError, GameNotStarted, LayoutError, StoreError
from pacman.experiments.backends import Backend, ProcessBackend, default_jobs
from pacman.experiments.claims import CLAIM_SECONDS, new_claim_owner
from pacman.experiments.cluster import DaskBackend
from pacman.experiments.config import GameConfig, GameTask, StoredGame, derive_seed
from pacman.experiments.grid import ResolvedConfig, resolve_configs
from pacman.experiments.store import INTEGER_MAX, INTEGER_MIN, ResultStore, open_results
from pacman.hosting import ISOLATIONS
from pacman.layout import load_layout
from pacman.limits import seconds
from pacman.record import GameRecord, Outcome
from pacman.specs import GameSpec

DEFAULT_STORE = Path("results") / "pacman.db"
_POLL_SECONDS = 0.5  # longest wait between checks for overdue games, progress and Ctrl-C
MAX_GAMES = 1_000_000  # games in one batch: more would not fit in memory (nor in a day)


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during `run_batch`: what finished is stored; `result` says how far it got."""

    def __init__(self, result: BatchResult) -> None:
        super().__init__("batch interrupted")
        self.result = result


# --- one game in a worker -----------------------------------------------------------------


def play_game(task: GameTask, game_time_limit: float | None = None) -> GameRecord:
    """Play one game of a batch (in a worker): build the agents, then `run_game`.

    With a move time limit, or a game time limit (a Dask worker keeps it: the batch cannot
    stop a Dask task), the game is played by a child process of this worker that is stopped
    when a move or the game runs over (`pacman.hosting.watched`), so an agent that ignores the
    limit cannot hold the worker. An agent that fails while being built ends the game as
    `crash` (moves 0, score 0). A game that cannot start for a reason outside its agents (its
    layout or an agent's file gone, a module this worker cannot import) raises
    `GameNotStarted`: it is no outcome of the agents, and nothing is stored for it.
    """
    from pacman.hosting.local import build_agents, play_built

    config = task.config
    try:
        layout = load_layout(config.layout)
    except LayoutError as error:  # it loaded when the batch began: the file changed or went
        raise GameNotStarted(f"the layout cannot be loaded here: {error}") from None
    _check_code(config)
    spec = task.game(layout)
    if game_time_limit is not None:
        limits = dataclasses.replace(spec.limits, game=game_time_limit)
        spec = dataclasses.replace(spec, setup=dataclasses.replace(spec.setup, limits=limits))
    if spec.limits.limited:
        return _play_watched(task, spec)
    try:
        pacman, ghosts = build_agents(spec, task.isolation)
    except Exception as error:
        return _not_built(task, layout.name, spec.num_ghosts, f"{type(error).__name__}: {error}")
    return play_built(spec, pacman, ghosts)


def _check_code(config: GameConfig) -> None:
    """GameNotStarted if a file or module the configuration's agents name by path or by
    module is missing here (found by name, nothing of the user's is run)."""
    import importlib.util

    from pacman.agents.registry import code_file
    from pacman.experiments.shipping import CODE_SETTINGS, code_target

    targets = []
    for spec in (config.pacman, config.ghost):
        target, sep, _ = spec.name.rpartition(":")
        if sep and target:
            targets.append(target)
        for key, value in spec.settings:
            if key in CODE_SETTINGS and isinstance(value, str) and value.startswith("@"):
                if not Path(value[1:]).is_file():
                    raise GameNotStarted(f"the file {value[1:]} is missing here")
            elif (module := code_target(key, value)) is not None:
                targets.append(module)
    for target in targets:
        path = code_file(target)
        if path is not None and not path.is_file():
            raise GameNotStarted(f"the agent file {path} is missing here")
        if path is None:
            try:  # the top-level name only: a package's code runs when it is imported
                found = importlib.util.find_spec(target.partition(".")[0])
            except (ImportError, ValueError):
                found = None
            if found is None:
                raise GameNotStarted(f"module {target.partition('.')[0]!r} cannot be imported "
                                     "here")


#: this worker's children for games with a time limit, started with its first such game
_WATCHED: dict[tuple[str, int], Any] = {}  # (one per isolation and thread: Dask runs threads)


def _play_watched(task: GameTask, spec: GameSpec) -> GameRecord:
    from pacman.errors import AgentSetupError
    from pacman.hosting.watched import WatchedGames

    key = (task.isolation, threading.get_ident())
    watched = _WATCHED.get(key)
    if watched is None:
        watched = _WATCHED[key] = WatchedGames(isolation=task.isolation)
    try:
        record: GameRecord = watched.play(spec)
    except AgentSetupError as error:
        return _not_built(task, spec.layout.name, spec.num_ghosts, str(error))
    return record


def _not_built(task: GameTask, layout_name: str, count: int, reason: str) -> GameRecord:
    config = task.config
    return GameRecord(layout=layout_name, seed=task.seed,
                      agents=(config.pacman.name, *[config.ghost.name] * count),
                      outcome=Outcome.CRASH, score=0, pacman_moves=0, actions=(),
                      fault=f"could not build the agents: {reason}")


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


def format_progress(progress: Progress) -> str:
    """`37/200 games (18%), 3.1 games/s, 0:00:52 left`: one line for a log."""
    percent = 100 * progress.done // progress.total if progress.total else 100
    eta = progress.eta
    left = "--:--" if eta is None else _clock(eta)
    return (f"{progress.done}/{progress.total} games ({percent}%), {progress.rate:.1f} "
            f"games/s, {left} left")


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
    others: int = 0  # games of this batch that another batch on the same file stored meanwhile
    superseded: int = 0  # planned games stored by another code version (kept; played again)
    forged: int = 0  # rows that appeared for games this run held the claim on: replaced by
    # the games it played (nothing but tampering writes such a row)

    @property
    def missing(self) -> int:
        """Games of the batch still not in the store."""
        return self.planned - self.already - self.stored - self.others


ProgressCallback = Callable[[Progress], None]


def stored_games(store: str | Path, configs: Sequence[ResolvedConfig], games: int,
                 seed: int) -> dict[str, list[StoredGame]]:
    """The stored games of each configuration (by key) that a batch of `games` games with
    batch seed `seed` plays: indices `0..games-1`, played by the configuration's code version,
    in index order (whatever order they were stored in)."""
    wanted = {entry.config.key(): entry.code for entry in configs}
    found: dict[str, list[StoredGame]] = {key: [] for key in wanted}
    with open_results(store) as results:
        for game in results.games():
            key = game.config.key()
            if (key in wanted and game.code == wanted[key] and game.base_seed == seed
                    and game.index < games):
                found[key].append(game)
    for stored in found.values():
        stored.sort(key=lambda game: game.index)
    return found


def run_batch(configs: Sequence[GameConfig | ResolvedConfig], *, games: int,
              store: ResultStore | str | Path = DEFAULT_STORE, seed: int = 0,
              jobs: int | None = None, backend: Backend | None = None,
              game_time_limit: float | None = None,
              on_progress: ProgressCallback | None = None,
              isolation: str = "process") -> BatchResult:
    """Play `games` games of every configuration that the store does not have yet.

    Game `i` of a configuration uses `derive_seed(seed, config.seed_key(), i)`, so the records do
    not depend on the number of workers or the order games finish in. Games are handed out
    round-robin (game 0 of every configuration first), so a partial run is balanced.
    Raises BatchError for numbers out of range, BatchInterrupted (a KeyboardInterrupt) on
    Ctrl-C after storing what finished, and StoreError when the results file fails.
    `isolation` says where a user's agent plays (`pacman.hosting.local.build_agents`): in an
    agent host of its own (`process`, the default: the worker, which stores the record,
    never runs the user's code during a game) or in the worker (`none`).
    """
    if isolation not in ISOLATIONS:
        raise BatchError(f"unknown isolation {isolation!r} (choose process or none)")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise BatchError(f"games must be a whole number from 1 to {MAX_GAMES:,}, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not (
            INTEGER_MIN <= seed <= INTEGER_MAX):
        raise BatchError(f"the batch seed must be a whole number from {INTEGER_MIN} to "
                         f"{INTEGER_MAX}, got {seed!r}")
    if game_time_limit is not None:
        game_time_limit = seconds(game_time_limit, "game_time_limit")
    from pacman.limits import load_limit

    resolved = resolve_configs([c if isinstance(c, GameConfig) else c.config for c in configs],
                               isolation, load_limit(game_time_limit))
    for entry in resolved:
        _check_numbers(entry.config)
    if isinstance(backend, DaskBackend):  # the user's files go with the games, read once here
        resolved = backend.ship(resolved, game_time_limit)
    if len(resolved) * games > MAX_GAMES:
        raise BatchError(f"{len(resolved)} configurations x {games} games = "
                         f"{len(resolved) * games:,} games, more than one batch plays "
                         f"({MAX_GAMES:,}): split it")
    owned = not isinstance(store, ResultStore)
    results = ResultStore(store) if not isinstance(store, ResultStore) else store
    try:
        done = results.done(seed)
        stored_any = {(key, index) for key, index, _ in done}
        # (one key per configuration, and the code version its games are played by)
        keys = [(r.config, r.config.key(), r.code) for r in resolved]
        planned = len(keys) * games
        todo = [GameTask(config, seed, index, derive_seed(seed, config.seed_key(), index), code,
                         isolation)
                for index in range(games) for config, key, code in keys
                if (key, index, code) not in done]
        already = planned - len(todo)
        # games stored by another version of the code: kept, and played again by this one
        superseded = sum((task.config.key(), task.index) in stored_any for task in todo)
        if not todo:
            return BatchResult(results.path, planned, already, 0)
        if backend is None:
            backend = ProcessBackend(min(jobs or default_jobs(), len(todo)))
        names = {r.config.key(): r for r in resolved}
        runner = _Runner(backend, results, todo, names, game_time_limit, on_progress, planned,
                         already)
        runner.superseded = superseded
        return runner.run()
    finally:
        if owned:
            results.close()


def _check_numbers(config: GameConfig) -> None:
    """BatchError for a number the store cannot hold or a worker cannot use."""
    if config.max_moves is not None and config.max_moves > INTEGER_MAX:
        raise BatchError(f"max_moves must be at most {INTEGER_MAX}, got {config.max_moves}")


@dataclass
class _Flight:
    task: GameTask
    deadline: float


class _Runner:
    """The scheduling loop of one `run_batch` call."""

    def __init__(self, backend: Backend, store: ResultStore, todo: list[GameTask],
                 resolved: Mapping[str, ResolvedConfig], game_time_limit: float | None,
                 on_progress: ProgressCallback | None, planned: int, already: int) -> None:
        self.backend, self.store, self.resolved = backend, store, resolved
        self.game_time_limit, self.on_progress = game_time_limit, on_progress
        self.planned, self.already, self.total = planned, already, len(todo)
        self.pending: deque[GameTask] = deque(todo)
        self.todo_keys = {(task.config.key(), task.index, task.code) for task in todo}
        self.base_seed = todo[0].base_seed if todo else 0
        self.solo: deque[GameTask] = deque()  # to play again alone, after their worker died
        self.failures: dict[GameTask, int] = {}
        self.inflight: dict[Future[GameRecord], _Flight] = {}
        self.outcomes: dict[str, int] = {}
        self.stored = self.retried = self.killed = 0
        self.others = 0  # games of this batch another batch stored meanwhile
        self.forged = 0  # rows found for games this batch held the claim on (replaced)
        self.superseded = 0  # of the games to play, those stored by another code version
        self.started = self.clock = time.perf_counter()
        self.executor: Executor | None = None
        # claims: a game is claimed in the store before it is handed out (see the module doc)
        self.owner = new_claim_owner()
        self.waiting: deque[GameTask] = deque()  # claimed by another running batch
        self.renewed = self.rechecked = time.monotonic()

    def run(self) -> BatchResult:
        finished: list[tuple[GameTask, GameRecord, bool]] = []
        try:
            try:
                self._loop(finished)
            finally:
                if self.executor is not None:  # stopped early: end the workers first
                    self.backend.stop(self.executor)
                    self.executor = None
        except KeyboardInterrupt:
            try:
                for task, record, complete in finished:
                    self._store(task, record, complete)
                for future, flight in list(self.inflight.items()):
                    if future.done() and not future.cancelled() and future.exception() is None:
                        self._store(flight.task, future.result(), True)
            finally:
                self._release()
            # Ctrl-C may land between a row's commit and `stored += 1`: count the file itself
            present = len(self.todo_keys & self.store.done(self.base_seed))
            self.stored = min(self.stored, present)
            self.others = present - self.stored
            raise BatchInterrupted(self._result(interrupted=True)) from None
        except GameNotStarted as error:  # nothing stored for it: the rest is kept, as on Ctrl-C
            try:
                for task, record, complete in finished:
                    self._store(task, record, complete)
            finally:
                self._release()
            present = len(self.todo_keys & self.store.done(self.base_seed))
            raise BatchError(f"{error.message}; {self.already + present} of {self.planned} "
                             f"games are stored in {self.store.path}: run the same command "
                             "again to play the rest") from None
        except StoreError as error:
            self._release()
            try:
                present = len(self.todo_keys & self.store.done(self.base_seed))
                count = f" with {self.already + present} of {self.planned} games stored"
            except StoreError:
                count = ""
            raise StoreError(f"{error.message}; the batch stopped{count}", error.hint) from None
        except BaseException:
            self._release()
            raise
        self._release()
        return self._result(interrupted=False)

    def _loop(self, finished: list[tuple[GameTask, GameRecord, bool]]) -> None:
        last_report = 0.0
        self._report()
        self.executor = self.backend.start()
        self.clock = time.perf_counter()  # rates count from the first game, not start-up
        while self.pending or self.solo or self.inflight or self.waiting:
            self._fill()
            if self.inflight:
                done, _ = wait(list(self.inflight), timeout=self._wait_time(),
                               return_when=FIRST_COMPLETED)
            else:  # all that is left is being played by another batch: look again soon
                done = set()
                time.sleep(_POLL_SECONDS)
            broken = False
            for future in done:
                broken |= self._collect(future, finished)
            if broken:
                self._restart_after_break(finished)
            self._stop_overdue(finished)
            self._fill()  # hand out new work before the (slower) writes
            for task, record, complete in finished:
                self._store(task, record, complete)
            self._renew()
            now = time.perf_counter()
            if finished or now - last_report >= 1.0:
                self._report()
                last_report = now
            finished.clear()
        assert self.executor is not None
        self.backend.close(self.executor)
        self.executor = None

    def _renew(self) -> None:
        now = time.monotonic()
        if now - self.renewed >= CLAIM_SECONDS / 6:
            self.store.renew(self.owner)
            self.renewed = now

    def _release(self) -> None:
        with suppress(StoreError):  # best effort: claims of a finished batch lapse anyway
            self.store.release(self.owner)

    def _result(self, interrupted: bool) -> BatchResult:
        return BatchResult(self.store.path, self.planned, self.already, self.stored,
                           dict(self.outcomes), self.retried, self.killed,
                           time.perf_counter() - self.started, interrupted, self.others,
                           self.superseded, self.forged)

    def _report(self) -> None:
        if self.on_progress is not None:
            self.on_progress(Progress(self.stored + self.others, self.total, self.already,
                                      time.perf_counter() - self.clock))

    def _fill(self) -> None:
        assert self.executor is not None
        if self.solo:  # a suspect runs with nothing else in flight
            if not self.inflight and self._window() > 0:
                self._submit(self.solo.popleft())
            return
        now = time.monotonic()
        if self.waiting and not self.pending and now - self.rechecked >= _POLL_SECONDS:
            self.pending.extend(self.waiting)  # is another batch's game stored, or free?
            self.waiting.clear()
            self.rechecked = now
        window = self._window()
        while self.pending and len(self.inflight) < window:
            wanted = min(window - len(self.inflight), len(self.pending))
            asked = [self.pending.popleft() for _ in range(wanted)]
            try:
                claims = self.store.claim(asked, self.owner)
            except BaseException:
                self.pending.extendleft(reversed(asked))
                raise
            for task in claims.claimed:
                self._submit(task)
            self.others += len(claims.stored)
            self.waiting.extend(claims.busy)

    def _window(self) -> int:
        """How many games to keep in flight: with a game time limit that the batch keeps (it
        stops late games), exactly one per worker, so a game starts when it is submitted; else
        one extra queued game per worker keeps the workers busy. Read before each hand-out: a
        cluster's workers come and go."""
        slots = self.backend.slots
        return slots if self.game_time_limit is not None and self.backend.can_stop else (
            2 * slots)

    def _submit(self, task: GameTask) -> None:
        assert self.executor is not None
        # a backend that cannot stop a game has its workers keep the limit (`play_game`)
        deadline = float("inf") if self.game_time_limit is None or not self.backend.can_stop \
            else time.perf_counter() + self.game_time_limit
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
        except GameNotStarted as error:
            if not error.worker:  # here, so on every worker: the batch cannot go on
                raise GameNotStarted(f"game {flight.task.index} of "
                                     f"{flight.task.config.label()} could not start: "
                                     f"{error.message}") from None
            self.pending.appendleft(flight.task)  # refused by one worker: the others play it
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
            message = (f"game went over the game time limit of {self.game_time_limit:g}s; its "
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
        stored = self.store.add_claimed(task, record, self.owner, complete=complete)
        if stored == "theirs":  # another batch took the game over (this one looked dead)
            self.others += 1
            return
        self.stored += 1
        self.outcomes[record.outcome.value] = self.outcomes.get(record.outcome.value, 0) + 1
        if stored == "forged":  # a row for a game only this batch could play: replaced
            self.forged += 1
