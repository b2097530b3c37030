"""A batch's progress: a tqdm bar in a terminal, a line now and then in a log, nothing on stdout."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from pacman.cli import progress as progress_module
from pacman.cli.progress import BatchProgress
from pacman.experiments.runner import Progress

ROOT = Path(__file__).resolve().parents[2]
BATCH = [sys.executable, "-m", "pacman", "batch", "-p", "alphabeta@depth=2", "-l", "smallClassic",
         "-n", "24", "-j", "1", "--max-moves", "200"]


def test_a_log_gets_a_line_every_so_often(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: clock[0])
    stream = io.StringIO()
    with BatchProgress(every=30, stream=stream, terminal=False) as show:
        for now, done in ((101, 1), (129, 10), (131, 11), (150, 20), (162, 25), (170, 30)):
            clock[0] = now
            show(Progress(done, 30, 5, now - 100.0))
    assert stream.getvalue().splitlines() == [
        "pacman: 11/30 games (36%), 0.4 games/s, 0:00:54 left, 5 stored before",
        "pacman: 25/30 games (83%), 0.4 games/s, 0:00:12 left, 5 stored before",
    ]


def test_no_lines_when_asked_for_none() -> None:
    stream = io.StringIO()
    with BatchProgress(every=0, stream=stream, terminal=False) as show:
        show(Progress(1, 2, 0, 1000.0))
    assert stream.getvalue() == ""


def test_a_terminal_gets_a_bar_that_goes_when_the_batch_ends() -> None:
    stream = io.StringIO()
    with BatchProgress(stream=stream, terminal=True) as show:
        show(Progress(0, 8, 0, 0.0))
        show(Progress(3, 8, 0, 1.5))
        drawn = stream.getvalue()
    assert "pacman:" in drawn and "3/8" in drawn and "game/s" in drawn
    assert stream.getvalue().endswith("\r") or stream.getvalue().endswith("\x1b[A")  # cleared


def test_the_batch_logs_progress_to_stderr_only(tmp_path: Path) -> None:
    done = subprocess.run([*BATCH, "-o", str(tmp_path / "r.db"), "--progress-every", "0.2"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines and all(re.fullmatch(r"pacman: \d+/24 games \(\d+%\), [\d.]+ games/s, "
                                      r"(\d+:\d\d:\d\d|--:--) left", line) for line in lines)
    assert done.stdout.startswith("24 games played, 0 already stored")


def test_the_batch_draws_a_bar_in_a_terminal(tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns
    batch = subprocess.Popen([*BATCH, "-o", str(tmp_path / "r.db")], stderr=follower,
                             stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 300)
        if not ready:
            break
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the batch closed its end
            break
        if not chunk:
            break
        seen += chunk
    out, _ = batch.communicate(timeout=60)
    os.close(leader)
    assert batch.returncode == 0
    text = seen.decode(errors="replace")
    assert re.search(r"pacman:\s+\d+%\|.*\| \d+/24 ", text), text[-500:]  # tqdm's bar
    assert out.startswith("24 games played, 0 already stored")
