"""Run untrusted agent code in a child process that can be stopped: hard limits, not promises.

`Child` starts `python -m MODULE` in its own session, talks to it in JSON lines over a channel of
its own, and captures everything the child's code prints (stdout and stderr, Python or C level)
into a bounded buffer instead of the parent's terminal. The parent sets the deadlines: `receive`
returns None when one passes, and `kill` ends the whole process group. A child that exits,
crashes or is killed shows up as `ChildDied` with a readable reason (exit code, or the signal).

Inside the child, `child_setup()` applies the memory cap, moves stdout/stderr onto the capture
pipe, and starts a watchdog that ends the child when its parent dies. On Linux the kernel ends it
too (`PR_SET_PDEATHSIG`, asked for between the fork and the exec): the watchdog is a Python
thread, which agent code that holds the interpreter's lock (a loop in C at import) never lets
run. A process that agent code forks in the child never speaks on the channel (its first
attempt ends it: the game stays the original process's) and dies with the child.

With `Child(..., private=True)` the child runs in a sandbox of its own where Linux allows it
(`pacman.hosting.sandbox` plans it, `pacman.hosting.jail` builds it; `private_processes()` says
whether this machine does): its own user, PID, mount, IPC and network namespaces, a file tree
of its own with a copy of the agent's files, no privileges, limits on processes, file size and
open files. It is process 1 of its own world, its parent's pid reads 0, `/proc` shows only its
own processes, and no signal it sends reaches a process outside. When it ends, everything it
started ends with it. Its watchdog then follows a pipe held by the parent instead of the
parent's pid. Without the sandbox (another system, or user namespaces off) the child runs with
the user's rights and can read and write their files: isolation against mistakes (infinite
loops, `sys.exit`, `os._exit`, segfaults, memory hogs, floods of output), not against intent.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

__all__ = ["GARBAGE", "Channel", "Child", "ChildDied", "ProcessLimits", "child_setup",
           "describe_exit", "die_with_parent", "follow_cpu", "import_path", "not_dumpable",
           "printable", "private_processes", "share_cpu", "unshare_cpu"]

_MEMORY_ENV = "PACMAN_CHILD_MEMORY_MB"
_PARENT_ENV = "PACMAN_CHILD_PARENT"
_PATH_ENV = "PACMAN_CHILD_PATH"
_LIFELINE_ENV = "PACMAN_CHILD_LIFELINE"
# The child starts with the parent's import path (minus folders where a classic `pacman.py`
# would shadow this package), then runs the module as `python -m` would.
# SIGUSR1 (a request for a host's stacks) is ignored until the module has a use for it.
_BOOTSTRAP = ("import json, os, runpy, signal, sys; signal.signal(signal.SIGUSR1, "
              "signal.SIG_IGN); sys.path[:] = json.loads(os.environ['" + _PATH_ENV + "']); "
              "runpy.run_module(sys.argv[1], run_name='__main__', alter_sys=True)")


#: how a child that writes what is not a line of the protocol is described
GARBAGE = "it wrote garbage on the grader's channel"

#: control characters but newline and tab (C0, DEL, C1), which a terminal would obey
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` with every control character but newline and tab written as an escape (`\\x1b`,
    `\\r`): what agent code prints or raises, safe to show on a terminal or in a report."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def import_path() -> list[str]:
    """This process's import path without entries that would shadow our `pacman` package (a
    CS188 folder's `pacman.py`), with relative entries made absolute."""
    from pathlib import Path

    import pacman

    ours = Path(pacman.__file__).resolve().parent.parent
    kept = []
    for entry in sys.path:
        folder = Path(entry or ".").resolve()
        if folder != ours and ((folder / "pacman.py").is_file()
                               or (folder / "pacman" / "__init__.py").is_file()):
            continue
        kept.append(str(folder) if entry in ("", ".") or not os.path.isabs(entry) else entry)
    return kept


@dataclass(frozen=True)
class ProcessLimits:
    """What a child may use: address space in MB (None: no cap) and how much of its output is
    kept (the first `output_head` and the last `output_tail` bytes)."""

    memory_mb: int | None = 2048
    output_head: int = 48_000
    output_tail: int = 16_000


class ChildDied(Exception):
    """The child process ended before it answered."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def describe_exit(returncode: int | None) -> str:
    """`exit code 3`, `killed by signal 9 (SIGKILL)`, or `still running`."""
    if returncode is None:
        return "still running"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "unknown"
        return f"killed by signal {-returncode} ({name})"
    return f"exit code {returncode}"


class _Capture:
    """Drains a pipe in a thread, keeping the head and the tail of what came through."""

    def __init__(self, stream: IO[bytes], head: int, tail: int) -> None:
        self.head_limit, self.tail_limit = head, tail
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self._thread.start()

    def _drain(self, stream: IO[bytes]) -> None:
        with stream:
            while True:
                chunk = stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536)
                if not chunk:
                    return
                with self._lock:
                    self.total += len(chunk)
                    room = self.head_limit - len(self.head)
                    if room > 0:
                        self.head += chunk[:room]
                        chunk = chunk[room:]
                    if chunk:
                        self.tail += chunk
                        if len(self.tail) > self.tail_limit:
                            del self.tail[:len(self.tail) - self.tail_limit]

    def text(self, wait: float = 1.0) -> str:
        """What was kept, with a note of what was left out (control characters escaped:
        `printable`)."""
        self._thread.join(timeout=wait)
        with self._lock:
            kept = len(self.head) + len(self.tail)
            head = self.head.decode("utf-8", "replace")
            if self.total <= kept:
                return printable(head + self.tail.decode("utf-8", "replace"))
            skipped = self.total - kept
            return printable(f"{head}\n[... {skipped:,} bytes of output left out ...]\n"
                             + self.tail.decode("utf-8", "replace"))


class Child:
    """A child Python process running `module` as `python -m` does, with a JSON-lines channel.

    The child's current folder is the parent's (`cwd` to change it); its import path is the
    parent's, without folders that would shadow our package."""

    def __init__(self, module: str, limits: ProcessLimits | None = None,
                 env: dict[str, str] | None = None, cwd: str | None = None,
                 private: bool = False, files: Sequence[tuple[str, str]] = (),
                 view: str = "full", hide: Sequence[str] = (),
                 pass_fds: Sequence[int] = ()) -> None:
        """`private`: the child runs in a sandbox of its own where this machine allows it
        (`pacman.hosting.sandbox`; `self.private` says whether it does), with `files` ((source,
        name) pairs) copied into its working folder and the package seen as `view` (`"game"`
        for a student's code: no agents, registry or grading code) and the folders `hide`
        out of sight even inside what it sees; `cwd` is then ignored. `pass_fds`: file
        descriptors the child keeps (not with `private`)."""
        from pacman.hosting import sandbox

        self.limits = limits or ProcessLimits()
        output_read, output_write = os.pipe()
        environment = dict(os.environ if env is None else env)
        self.private = private and sandbox.available()
        lifeline_read, self._lifeline = os.pipe() if self.private else (-1, -1)
        path = import_path()
        if self.private:  # the child's parent pid reads 0 there: it follows this pipe instead
            environment[_LIFELINE_ENV] = str(lifeline_read)
            environment.pop(_PARENT_ENV, None)
            here = os.getcwd()
            path = [sandbox.WORKDIR, sandbox.LIBDIR, *(e for e in path if e != here)]
        else:
            environment[_PARENT_ENV] = str(os.getpid())
        environment[_PATH_ENV] = json.dumps(path)
        environment["OPENBLAS_NUM_THREADS"] = "1"  # numpy's BLAS threads reserve memory
        environment["PYTHONUNBUFFERED"] = "1"
        if self.limits.memory_mb is not None:
            environment[_MEMORY_ENV] = str(self.limits.memory_mb)
        argv = [sys.executable, "-c", _BOOTSTRAP, module]
        self._plan: dict[str, Any] | None = None
        if self.private:
            self._plan = sandbox.plan(argv, files, view, keep_fds=(lifeline_read,), hide=hide,
                                      memory_mb=self.limits.memory_mb)
            argv = sandbox.command(self._plan)
            cwd = None
        from pacman.interrupts import held_interrupts

        try:  # a Ctrl-C in the fork's own handlers would be lost: it comes after the start
            with held_interrupts():
                self.process = subprocess.Popen(
                    argv, stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=output_write, env=environment, cwd=cwd,
                    start_new_session=True,
                    pass_fds=(lifeline_read,) if self.private else tuple(pass_fds),
                    preexec_fn=_death_pact())
        finally:
            os.close(output_write)
            if self.private:
                os.close(lifeline_read)
        self.capture = _Capture(os.fdopen(output_read, "rb"), self.limits.output_head,
                                self.limits.output_tail)
        assert self.process.stdout is not None
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ)
        self._buffer = b""

    def send(self, message: dict[str, Any]) -> None:
        """Send one message; ChildDied if the child is gone."""
        self.send_line(json.dumps(message).encode() + b"\n")

    def send_line(self, data: bytes) -> None:
        """Send raw bytes, whole lines, straight to the pipe (one system call for a line, no
        buffer to flush); ChildDied if the child is gone."""
        assert self.process.stdin is not None
        try:
            fd = self.process.stdin.fileno()
            while data:
                data = data[os.write(fd, data):]
        except (BrokenPipeError, OSError, ValueError):
            raise ChildDied(self._death()) from None

    def receive(self, timeout: float | None) -> dict[str, Any] | None:
        """The next message, or None if `timeout` seconds pass first; ChildDied if the child
        ends (or sends something that is not a message) before one arrives."""
        line = self.receive_line(timeout)
        if line is None:
            return None
        try:
            message = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            message = None
        if not isinstance(message, dict):
            self.kill()
            raise ChildDied(GARBAGE)
        return message

    def receive_line(self, timeout: float | None) -> bytes | None:
        """The child's next line (without its newline), or None if `timeout` seconds pass
        first; ChildDied if the child ends before it sends one. The one deadline mechanism of
        every exchange with a child (JSON or a protocol's own raw lines)."""
        buffer = self._buffer
        if b"\n" not in buffer:
            deadline = None if timeout is None else time.monotonic() + timeout
            assert self.process.stdout is not None
            fd = self.process.stdout.fileno()
            while b"\n" not in buffer:
                if deadline is not None:  # without a deadline, the read itself waits
                    left = max(0.0, deadline - time.monotonic())
                    if not self._selector.select(left):
                        return None
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise ChildDied(self._death())
                self._buffer = buffer = buffer + chunk
        line, _, self._buffer = buffer.partition(b"\n")
        return line

    @property
    def pending(self) -> bool:
        """Whether the child sent more than has been read (an answer nobody asked for)."""
        return bool(self._buffer)

    def _death(self) -> str:
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
        return describe_exit(self.process.returncode)

    def kill(self) -> None:
        """End the child and everything it started (its process group)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)

    def close(self) -> str:
        """Let the child finish (kill it if it does not within 5 s); return its output."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
        self.kill()  # anything it left running in its group
        if self._lifeline >= 0:
            with contextlib.suppress(OSError):
                os.close(self._lifeline)
            self._lifeline = -1
        self._selector.close()
        if self.process.stdout is not None:
            self.process.stdout.close()
        if self._plan is not None:  # its cgroups, now empty
            from pacman.hosting import sandbox

            sandbox.release(self._plan)
            self._plan = None
        return self.capture.text()

    @property
    def output(self) -> str:
        """What the child printed so far (bounded)."""
        return self.capture.text(wait=0.0)


class Channel:
    """The child's side: read requests from the parent, send messages back."""

    def __init__(self, reader: IO[bytes], writer: IO[bytes]) -> None:
        self._reader, self._writer = reader, writer
        self._lock = threading.Lock()

    def mute(self) -> None:
        """In a process that agent code forked: the channel is the original process's, so
        reading or writing it ends this one (its copy of the game is no game)."""
        muted: Any = _Muted()
        self._reader = self._writer = muted

    def receive(self) -> dict[str, Any] | None:
        """The next request, or None when the parent closed the channel."""
        line = self._reader.readline()
        if not line:
            return None
        message: dict[str, Any] = json.loads(line)
        return message

    def receive_line(self) -> bytes:
        """The next raw line from the parent (b"" when it closed the channel): for a protocol
        of its own that skips JSON on its hot path."""
        return self._reader.readline()

    def send_line(self, data: bytes) -> None:
        """Send raw bytes, a whole line, to the parent (no lock: one sender at a time)."""
        self._writer.write(data)
        self._writer.flush()

    def send(self, message: dict[str, Any]) -> None:
        """Send one message to the parent."""
        data = json.dumps(message).encode() + b"\n"
        with self._lock:
            self._writer.write(data)
            self._writer.flush()


#: Linux's prctl option that makes a process's memory, files and pipes in /proc its owner's
#: only with privilege (and keeps debuggers out)
_PR_SET_DUMPABLE = 4


def not_dumpable() -> None:
    """Make this process (a referee: `pacman grade`, a grading worker, any process that plays
    with hosts) not dumpable on Linux: no process of the same user without privilege can open
    its `/proc/PID/fd`, `mem` or `environ`, or attach a debugger. Nothing elsewhere."""
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def child_setup() -> Channel:
    """Call first thing in a child: cap memory, take the channel off stdout, send stdout and
    stderr to the capture pipe, and exit if the parent dies. The child is not dumpable
    (`not_dumpable`)."""
    not_dumpable()
    writer = os.fdopen(os.dup(1), "wb", buffering=0)
    reader = os.fdopen(os.dup(0), "rb")
    os.dup2(2, 1)  # stdout now goes where stderr goes: the parent's capture pipe
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # agent code reading input gets end-of-file, not the channel
    os.close(devnull)
    sys.stdout = os.fdopen(1, "w", buffering=1, encoding="utf-8", errors="replace",
                           closefd=False)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the child
    memory = os.environ.get(_MEMORY_ENV)
    if memory:
        try:
            import resource

            limit = int(memory) * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ImportError, ValueError, OSError):  # pragma: no cover - not on this platform
            pass
    parent = int(os.environ.get(_PARENT_ENV, "0") or 0)
    lifeline = int(os.environ.get(_LIFELINE_ENV, "-1") or -1)
    if lifeline >= 0:
        # process 1 of its own PID namespace: it leaves the process group it shares with the
        # sandbox's launcher outside, so no signal it sends to its group (`kill(getppid())`,
        # whose pid reads 0, `killpg(0)`) can reach that process and end this one late, a
        # move or more after it answered: it is alone in its group, and process 1 ignores
        # the signals it sends itself
        if os.getpid() == 1:
            with contextlib.suppress(OSError):
                os.setpgid(0, 0)
        threading.Thread(target=_follow_lifeline, args=(lifeline,), daemon=True).start()
    elif parent:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    from pacman.interrupts import mark_user_interrupts

    mark_user_interrupts()  # so a KeyboardInterrupt here is always the agent's own
    channel = Channel(reader, writer)
    forking: list[int] = [0]  # the pid of the process that forks, noted just before

    def forked() -> None:
        channel.mute()
        die_with_parent(forking[0])

    os.register_at_fork(before=lambda: forking.__setitem__(0, os.getpid()),
                        after_in_child=forked)
    return channel


_hard_exit = os._exit  # kept: agent code may find os._exit replaced while it runs


class _Muted:
    """A forked copy's channel: any use ends the copy, quietly (nothing of it is flushed)."""

    def __getattr__(self, name: str) -> Any:
        _hard_exit(70)


#: Linux's prctl option that asks for a signal when the parent (thread) ends
_PR_SET_PDEATHSIG = 1


@functools.lru_cache(maxsize=1)
def _prctl() -> Callable[..., int] | None:
    """The C library's `prctl` (Linux), or None elsewhere. Looked up before any fork: a
    forked child must not load libraries."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        function: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (AttributeError, OSError):
        return None
    return function


def die_with_parent(parent: int) -> bool:
    """Ask the kernel to SIGKILL this process when the thread that forked it ends (Linux's
    `PR_SET_PDEATHSIG`), and exit at once if `parent` is already gone (re-parented before the
    request took). True if the kernel took the request.

    The signal comes when the forking *thread* ends, not its process: ask for it only in a
    process forked by a thread that lives as long as its process (the main thread)."""
    prctl = _prctl()
    if prctl is None or prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
        return False
    if os.getppid() != parent:
        _hard_exit(70)
    return True


def _death_pact() -> Callable[[], object] | None:
    """What a child runs between its fork and its exec so that it dies with this process:
    `die_with_parent` (inherited through the exec; with `private`, by the sandbox's launcher,
    which takes its own child down with it). None where it cannot hold: not Linux, or this
    thread is not the main one (the signal would come when this thread ends, and a host kept
    idle for the next game would die with the thread that started it)."""
    if _prctl() is None or threading.current_thread() is not threading.main_thread():
        return None
    parent = os.getpid()
    return functools.partial(die_with_parent, parent)


def _follow_lifeline(fd: int) -> None:
    """End this process when the parent's end of the pipe closes (the parent is gone), or if
    the pipe is taken away."""
    try:
        while os.read(fd, 1):
            pass
    except OSError:
        pass
    _hard_exit(70)


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            _hard_exit(70)


#: per thread that plays with hosts: the CPU it shares with them, and the CPUs it had before
_SHARED: dict[int, tuple[int, set[int]]] = {}


@functools.lru_cache(maxsize=1)
def _cpu_getter() -> Callable[[], int] | None:
    """The C library's `sched_getcpu` (the CPU this thread runs on), or None without one."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        import ctypes

        getter: Callable[[], int] = ctypes.CDLL(None, use_errno=True).sched_getcpu
    except (AttributeError, OSError):
        return None
    return getter


def share_cpu() -> int | None:
    """The CPU this thread runs on, which it keeps for the game (until `unshare_cpu`) and
    shares with the game's hosts, when no more processes are running than there are CPUs (this
    one included: a CPU for each); None when more are (or no affinity calls on this system).

    The referee and its hosts take turns, never running at once, so one CPU serves them all;
    and on a virtual machine, waking a process that waits on an idle CPU costs tens of
    microseconds, twice a move (measured here: a round trip of two Python processes takes
    about 55 us across CPUs, 7 us on one). When every CPU is busy the scheduler keeps a host
    and its referee together by itself, and a pinned pair could no longer move away from
    another process: so no CPU is shared then (measured: a batch of two workers on two CPUs
    beside another busy process, 1.2x the time of the same batch without hosts unpinned, 1.7x
    pinned). The count is read before a new host starts (its start-up would count). Measured
    with `scripts/bench.py --only host` on 2 CPUs: 182-218 us a move of overhead when the
    check wanted an idle CPU besides this one (half the games were not pinned), 96-101 us
    with it. Between games the thread has all its CPUs back."""
    thread = threading.get_ident()
    shared = _SHARED.get(thread)
    if shared is not None:  # another host of this game, or one never released
        return shared[0]
    getter = _cpu_getter()
    if getter is None:
        return None
    try:
        before = os.sched_getaffinity(0)
        with open("/proc/loadavg", "rb") as loadavg:  # `1.02 0.97 0.90 2/180 4242`
            running = int(loadavg.read().split()[3].partition(b"/")[0])
        cpu = getter()
        if not 1 <= running <= len(before) or cpu not in before:
            return None
        os.sched_setaffinity(0, {cpu})
    except (OSError, ValueError, IndexError):  # not allowed here, or no such file
        return None
    _SHARED[thread] = (cpu, before)
    return cpu


def unshare_cpu() -> None:
    """Give this thread its CPUs back (the game's first host to be released does)."""
    shared = _SHARED.pop(threading.get_ident(), None)
    if shared is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, shared[1])


_CPUS: dict[str, Any] = {}  # "start": the CPUs this host started with; "now": its CPU


def follow_cpu(cpu: Any) -> None:
    """Run on the referee's CPU for the game (`share_cpu`: the two take turns), or
    on the CPUs this host started with when the referee shares none."""
    wanted = cpu if type(cpu) is int else None  # None: the CPUs it started with
    if wanted == _CPUS.get("now"):
        return
    try:
        start = _CPUS.setdefault("start", os.sched_getaffinity(0))
        os.sched_setaffinity(0, start if wanted is None else {wanted})
        _CPUS["now"] = wanted
    except (AttributeError, OSError, ValueError):  # not Linux, or a CPU this host may not use
        pass


def private_processes() -> bool:
    """Whether `Child(..., private=True)` gets a sandbox of its own on this machine."""
    from pacman.hosting import sandbox

    return sandbox.available()
