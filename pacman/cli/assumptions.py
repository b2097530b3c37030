"""`pacman assumptions`: the lecture's "Assumptions vs. Reality" table, played or resumed."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from pacman.cli.options import positive_int
from pacman.errors import UsageError

if TYPE_CHECKING:
    from pacman.cli.options import Commands

#: `pacman.experiments.headline.LAYOUTS`, `MIRRORED`, `EVALUATION` and `PACMAN_SETTINGS`, for
#: the help text.
FAMILY = ("assumptions", "assumptions-chase", "assumptions-grid", "assumptions-two",
          "assumptions-capsules", "assumptions-big", "assumptions-side", "assumptions-corridor",
          "assumptions-pockets")
MIRRORED = ("assumptions", "assumptions-chase")
DEFAULT_EVALUATION = "stakes"
DEFAULT_SETTINGS = "repetition=5,tie_break=random"
#: Below this many games per cell, a failed check comes with a note on what one game weighs.
FEW_GAMES = 20


def add_parser(commands: Commands) -> None:
    """The `assumptions` subcommand (its defaults are named here without importing the
    experiment, which would slow every command down; a test keeps them in step)."""
    assumptions = commands.add_parser(
        "assumptions", help="the lecture's 'Assumptions vs. Reality' table, reproduced")
    assumptions.add_argument("--games", type=positive_int, default=20,
                             help="games per cell (default 20; the lecture played 5; 100 for "
                                  "the full run)")
    assumptions.add_argument("-l", "--layout", action="append", metavar="NAME",
                             help="a layout to play on (a name or a .lay file); repeat it for "
                                  "several (default: the family " + ", ".join(FAMILY)
                                  + ", and " + " and ".join(MIRRORED) + " also turned and "
                                  "mirrored)")
    assumptions.add_argument("-e", "--evaluation", default=DEFAULT_EVALUATION, metavar="SPEC",
                             help="the evaluation of both Pacmen: a name, a weighted sum such "
                                  f"as score:1,food:-1,ghost:4 or module:function (default "
                                  f"{DEFAULT_EVALUATION})")
    assumptions.add_argument("--seed", type=int, default=0, help="batch seed (default 0)")
    assumptions.add_argument("-j", "--jobs", type=positive_int, default=None,
                             help="worker processes (default: all cores)")
    assumptions.add_argument("-o", "--out", default="results/assumptions.db",
                             help="results file; games already there are not played again "
                                  "(default results/assumptions.db)")
    assumptions.add_argument("--max-moves", type=positive_int, default=300,
                             help="move cap per game (default 300)")
    assumptions.add_argument("-a", "--settings", default=None, metavar="K=V,...",
                             help="settings of both Pacmen over the experiment's "
                                  f"{DEFAULT_SETTINGS}, e.g. tie_break=first,repetition=0 "
                                  "for the classic searches (depth and evaluation stay the "
                                  "experiment's)")
    assumptions.add_argument("--symmetries", action="store_true",
                             help="play every layout under the eight symmetries of the grid "
                                  "(NAME, NAME@rot90, ..., NAME@flip-rot270: the same maze "
                                  "turned and mirrored) and show, per layout, on how many the "
                                  "pattern holds and the weakest one")


def run(args: argparse.Namespace) -> int:
    """`pacman assumptions`: play (or resume) the headline experiment and print its tables."""
    from pacman.cli.options import parse_settings
    from pacman.cli.progress import BatchProgress
    from pacman.experiments import BatchInterrupted
    from pacman.experiments import headline as experiments

    layouts = args.layout or (list(experiments.LAYOUTS) if args.symmetries
                              else experiments.default_layouts())
    extra = parse_settings(args.settings)
    if {"depth", "evaluation"} & set(extra):
        raise UsageError("-a: depth and evaluation are the experiment's (use -e for the "
                         "evaluation)")
    if args.symmetries:
        layouts = [image for name in layouts for image in experiments.images(name)]
    if not args.evaluation.strip():
        raise UsageError("--evaluation needs a name, a weighted sum or module:function")
    try:
        with BatchProgress() as progress:
            tables, result = experiments.run(args.games, layouts=layouts,
                                             evaluation=args.evaluation.strip(),
                                             store=args.out, seed=args.seed, jobs=args.jobs,
                                             max_moves=args.max_moves, on_progress=progress,
                                             settings=extra)
    except BatchInterrupted as stop:
        done = stop.result.already + stop.result.stored
        print(f"pacman: interrupted: {done} of {stop.result.planned} games are stored in "
              f"{args.out}; run the same command again to resume", file=sys.stderr)
        return 130
    if args.symmetries:  # a line per layout, and the tables of the images that fail
        print(experiments.format_symmetries(tables, args.evaluation.strip(), extra))
    else:
        print(experiments.format_report(tables, args.evaluation.strip(), extra))
    print()
    print(f"{result.stored} games played now, {result.already} were already in {result.path}"
          + (f" ({result.elapsed:.1f}s)" if result.stored else "") + ".")
    failing = experiments.failing_layouts(tables)
    if failing:
        print("The lecture's pattern does not hold on "
              + ", ".join(table.layout for table in failing) + " (see each layout above).")
        if args.games < FEW_GAMES:
            print(f"With {args.games} game{'s' if args.games != 1 else ''} per cell one game "
                  f"moves a win rate by {1 / args.games:.0%}: the check is meant for "
                  "--games 100.")
    else:
        mirrored = sorted({experiments.family(table) for table in tables
                           if "@" in table.layout})
        where = ("on every layout and every mirror image of it" if args.symmetries else
                 f"on every layout, and on every mirror image of {' and '.join(mirrored)}"
                 if mirrored else
                 "on every layout" if len(tables) > 1 else f"on {tables[0].layout}")
        print(f"The lecture's pattern holds {where}: Minimax wins against both ghosts; "
              "Expectimax wins against the random ghost, and faster, but loses to the "
              "adversarial one.")
    return 0
