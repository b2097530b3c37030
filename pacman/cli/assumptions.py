"""`pacman assumptions`: the lecture's "Assumptions vs. Reality" table, played or resumed."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pacman.cli.options import UsageError, positive_int


def add_parser(commands: Any) -> None:
    """The `assumptions` subcommand."""
    assumptions = commands.add_parser(
        "assumptions", help="the lecture's 'Assumptions vs. Reality' table, reproduced")
    assumptions.add_argument("--games", type=positive_int, default=5,
                             help="games per cell (default 5, as in the lecture; 100 for the "
                                  "full run)")
    assumptions.add_argument("--seed", type=int, default=0, help="batch seed (default 0)")
    assumptions.add_argument("-j", "--jobs", type=positive_int, default=None,
                             help="worker processes (default: all cores)")
    assumptions.add_argument("-o", "--out", default="results/assumptions.db",
                             help="results file; games already there are not played again "
                                  "(default results/assumptions.db)")
    assumptions.add_argument("--max-moves", type=positive_int, default=300,
                             help="move cap per game (default 300)")


def run(args: argparse.Namespace) -> int:
    """`pacman assumptions`: play (or resume) the headline experiment and print its table."""
    from pacman.experiments import BatchError, BatchInterrupted, format_progress
    from pacman.experiments import headline as experiments
    from pacman.experiments.store import StoreError

    show = sys.stderr.isatty()

    def progress(state: Any) -> None:
        if show:
            print(f"\r{format_progress(state)}\033[K", end="", file=sys.stderr, flush=True)

    try:
        cells, result = experiments.run(args.games, store=args.out, seed=args.seed,
                                         jobs=args.jobs, max_moves=args.max_moves,
                                         on_progress=progress)
    except BatchInterrupted as stop:
        done = stop.result.already + stop.result.stored
        print(f"\npacman: interrupted: {done} of {stop.result.planned} games are stored in "
              f"{args.out}; run the same command again to resume", file=sys.stderr)
        return 130
    except (BatchError, StoreError) as error:
        raise UsageError(str(error)) from None
    finally:
        if show:
            print(file=sys.stderr)
    print(experiments.format_table(cells))
    print()
    print(f"{result.stored} games played now, {result.already} were already in {result.path}"
          + (f" ({result.elapsed:.1f}s)" if result.stored else "") + ".")
    failures = experiments.pattern_failures(cells)
    if failures:
        print("The lecture's pattern does not hold here: " + "; ".join(failures) + ".")
    else:
        print("The lecture's pattern holds: Minimax wins against both ghosts; Expectimax "
              "wins against the random ghost, and faster, but loses to the adversarial one.")
    return 0
