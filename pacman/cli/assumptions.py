"""`pacman assumptions`: the lecture's "Assumptions vs. Reality" table, played or resumed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pacman.cli.options import positive_int
from pacman.errors import UsageError

if TYPE_CHECKING:
    from pacman.cli.options import Commands
    from pacman.experiments.headline import LayoutTable

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
    assumptions.add_argument("--details", action="store_true",
                             help="print every layout's table and every matchup's figures "
                                  "(without it: the first layout's table and a verdict per "
                                  "layout)")
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
    elif args.details:
        print(experiments.format_report(tables, args.evaluation.strip(), extra))
    else:
        print(_first_table(tables, args, experiments))
    print()
    print(f"{result.stored} games played now, {result.already} were already in {result.path}"
          + (f" ({result.elapsed:.1f}s)" if result.stored else "") + ".")
    print()
    for line in verdict_lines(tables):
        print(line)
    if experiments.failing_layouts(tables) and args.games < FEW_GAMES:
        print(f"With {args.games} game{'s' if args.games != 1 else ''} per cell one game moves "
              f"a win rate by {1 / args.games:.0%}: the check is meant for --games 100.")
    if not args.details and not args.symmetries:
        print(f"Every layout's table and figures: the same command with --details (the games "
              f"are stored in {result.path}: it prints at once).")
    return 0


#: the lecture's pattern, in plain words
PATTERN = ("Minimax Pacman wins against both ghosts; Expectimax Pacman wins against the "
           "random ghost, and faster, but loses to the adversarial one.")


def _first_table(tables: Sequence[LayoutTable], args: argparse.Namespace, experiments: Any,
                 ) -> str:
    """The run in one sentence and the first layout's table."""
    games = max((cell.games for table in tables for cell in table.cells), default=0)
    groups = experiments.families(tables)
    images = len(tables) - len(groups)
    first = tables[0]
    ghosts = f"{first.ghosts} ghost{'s' if first.ghosts != 1 else ''}"
    return (f"Assumptions vs. Reality: Minimax and Expectimax Pacman (depth "
            f"{experiments.DEPTH}, the {args.evaluation.strip()} evaluation) against an "
            f"adversarial and a random ghost, {games} games per cell on {len(groups)} "
            f"layout{'s' if len(groups) != 1 else ''}"
            + (f" and {images} turned and mirrored images" if images else "") + ".\n\n"
            f"Layout {first.layout} ({ghosts}):\n\n" + "\n".join(
                line for line in experiments.format_table(first.cells).split("\n")
                if line.startswith("|")))


def verdict_lines(tables: Sequence[LayoutTable]) -> list[str]:
    """The lecture's pattern in plain words, then one line per layout (its turned and mirrored
    images with it): whether the pattern holds there, and if not, the first reason why."""
    from pacman.experiments import headline as experiments

    lines = [f"The lecture's pattern: {PATTERN}"]
    for name, group in experiments.families(tables).items():
        failed = [table for table in group if table.failures()]
        images = f" and its {len(group) - 1} images" if len(group) > 1 else ""
        if not failed:
            lines.append(f"- {name}{images}: holds")
            continue
        where = (f" on {len(failed)} of its {len(group)} images (first {failed[0].layout})"
                 if len(group) > 1 else "")
        lines.append(f"- {name}: does not hold{where}: {failed[0].failures()[0]}")
    return lines
