"""The `pacman` command: the only place that reads argv and prints.

One module per command (`play`, `layouts`, `grade`, `replay`, `batch`, `table`/`plot`,
`assumptions`), each with `add_parser(commands)` and `run(args)`; this module builds the parser and
turns every user mistake into one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from pacman.cli import (
    agents,
    assumptions,
    batch,
    compare,
    demo,
    explain,
    export,
    grade,
    layouts,
    play,
    replay,
    table,
    tournament,
    tune,
)
from pacman.cli.options import Parser, parse_settings
from pacman.errors import PacmanError, UsageError
from pacman.interrupts import mark_user_interrupts

__all__ = ["COMMANDS", "UsageError", "build_parser", "main", "parse_settings"]

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": play.run, "layouts": layouts.run, "grade": grade.run, "replay": replay.run,
    "batch": batch.run, "table": table.run_table, "plot": table.run_plot,
    "assumptions": assumptions.run, "demo": demo.run, "explain": explain.run,
    "export": export.run, "compare": compare.run, "tournament": tournament.run,
    "tune": tune.run, "agents": agents.run,
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    from pacman import __version__

    parser = Parser(prog="pacman", description="The classic Pacman multi-agent environment.")
    parser.add_argument("--version", action="version", version=f"pacman {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=Parser)
    for module in (play, layouts, agents, grade, explain, replay, batch, compare, tournament, tune,
                   table, export, assumptions, demo):
        module.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `pacman` console script."""
    mark_user_interrupts()
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv.insert(0, "play")  # the classic `python pacman.py -p ... -l ...` habit
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
        return COMMANDS[args.command](args)
    except PacmanError as error:  # every user-facing error: one line, exit 2
        print(f"pacman: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pacman: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
