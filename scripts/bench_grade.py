"""Grading speed: one correct CS188 submission on the shipped q1-q5 suite, and a class of 30.

    python scripts/bench_grade.py [--repeat 3] [--jobs 2] [--skip-class]

Each figure is the wall time of a whole `pacman grade` process (start-up included), as a user
sees it: the best and the median of `--repeat` runs. The class is the 30 submissions of
tests/cs188/classroom.py (correct ones, buggy ones, and every kind of misbehaving code, with
5 s per test and 10 s per question as limits).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "cs188"))

from classroom import CORRECT, SUITE, build_class  # noqa: E402


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pacman", *argv], capture_output=True,
                          text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"pacman {' '.join(argv)} failed:\n{done.stdout}\n{done.stderr}")
    return seconds


def report(name: str, times: list[float]) -> None:
    print(f"{name:<52} best {min(times):6.2f} s   median {statistics.median(times):6.2f} s"
          f"   ({len(times)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-class", action="store_true")
    args = parser.parse_args()
    one = ["grade", str(SUITE), "--agents", str(CORRECT)]
    report("one submission, q1-q5, isolated (default)",
           [timed(one) for _ in range(args.repeat)])
    report("one submission, q1-q5, --in-process",
           [timed([*one, "--in-process"]) for _ in range(args.repeat)])
    if args.skip_class:
        return
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "class"
        build_class(folder)
        times = [timed(["grade", str(SUITE), "--submissions", str(folder), "-j",
                        str(args.jobs), "--test-timeout", "5", "--question-timeout", "10",
                        "-o", str(Path(scratch) / f"out{i}")]) for i in range(args.repeat)]
        report(f"a class of 30 submissions, -j {args.jobs}", times)


if __name__ == "__main__":
    main()
