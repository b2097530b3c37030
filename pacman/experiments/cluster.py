"""Batch games on a Dask cluster: `DaskBackend`, a `Backend` of `pacman.experiments.backends`.

The cluster's workers run in folders of their own, maybe on other machines, so its parts are:
the scheduler's address, checked before Dask's client may wait on it for ever (`_probe`); the
workers, each checked before it gets a game (its package's code version, `_worker_package`)
and counted as they come and go (`DaskBackend.slots`); and the games, sent with the user's
files (`pacman.experiments.shipping`) and played by `_play_on_worker`, which refuses a game it
cannot start rather than let it be stored as the agents' fault.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import logging
import math
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import CancelledError, Executor, Future
from contextlib import contextmanager, suppress
from types import FrameType
from typing import TYPE_CHECKING, Any

from pacman.errors import BatchError, GameNotStarted, MissingExtra
from pacman.experiments.backends import MAX_JOBS, default_jobs
from pacman.interrupts import sigint_masked
from pacman.versions import CODE_DIGITS

if TYPE_CHECKING:
    from pacman.experiments.config import GameTask
    from pacman.experiments.grid import ResolvedConfig
    from pacman.experiments.shipping import Shipment
    from pacman.record import GameRecord

__all__ = ["DEFAULT_WORKER_WAIT", "DaskBackend"]

DEFAULT_WORKER_WAIT = 60.0  # seconds a batch waits with no usable Dask worker
_LOOK_SECONDS = 1.0  # how often a batch looks at the cluster's workers


class DaskBackend:
    """A Dask cluster: a running scheduler's, or a local one started on 127.0.0.1.

    `scheduler` is the address of a running scheduler (`tcp://host:8786`); without it the
    address Dask's configuration gives (`DASK_SCHEDULER_ADDRESS`) is used, and without that a
    local cluster of `jobs` single-threaded worker processes is started, listening on
    127.0.0.1 only (its dashboard too). `jobs` with a running scheduler is an error: its
    workers are its own.

    Workers need this package only: the user's agent modules, layouts and weights files travel
    with the games by content (`pacman.experiments.shipping`). Each worker is checked before it
    gets a game: one that runs another version of this package (`versions.package_version`),
    or cannot run it at all, is refused, and `on_notice` gets one line saying so. The games in
    flight follow the usable workers' threads as workers come and go; with no usable worker for
    `worker_wait` seconds the batch stops (`GameNotStarted`) and keeps what it stored. A game
    time limit is kept by the worker, which plays the game in a child process and stops it
    (`pacman.hosting.watched`), as `pacman play --game-timeout` does.
    """

    can_stop = False

    def __init__(self, scheduler: str | None = None, jobs: int | None = None,
                 connect_timeout: float = 15.0, worker_wait: float = DEFAULT_WORKER_WAIT,
                 on_notice: Callable[[str], None] | None = None) -> None:
        try:
            # typed as Any: the extra may be missing, and it has no complete annotations
            distributed: Any = importlib.import_module("distributed")
            dask: Any = importlib.import_module("dask")
        except ImportError as error:
            raise MissingExtra("the dask backend needs dask.distributed", "dask",
                               error.name) from None
        from pacman import versions

        given = scheduler is not None
        if scheduler is None:  # Dask's own default: DASK_SCHEDULER_ADDRESS or its config
            scheduler = dask.config.get("scheduler-address", None) or None
        if jobs is not None and scheduler is not None:
            raise BatchError("jobs (-j) sets the workers of a local Dask cluster: a running "
                             f"scheduler ({scheduler}{'' if given else ', DASK_SCHEDULER_ADDRESS'}"
                             ") has workers of its own; leave -j out")
        if jobs is not None and not 1 <= jobs <= MAX_JOBS:
            raise BatchError(f"jobs must be from 1 to {MAX_JOBS}, got {jobs}")
        if not 0 < worker_wait <= 1_000_000:  # NaN too
            raise BatchError(f"the wait for workers must be > 0 and at most 1,000,000 seconds,"
                             f" got {worker_wait}")
        self.worker_wait = worker_wait
        self.connect_timeout = connect_timeout
        self._notice = on_notice or (lambda text: None)
        self.package = versions.package_digest()  # what every worker must run
        self.shipments: dict[str, Shipment] = {}  # configuration key -> its files
        self.game_time_limit: float | None = None
        self._cluster: Any = None
        self.client: Any = None
        self._usable: dict[str, int] = {}  # worker address -> threads, of checked workers
        self._refused: dict[str, str] = {}  # worker address -> why it is not used
        self._late: list[tuple[str, str]] = []  # refusals found by games, from Dask's threads
        self._lock = threading.Lock()
        self._looked = -math.inf  # when the workers were last looked at (monotonic)
        self._idle_since: float | None = None  # since when no worker is usable
        self._running = False
        self._executor: _ClusterExecutor | None = None
        self._present: set[str] = set()  # the workers there at the last look
        self._where = "a local Dask cluster"
        try:
            if scheduler is None:
                self._start_local(distributed, jobs or default_jobs())
            else:
                address = _scheduler_address(scheduler)
                self._where = f"the Dask scheduler at {address}" + (
                    "" if given else " (DASK_SCHEDULER_ADDRESS)")
                _probe(address, connect_timeout, f"cannot use {self._where}")
                self.client = distributed.Client(address, timeout=connect_timeout)
            self._look(force=True)  # the workers there now are checked before a batch
        except BatchError:
            self.shutdown()
            raise
        except Exception as error:  # a local cluster's nanny that cannot start, a refused port
            self.shutdown()
            raise BatchError(f"cannot use {self._where}: {_one_line(error)}") from None
        except BaseException:  # Ctrl-C (or the CLI's SIGTERM) while it starts: stopped quietly
            self.shutdown()
            raise

    def _start_local(self, distributed: Any, workers: int) -> None:
        """Start a local cluster of `workers` worker processes, and its client.

        Dask starts its worker processes from a thread of its own, and a Ctrl-C goes to every
        process of the terminal's group: a worker that got it while it starts prints its
        traceback, and a Ctrl-C that cuts Dask's start in two leaves Dask's machinery
        printing more. So the cluster is started by a thread that blocks SIGINT, which every
        thread and process it starts inherits (the workers never see a Ctrl-C: the batch stops
        them), with Dask's logs silenced; a Ctrl-C meanwhile lands in this thread, which waits
        for the start to end and then stops what was started (`shutdown`) before it raises.
        Each worker also dies with the batch (`dask_setup`), quietly, if the batch is killed.
        """
        started: list[Any] = []
        failed: list[BaseException] = []
        # (not `Thread.join`: on Python 3.11 a Ctrl-C that interrupts it marks the thread
        # as ended while it still runs)
        done = threading.Event()

        def start() -> None:
            try:
                with _quiet_dask():
                    started.append(distributed.LocalCluster(
                        n_workers=workers, threads_per_worker=1, processes=True,
                        host="127.0.0.1", dashboard_address="127.0.0.1:0",
                        preload=[__name__], env={_PARENT_VARIABLE: str(os.getpid())}))
                    started.append(distributed.Client(started[0]))
            except BaseException as error:  # handed to the caller's thread
                failed.append(error)
            finally:
                done.set()

        thread = threading.Thread(target=start, daemon=True, name="pacman-dask-start")
        # multiprocessing starts its resource tracker in the first thread that needs it and
        # then unblocks SIGINT there (it does not restore the mask): started here, it is not
        # started by Dask's thread, whose mask its worker processes inherit
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
        try:
            with sigint_masked():  # (a Ctrl-C meanwhile is raised as it ends: in this try)
                thread.start()
            done.wait()
        finally:  # (after a Ctrl-C too: what was started is handed over, then shut down)
            if thread.ident is not None and not done.is_set():
                with _signals_ignored():
                    done.wait()
            self._cluster, self.client = (started + [None, None])[:2]
        if failed:
            raise failed[0]

    @property
    def slots(self) -> int:
        """The threads of the usable workers now (looked at again at most once a second).

        Raises:
            GameNotStarted: during a batch, no usable worker for `worker_wait` seconds.
        """
        self._look()
        return sum(self._usable.values())

    def ship(self, configs: Sequence[ResolvedConfig], game_time_limit: float | None = None
             ) -> list[ResolvedConfig]:
        """Read the files the configurations' games need, once, to send with each game.

        Args:
            configs: the batch's configurations.
            game_time_limit: seconds a game may take, kept by the worker (None: no limit).

        Returns:
            The configurations with the code version of what was read.
        """
        from pacman.experiments.shipping import ship

        shipped = []
        for resolved in configs:
            shipment = ship(resolved)
            self.shipments[resolved.config.key()] = shipment
            shipped.append(dataclasses.replace(resolved, code=shipment.code))
        self.game_time_limit = game_time_limit
        return shipped

    def start(self) -> Executor:
        """An executor that sends each game to the usable workers, with its files."""
        self._running = True
        if not self._usable:
            self._idle_since = time.monotonic()
        self._executor = _ClusterExecutor(self)
        return self._executor

    def stop(self, executor: Executor) -> None:
        """Cancel every game sent; running tasks cannot be stopped (a game's own time limit is
        kept by its worker)."""
        self._running = False
        with _quiet_dask():
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self, executor: Executor) -> None:
        """Close the executor; the client stays for another batch until `shutdown`."""
        self._running = False
        executor.shutdown(wait=True)

    def shutdown(self) -> None:
        """Close the client (and the local cluster, if this backend started one).

        Quietly, and once: Dask's logs are silenced meanwhile, and a Ctrl-C or SIGTERM that
        comes while it closes is ignored (the batch is already stopping; both closes have a
        time limit)."""
        with _signals_ignored(), _quiet_dask():
            executor, self._executor = self._executor, None
            if executor is not None:
                executor.forget()
            client, self.client = self.client, None
            cluster, self._cluster = self._cluster, None
            if client is not None:
                with suppress(Exception):  # best effort: the scheduler may be gone
                    client.close(timeout=self.connect_timeout)
            if cluster is not None:
                with suppress(Exception):
                    cluster.close(timeout=self.connect_timeout)

    def __enter__(self) -> DaskBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    # --- the workers ---------------------------------------------------------------------

    def refused(self, worker: str, reason: str) -> None:
        """Take `worker` out of use (called from Dask's threads: applied on the next look)."""
        with self._lock:
            self._late.append((worker, reason))

    def _look(self, force: bool = False) -> None:
        """Look at the cluster's workers (at most once a second): check the new ones, drop
        the ones gone, and stop a batch that had no usable worker for too long."""
        now = time.monotonic()
        if force or now - self._looked >= _LOOK_SECONDS:
            self._looked = now
            # a Ctrl-C raised inside Dask's client (which waits in this thread) may be caught
            # there, or turned into another error: it is held until the look is over (a few
            # ms; at most `connect_timeout` with a scheduler that does not answer)
            with _signals_held():
                try:
                    threads: dict[str, int] = self.client.sync(
                        self.client.scheduler.ncores, callback_timeout=self.connect_timeout)
                except (OSError, TimeoutError, asyncio.TimeoutError):
                    threads = {}  # the scheduler does not answer: no worker can be reached
                self._update(threads)
        if self._usable:
            self._idle_since = None
        elif self._idle_since is None:
            self._idle_since = now
        elif self._running and now - self._idle_since >= self.worker_wait:
            raise GameNotStarted(self._no_workers())

    def _update(self, threads: Mapping[str, int]) -> None:
        self._present = set(threads)
        with self._lock:
            late, self._late = self._late, []
        for worker, reason in late:
            self._refuse(worker, reason)
        gone = [worker for worker in self._usable if worker not in threads]
        for worker in gone:
            del self._usable[worker]
        if gone and self._executor is not None:
            self._executor.strand()
        new = [worker for worker in threads
               if worker not in self._usable and worker not in self._refused]
        if not new:
            return
        answers = self._ask(new)
        if answers is None:
            return  # the scheduler did not pass the question on: asked again next time
        for worker in new:
            answer = answers.get(worker)
            if answer is None:
                self._refuse(worker, f"it did not answer within {self.connect_timeout:g} s")
            elif isinstance(answer, BaseException):  # e.g. a worker without pacman
                self._refuse(worker, f"it cannot run pacman ({_one_line(answer)})")
            elif answer != self.package:
                self._refuse(worker, f"it runs pacman code {str(answer)[:CODE_DIGITS]}, this "
                                     f"batch {self.package[:CODE_DIGITS]} (install the same "
                                     "pacman on every worker)")
            else:
                self._usable[worker] = threads[worker]

    def _ask(self, workers: list[str]) -> dict[str, object] | None:
        """Each worker's package digest, or what it raised, within `connect_timeout` (a
        worker missing from the answer did not answer); None if the question failed.

        `Client.run` asks on the workers' own event loops: a worker without this package
        answers with its error and stays up (a task it cannot read would end it), and a
        worker busy with games answers at once.
        """
        answers: list[dict[str, object]] = []
        failed: list[BaseException] = []

        def ask() -> None:
            try:
                answers.append(self.client.run(_worker_package, workers=workers,
                                               on_error="return"))
            except Exception as error:  # a worker gone meanwhile, a scheduler gone
                failed.append(error)

        thread = threading.Thread(target=ask, daemon=True, name="pacman-dask-check")
        thread.start()
        thread.join(self.connect_timeout)
        if failed:
            return None
        return dict(answers[0]) if answers else {}

    def _refuse(self, worker: str, reason: str) -> None:
        self._usable.pop(worker, None)
        if worker not in self._refused:
            self._refused[worker] = reason
            self._notice(f"Dask worker {worker} is not used: {reason}")

    def _no_workers(self) -> str:
        wait = f"{self.worker_wait:g} s"
        refused = {worker: why for worker, why in self._refused.items() if worker in self._present}
        if not refused:
            return (f"{self._where} had no worker for {wait}: start workers (they need this "
                    "package only), or wait longer (--worker-wait)")
        worker, reason = next(iter(refused.items()))
        others = len(refused) - 1
        more = f" (and {others} other worker{'s' if others > 1 else ''})" if others else ""
        return (f"no usable Dask worker for {wait}: {worker}{more} refused: {reason}")


_PARENT_VARIABLE = "PACMAN_DASK_BATCH"  # a local cluster's worker: the batch's process id


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """Silence Dask's logs on this terminal for the block (a cluster that starts or stops
    around a Ctrl-C logs the tracebacks of its interrupted tasks).

    A filter on the handlers of Dask's (and Tornado's) loggers, not their levels: a local
    cluster sets and restores those levels itself (`silence_logs`) while it lives."""
    handlers = {handler for name in ("distributed", "tornado")
                for handler in logging.getLogger(name).handlers}
    for handler in handlers:
        handler.addFilter(_silence)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(_silence)


def _silence(record: logging.LogRecord) -> bool:
    """A log filter that lets nothing through."""
    return False


@contextmanager
def _signals_ignored() -> Iterator[None]:
    """Ignore Ctrl-C and SIGTERM for the block (main thread only: elsewhere Python runs no
    handler anyway), so a second one cannot cut short the stop the first one began."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    kept = {number: signal.signal(number, _ignore) for number in (signal.SIGINT,
                                                                    signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in kept.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold a Ctrl-C or SIGTERM that comes during the block, and hand it to its handler when
    the block ends (main thread only: elsewhere Python runs no handler anyway)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[signal.Signals] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signal.Signals(signum))

    kept = {number: signal.signal(number, hold) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in kept.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
    if held:
        handler = kept[held[0]]
        if callable(handler):
            handler(held[0], None)  # ours or the CLI's: raises KeyboardInterrupt
        elif handler == signal.SIG_DFL:
            signal.raise_signal(held[0])


def _ignore(signum: int, frame: FrameType | None) -> None:
    """A handler that does nothing (unlike SIG_IGN, a process started meanwhile keeps its
    default)."""


def dask_setup(worker: Any) -> None:
    """(On a worker of a local cluster, as a Dask preload) die with the batch, quietly.

    A worker's parent is the batch (its nanny runs there): killed with `kill -9`, it cannot
    stop its workers, and each would log its lost connections for a while; the kernel ends
    it instead (`die_with_parent`, Linux). Its Dask logs below errors are silenced."""
    from pacman.hosting.isolation import die_with_parent

    parent = os.environ.get(_PARENT_VARIABLE, "")
    if parent.isdigit():
        die_with_parent(int(parent))
    logging.getLogger("distributed").setLevel(logging.ERROR)


def _one_line(error: BaseException) -> str:
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= 200 else text[:197] + "..."


def _scheduler_address(text: str) -> str:
    """The address of a scheduler as Dask writes it (`tcp://host:port`); BatchError for text
    that is not one (a missing or bad port, an unknown protocol, a space)."""
    comm: Any = importlib.import_module("distributed.comm")  # (typed as Any: see above)
    from distributed.comm.registry import backends

    shown = repr(text) if len(text) <= 60 else repr(text[:57] + "...")
    address = text.strip()
    if "://" not in address:
        address = f"tcp://{address}"
    try:
        protocol, _ = comm.parse_address(address)
        if protocol not in backends or protocol == "inproc":
            raise ValueError(f"unknown protocol {protocol!r}")
        host, port = comm.get_address_host_port(address, strict=True)
        if not host or any(c.isspace() for c in address) or not 0 < int(port) < 65536:
            raise ValueError("no such host or port")
    except (ValueError, TypeError) as error:
        raise BatchError(f"bad Dask scheduler address {shown}: write tcp://HOST:PORT, e.g. "
                         f"tcp://127.0.0.1:8786 ({error})") from None
    return address


def _probe(address: str, timeout: float, where: str) -> None:
    """Ask the server at `address` who it is, within `timeout` seconds in all: BatchError
    unless a Dask scheduler answers (a port that answers something else would make Dask's
    client wait for ever)."""
    connect = importlib.import_module("distributed.comm").connect

    async def identity() -> Any:
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    answers: list[Any] = []
    failures: list[BaseException] = []

    def ask() -> None:  # in a thread of its own: the caller's may run an event loop already
        try:
            answers.append(asyncio.run(asyncio.wait_for(identity(), timeout)))
        except BaseException as error:  # what a server that is not Dask sends fails anyhow
            failures.append(error)

    thread = threading.Thread(target=ask, daemon=True, name="pacman-dask-probe")
    thread.start()
    thread.join(timeout + 1)
    if failures and not isinstance(failures[0], (TimeoutError, asyncio.TimeoutError)):
        raise BatchError(f"{where}: {_one_line(failures[0])}")
    if not answers:
        raise BatchError(f"{where}: no Dask scheduler answered within {timeout:g} s")
    kind = answers[0].get("type") if isinstance(answers[0], dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind.lower()}, not a scheduler" if isinstance(kind, str) else (
            "not a Dask scheduler")
        raise BatchError(f"{where}: it is {what}")


def _worker_package() -> str:
    """(On a worker) the digest of this worker's package."""
    from pacman import versions

    return versions.package_digest()


def _play_on_worker(play: Callable[..., GameRecord], task: GameTask, shipment: Shipment,
                    package: str, game_time_limit: float | None) -> GameRecord:
    """(On a worker) play one game of a batch with the files it was sent.

    Raises:
        GameNotStarted: this worker cannot play the game (another version of this package, a
            module it lacks, a copy it cannot write): the client takes the worker out of use
            and sends the game elsewhere.
    """
    import distributed

    from pacman import versions
    from pacman.experiments import shipping

    worker = distributed.get_worker().address
    ours = versions.package_digest()
    if ours != package:
        raise GameNotStarted(f"it runs pacman code {ours[:CODE_DIGITS]}, this batch "
                             f"{package[:CODE_DIGITS]}", worker)
    try:
        paths = shipping.unpack(shipment)
    except OSError as error:
        raise GameNotStarted(f"it cannot keep the batch's files ({_one_line(error)})",
                             worker) from None
    local = dataclasses.replace(task, config=shipping.localise(task.config, paths))
    try:
        record = play(local, game_time_limit)
    except GameNotStarted as error:
        raise GameNotStarted(error.message, worker) from None
    return shipping.restore(record, paths)


class _ClusterExecutor(Executor):
    """`submit(play_game, task)` as a Dask task for the usable workers, with the task's files
    and the game time limit; its futures are plain `concurrent.futures` ones."""

    def __init__(self, backend: DaskBackend) -> None:
        self._backend = backend
        self._sent: dict[Future[Any], tuple[Any, frozenset[str]]] = {}
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Send `fn(task)` (the batch's `play_game`) to a usable worker."""
        from pacman.experiments.shipping import Shipment

        backend = self._backend
        (task,) = args
        workers = frozenset(backend._usable)
        future: Future[Any] = Future()
        future.set_running_or_notify_cancel()
        if not workers:  # (an empty list would let Dask pick any worker, a refused one too)
            future.set_exception(CancelledError())
            return future
        sent = backend.client.submit(
            _play_on_worker, fn, task, backend.shipments.get(task.config.key(), Shipment()),
            backend.package, backend.game_time_limit, workers=sorted(workers),
            allow_other_workers=False, pure=False)
        with self._lock:
            self._sent[future] = (sent, workers)  # (a Dask future dropped cancels its task)
        sent.add_done_callback(lambda done: self._settle(future, done))
        return future

    def _settle(self, future: Future[Any], sent: Any) -> None:
        """Hand the Dask task's outcome to the batch's future. An error is handed on without
        its traceback: the traceback's frames hold the Dask future, which the garbage
        collector would then free at any later moment, after the client closed too (and Dask
        prints a traceback of its own when that happens)."""
        with self._lock:
            self._sent.pop(future, None)
        try:
            result = sent.result()
        except GameNotStarted as error:
            if error.worker:
                self._backend.refused(error.worker, error.message)
            future.set_exception(error.with_traceback(None))
        except BaseException as error:  # a cancelled task, a worker that died, ...
            future.set_exception(error.with_traceback(None))
        else:
            future.set_result(result)

    def strand(self) -> None:
        """Cancel the games sent only to workers that are all gone (they would wait for
        ever): they come back as cancelled, and the batch sends them again."""
        usable = set(self._backend._usable)
        with self._lock:
            stranded = [sent for sent, workers in self._sent.values() if not workers & usable]
        for sent in stranded:
            sent.cancel()

    def forget(self) -> None:
        """Release every Dask future still held, while its client is open (the backend's
        `shutdown`). Each holds a callback that holds this executor, which holds the future:
        left to the garbage collector, one collected after the client closed printed Dask's
        traceback after the batch's last line."""
        with self._lock:
            sent, self._sent = list(self._sent.values()), {}
        for task, _ in sent:
            task.release()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel what was sent and not finished (`cancel_futures`), else let it finish."""
        with self._lock:
            sent = [entry[0] for entry in self._sent.values()]
        if cancel_futures or not wait:
            for task in sent:
                task.cancel()
