"""Grading speed: one correct CS188 submission on the shipped q1-q5 suite, and a class of 30.

    python scripts/bench_grade.py [--repeat 3] [--jobs 2] [--skip-class]

Each figure is the wall time of a whole `pacman grade` process (start-up included), as a user
sees it: the best and the median of `--repeat` runs. The class is the 30 submissions of
tests/cs188/classroom.py (correct ones, buggy ones, and every kind of misbehaving code, with
5 s per test and 10 s per question as limits). The hostile class is the same 30 with 8 of the
correct students replaced by cheaters of tests/cs188/cheaters.py (kills of the parent, the
group, every process and the ancestors, an exit, a fork that kills, a patched grader, a reader
of the solutions), graded with a teacher's `--test-timeout 15 --question-timeout 60`; the
stalled class is the same 30 with 8 students stuck in endless loops, sleeps, signal-deaf loops
and busy threads (tests/cs188/stalls.py), under the same limits.
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

from cheaters import cheaters  # noqa: E402
from classroom import CORRECT, SUITE, build_class  # noqa: E402
from stalls import stalled  # noqa: E402

#: the stalls that replace eight correct students in the stalled class (tests/cs188/stalls.py)
STALLED = (("loop", "ReflexAgent.getAction"), ("loop", "ExpectimaxAgent.getAction"),
           ("sleep", "MinimaxAgent.getAction"), ("deaf_loop", "AlphaBetaAgent.getAction"),
           ("busy_threads", "betterEvaluationFunction"), ("loop", "import"),
           ("sleep", "registerInitialState"), ("deaf_loop", "evaluationFunction"))
#: the cheaters that replace eight correct students in the hostile class
HOSTILE = ("kills_parent_at_import", "kills_group_at_import", "kills_everyone_at_import",
           "kills_ancestors_in_get_action", "exits_in_get_action", "forks_in_get_action",
           "patches_the_grader", "reads_the_solutions")


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
        code = cheaters(SUITE)
        for number, name in enumerate(HOSTILE, start=1):
            (folder / f"student{number:02d}" / "multiAgents.py").write_text(code[name],
                                                                           encoding="utf-8")
        limits = ["--test-timeout", "15", "--question-timeout", "60"]
        times = [timed(["grade", str(SUITE), "--submissions", str(folder), "-j",
                        str(args.jobs), *limits,
                        "-o", str(Path(scratch) / f"hostile{i}")]) for i in range(args.repeat)]
        report(f"30 with 8 hostile, -j {args.jobs}, {' '.join(limits)}", times)
        for number, (kind, place) in enumerate(STALLED, start=1):
            (folder / f"student{number:02d}" / "multiAgents.py").write_text(
                stalled(kind, place), encoding="utf-8")
        times = [timed(["grade", str(SUITE), "--submissions", str(folder), "-j",
                        str(args.jobs), *limits,
                        "-o", str(Path(scratch) / f"stalled{i}")]) for i in range(args.repeat)]
        report(f"30 with 8 stalled, -j {args.jobs}, {' '.join(limits)}", times)


if __name__ == "__main__":
    main()
