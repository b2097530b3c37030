"""Where batch games run: the `Backend` protocol, and a spawn-started process pool on this machine
(a Dask cluster is `pacman.experiments.cluster`)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager, suppress
from typing import Protocol

from pacman.errors import BatchError

# --- backends -----------------------------------------------------------------------------


class Backend(Protocol):
    """Where games run: it makes executors, and stops their running games if it can."""

    @property
    def slots(self) -> int:
        """Games that can run at once now: the batch keeps at most this many in flight (a
        cluster's changes as workers come and go; read before each hand-out)."""

    #: True if `stop` really ends running games (then game time limits free their worker)
    can_stop: bool

    def start(self) -> Executor:
        """A ready executor."""

    def stop(self, executor: Executor) -> None:
        """End the executor now, its running games with it."""

    def close(self, executor: Executor) -> None:
        """End the executor after a normal finish."""


MAX_JOBS = 256  # worker processes or local Dask workers: more is a typo, not a machine
START_ATTEMPTS = 3  # pools started before a batch gives up on starting its workers
_ORPHAN_POLL_SECONDS = 0.2  # how often a worker checks that the batch is still there
# os._exit as imported, before a game's guard (`pacman.limits.guard_process_exit`) swaps it
_EXIT_PROCESS = os._exit


def _worker_init(parent: int | None = None, pact: bool = False) -> None:
    """Set up a worker of the process pool (it starts with SIGINT blocked, see `start`).

    Ctrl-C goes to the whole process group: only the batch handles it (it stops the pool and
    keeps what finished); a worker that got it too would print a traceback and die. And a
    worker must not outlive its batch: killed with `kill -9`, the batch cannot stop its pool,
    so each worker watches its parent and exits when it is gone; with `pact` (the pool was
    started by the batch's main thread) the kernel also ends it (`die_with_parent`), even while
    agent code holds the interpreter and the watching thread cannot run.
    """
    if parent is not None and pact:
        from pacman.hosting.isolation import die_with_parent

        die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from pacman.interrupts import mark_user_interrupts

    mark_user_interrupts()  # here every KeyboardInterrupt is an agent's own: its crash
    if hasattr(signal, "pthread_sigmask"):  # POSIX; a pending Ctrl-C is dropped, ignored
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if parent is not None:
        threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True,
                         name="pacman-orphan-watch").start()
    import pacman.agents.registry
    import pacman.game  # noqa: F401


@contextmanager
def _main_hidden() -> Iterator[None]:
    """Start worker processes without the caller's `__main__`.

    `spawn` runs the parent's main script again in each child (as `__mp_main__`) so that
    pickled references to it resolve. A batch's tasks never refer to it (agents are found by
    registry name or module path), and running it again fails where there is no script to run:
    Python reading stdin (`<stdin>`), a notebook, or a script that starts a batch without
    `if __name__ == "__main__":` (it would start the batch again in every worker). So the
    children are started as if the parent had no main script.
    """
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved = {name: getattr(main, name) for name in ("__file__", "__spec__") if hasattr(main, name)}
    try:
        main.__spec__ = None
        if "__file__" in saved:
            del main.__file__
        yield
    finally:
        for name, value in saved.items():
            setattr(main, name, value)
        if "__spec__" not in saved:
            with suppress(AttributeError):
                del main.__spec__


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Hold back SIGINT in this thread, its Python handler and the processes it starts for
    the block; a Ctrl-C meanwhile is raised when the block ends."""
    from pacman.interrupts import held_interrupts, sigint_masked

    with held_interrupts(), sigint_masked():
        yield


def _exit_when_orphaned(parent: int) -> None:
    # the parent's death re-parents this process (to init or a subreaper): getppid changes
    while os.getppid() == parent:
        time.sleep(_ORPHAN_POLL_SECONDS)
    _EXIT_PROCESS(1)


class _StartFailed(Exception):
    """A process pool that could not start: `cause` says why."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


_START_SECONDS = 120.0  # the longest a started worker may take to answer (a busy machine)


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
        if not 1 <= self.slots <= MAX_JOBS:
            raise BatchError(f"jobs must be from 1 to {MAX_JOBS}, got {self.slots}")

    def start(self) -> Executor:
        """A pool with every worker started and its imports done.

        The workers are started with SIGINT blocked, so a Ctrl-C during their start-up (before
        `_worker_init` ignores it) cannot print their tracebacks; a Ctrl-C here in the batch
        ends the half-started pool before it goes on. A worker that dies while the pool starts
        (killed from outside, by the memory killer) breaks that pool: a fresh one is started in
        its place, up to `START_ATTEMPTS` pools, then BatchError.
        """
        problem: BaseException | None = None
        for _ in range(START_ATTEMPTS):
            try:
                return self._start_pool()
            except _StartFailed as failed:
                problem = failed.cause
        raise BatchError(f"the worker processes could not start ({START_ATTEMPTS} tries; "
                         f"the last: {type(problem).__name__}: {problem})")

    def _start_pool(self) -> Executor:
        """One try of `start`: _StartFailed (the pool stopped) if a worker died or did not
        answer in time."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # the kernel ends a worker with its batch when the thread that starts it is the main
        # one (`die_with_parent`): the processes start in `submit`, in this thread
        pact = threading.current_thread() is threading.main_thread()
        pool = ProcessPoolExecutor(max_workers=self.slots,
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_init, initargs=(os.getpid(), pact))
        # The pool starts its processes on demand, and a game's time limit is counted from
        # when it is handed to an idle worker: wait until every worker has answered a call.
        seen: set[int] = set()
        try:
            for _ in range(20):
                with _sigint_blocked(), _main_hidden():  # processes start inside `submit`
                    calls = [pool.submit(_warm_up, 0.05) for _ in range(self.slots)]
                seen.update(call.result(timeout=_START_SECONDS) for call in calls)
                if len(seen) >= self.slots:
                    break
        # a worker that dies while the pool starts breaks it (BrokenProcessPool) and, at an
        # unlucky moment, the pool's own machinery (a closed queue in `submit`, a call never
        # answered): whatever this warm-up of ours raises, the pool did not start
        except Exception as error:
            self.stop(pool)
            raise _StartFailed(error) from None
        except BaseException:
            self.stop(pool)
            raise
        return pool

    def stop(self, executor: Executor) -> None:
        """Terminate the workers (running games are lost) and shut the pool down."""
        terminate = getattr(executor, "terminate_workers", None)
        if callable(terminate):  # Python 3.14+
            terminate()
            executor.shutdown(wait=False, cancel_futures=True)
            return
        processes = list((getattr(executor, "_processes", None) or {}).values())
        manager = getattr(executor, "_executor_manager_thread", None)
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join(timeout=5)
        # The pool's manager thread sees its workers gone and closes its wake-up pipe; on Python
        # 3.11 nothing keeps that close apart from the interpreter's exit hook, which writes to
        # the same pipe (CPython gh-125451 later added a lock): a Ctrl-C that ended the batch
        # just then printed "Exception ignored ... OSError: [Errno 9] Bad file descriptor".
        # Wait for the thread to finish.
        if isinstance(manager, threading.Thread):
            manager.join(timeout=10)

    def close(self, executor: Executor) -> None:
        """Shut the pool down."""
        executor.shutdown(wait=True)
