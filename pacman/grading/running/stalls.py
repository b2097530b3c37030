"""Where a student's code was stuck: its own frames, read from its host's stack dump.

A host writes every thread's stack to its output when it gets `STALL_SIGNAL` (its
`faulthandler`, which runs in C even while the code spins in a loop that never yields, sleeps,
or ignores every other signal). `where_stuck` asks for it and reads it back: for each thread,
the innermost frame in the student's own files, with that line of their source, e.g.
`multiAgents.py:244 in getAction: while True:`. It is a report for the student, not a
verdict: nothing in it changes a grade.

The grading worker asks when the referee gives up on a move (the classic per-move limit), and
when the grader's parent asks it to (`SIGUSR1` to the worker, before it kills the worker at a
hard limit): the answer then goes to the parent on the file descriptor it gave the worker
(`STALL_FD_ENV`), one line.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["STALL_FD_ENV", "frames", "where_stuck"]

#: the environment variable that names the worker's end of the pipe to its parent
STALL_FD_ENV = "PACMAN_STALL_FD"
#: how long to wait for a host's dump
WAIT_SECONDS = 2.0
_FRAME = re.compile(r'^\s*File "(.+)", line (\d+) in (\S+)')
_THREAD = re.compile(r"^(Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):")


def frames(dump: str, student_file: Callable[[str], Path | None]) -> list[str]:
    """The innermost student frame of each thread in a `faulthandler` dump, innermost thread
    block first as written (the current thread is marked), as `file:line in function: source`.

    Args:
        dump: the text of the dump (other output around it is ignored).
        student_file: the student's own file for a path in the dump, or None for a path that is
            not the student's (the game, Python's library).
    """
    found: list[str] = []
    in_thread = False
    taken = False
    for line in dump.splitlines():
        if _THREAD.match(line):
            in_thread, taken = True, False
            continue
        match = _FRAME.match(line) if in_thread else None
        if match is None:
            if not line.strip():
                in_thread = False
            continue
        if taken:
            continue
        source = student_file(match.group(1))
        if source is None:
            continue
        taken = True
        number = int(match.group(2))
        text = _line(source, number)
        found.append(f"{source.name}:{number} in {match.group(3)}" + (f": {text}" if text else ""))
    return list(dict.fromkeys(found))


def _line(path: Path, number: int) -> str:
    try:
        with path.open(encoding="utf-8", errors="replace") as source:
            for index, text in enumerate(source, 1):
                if index == number:
                    return text.strip()[:120]
    except OSError:
        pass
    return ""


def where_stuck(pid: int, output: Callable[[], str], student_file: Callable[[str], Path | None],
                wait: float = WAIT_SECONDS) -> str:
    """Ask the host process `pid` for its stacks and read where the student's code is.

    Args:
        pid: the host's process (in a sandbox: its launcher, which passes the signal on).
        output: what the host has printed so far (the dump is appended to it).
        student_file: as for `frames`.
        wait: how long to wait for the dump.

    Returns:
        `stuck at FRAME` (and `; also FRAME` for other threads), or "" when the host wrote no
        dump in time or none of its frames is the student's.
    """
    from pacman.hosting.host import STALL_SIGNAL

    before = output()
    try:
        os.kill(pid, STALL_SIGNAL)
    except OSError:
        return ""
    deadline = time.monotonic() + wait
    dump = ""
    while time.monotonic() < deadline:
        text = output()
        dump = text[len(before):] if text.startswith(before[:200]) else text[-20000:]
        if "most recent call first" in dump:
            time.sleep(0.05)  # the rest of it: written at once, in several pieces
            text = output()
            dump = text[len(before):] if text.startswith(before[:200]) else text[-20000:]
            break
        time.sleep(0.01)
    found = frames(dump, student_file)
    if not found:
        return ""
    return "stuck at " + "; also ".join(found[:3])
