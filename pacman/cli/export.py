"""`pacman export`: a results file's games as one row each, in CSV, JSON Lines or Parquet."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from pacman.errors import UsageError

if TYPE_CHECKING:
    from pacman.cli.options import Commands


def add_parser(commands: Commands) -> None:
    """The `export` subcommand."""
    export = commands.add_parser(
        "export", help="write a results file's games as CSV, JSON Lines or Parquet",
        description="Write every game of a results file as one row: the configuration (each "
                    "setting its own column, pacman.NAME and ghost.NAME), the seeds, outcome, "
                    "score, moves, time, nodes, fault and code version. The file type follows "
                    "the name: .csv, .jsonl, or .parquet (needs the pandas extra).")
    export.add_argument("results", metavar="RESULTS.db", help="a file written by pacman batch")
    export.add_argument("-o", "--out", required=True, metavar="FILE",
                        help="games.csv, games.jsonl or games.parquet")
    export.add_argument("--code", default="all", metavar="VERSION",
                        help="which code versions' games: all (default), latest (for each "
                             "configuration, its latest version), or a version's first digits")


def run(args: argparse.Namespace) -> int:
    """`pacman export`: write the rows; one line says how many and where."""
    from pacman.experiments.export import write_games
    from pacman.experiments.store import open_results
    from pacman.experiments.table import select_code

    try:
        with open_results(args.results) as store:
            games, _ = select_code(store.games(), args.code.strip() or "all")
        count = write_games(games, args.out)
    except OSError as error:
        raise UsageError(f"cannot write {args.out}: {error.strerror or error}") from None
    print(f"wrote {count} games to {args.out}")
    return 0
