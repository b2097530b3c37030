"""Where batch games run: a spawn-started process pool on this machine, or a Dask cluster."""

from __future__ import annotations

import importlib
import os
import signal
import time
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from pacman.experiments.grid import BatchError

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
