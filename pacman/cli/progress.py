"""How a running batch shows its progress: a tqdm bar in a terminal, one line now and then in a log.

Both go to stderr, so the results printed on stdout stay clean. `--progress-every SECONDS` sets
how often the log lines come (`0`: none).
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from tqdm import tqdm

    from pacman.experiments.runner import Progress

LOG_EVERY = 30.0  # seconds between two progress lines when stderr is not a terminal


class BatchProgress:
    """A progress callback for `run_batch`, used as a context manager.

    In a terminal it draws a tqdm bar (games of this run, rate, time left); elsewhere (a log
    file, a pipe, a CI job) it prints `pacman: 37/200 games (18%) ...` every `every` seconds
    (the first after `every` seconds: a short batch prints none; its summary says it all).
    """

    def __init__(self, every: float = LOG_EVERY, stream: IO[str] | None = None,
                 terminal: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = self.stream.isatty() if terminal is None else terminal
        self.every = every
        self._bar: tqdm | None = None  # the bar, once drawn (tqdm has no type hints)
        self._last_line = time.monotonic()

    def __call__(self, progress: Progress) -> None:
        if self.terminal:
            self._draw(progress)
        elif self.every > 0 and time.monotonic() - self._last_line >= self.every:
            self._log(progress)

    def _draw(self, progress: Progress) -> None:
        # (the runner reports at most once a game or a second: every report is drawn)
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(total=progress.total, unit="game", file=self.stream,
                             dynamic_ncols=True, leave=False, desc="pacman", mininterval=0,
                             postfix=f"{progress.already} stored before" if progress.already
                             else None)
        self._bar.update(progress.done - self._bar.n)

    def _log(self, progress: Progress) -> None:
        from pacman.experiments.runner import format_progress

        self._last_line = time.monotonic()
        before = f", {progress.already} stored before" if progress.already else ""
        print(f"pacman: {format_progress(progress)}{before}", file=self.stream, flush=True)

    def __enter__(self) -> BatchProgress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.close()  # the bar goes; what the batch did is printed next
