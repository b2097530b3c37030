"""`pacman table` and `pacman plot`: what a results file adds up to, as a table or PNG plots."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pacman.errors import UsageError

if TYPE_CHECKING:
    from pacman.cli.options import Commands
    from pacman.experiments.config import StoredGame
    from pacman.experiments.table import TableRow
    from pacman.specs import Setting

TABLE_COLUMNS = "agent,depth,evaluation,ghost,num_ghosts,layout"


def add_parser(commands: Commands) -> None:
    """The `table` and `plot` subcommands."""
    table = commands.add_parser("table", help="win-rate table of a results file")
    table.add_argument("results", metavar="RESULTS.db", help="a file written by pacman batch")
    table.add_argument("--by", default=None, metavar="COLUMNS",
                       help=f"group by these comma-separated columns (default {TABLE_COLUMNS});"
                            " also: settings, ghost_settings, max_moves, move_timeout, seed, "
                            "version, code, any Pacman setting, ghost.SETTING")
    table.add_argument("--format", choices=("markdown", "csv", "json"), default="markdown")
    table.add_argument("--bounds", action="store_true",
                       help="add each row's best possible win rate (pacman bound): exact "
                            "where the game can be counted, else the chase's upper bound; "
                            "needs layout, ghost and num_ghosts among the columns")
    _code_option(table)

    plot = commands.add_parser("plot", help="win-rate and score plots (PNG) of a results file")
    plot.add_argument("results", metavar="RESULTS.db", help="a file written by pacman batch")
    plot.add_argument("-o", "--out", default=None, metavar="DIR",
                      help="folder for the PNG files (default: plots/ beside the results)")
    plot.add_argument("--by", default=None, metavar="COLUMNS",
                      help=f"group by these columns (default {TABLE_COLUMNS})")
    _code_option(plot)


def _code_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--code", default="latest", metavar="VERSION",
        help="which code versions' games to count: latest (default: for each configuration, "
             "the version of its most recently stored game), all (with a code column when "
             "they differ), or a version's first digits ('unknown': games stored before "
             "versions were kept)")


def _games(args: argparse.Namespace) -> list[StoredGame]:
    """The stored games of the code versions asked for; says on stderr what it left out."""
    from pacman.experiments.store import open_results
    from pacman.experiments.table import select_code

    with open_results(args.results) as store:
        games, left_out = select_code(store.games(), args.code.strip() or "latest")
    if left_out:
        print(f"({left_out} games of other code versions are not counted: --code all counts "
              "them)", file=sys.stderr)
    return games


def _columns(text: str | None, games: Sequence[StoredGame]) -> tuple[list[str], bool]:
    """The --by columns, and whether they were given (else the default, shown compactly)."""
    if text is None:
        from pacman.experiments.table import default_columns

        return default_columns(games), False
    columns = [c.strip() for c in text.split(",") if c.strip()]
    if not columns:
        raise UsageError("--by needs at least one column")
    return columns, True


def run_table(args: argparse.Namespace) -> int:
    """`pacman table`: win rates and averages with 95% intervals, grouped by columns."""
    from pacman.experiments.table import constant_columns, summarize

    games = _games(args)
    by, given = _columns(args.by, games)
    rows = summarize(games, by)
    if not rows:
        print(f"No games in {args.results}.", file=sys.stderr)
        return 0
    bounds = [_bound(row) for row in rows] if args.bounds else None
    each: list[Bound] = bounds or [None] * len(rows)
    if args.format == "json":
        import json

        print(json.dumps([_row_dict(row, bound) for row, bound in zip(rows, each)], indent=2))
    elif args.format == "csv":
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(list(_row_dict(rows[0], each[0])))
        for row, bound in zip(rows, each):
            writer.writerow(["" if v is None else v for v in _row_dict(row, bound).values()])
    else:
        hidden = set() if given else set(constant_columns(rows))
        print(_markdown(rows, hidden, bounds))
    return 0


#: a row's best possible win rate: (the chance, how it is known: exact, at most, about), or
#: None where it cannot be found
Bound = tuple[float, str] | None


def _bound(row: TableRow, cache: dict[tuple[Setting, ...], Bound] = {}) -> Bound:  # noqa: B006
    """The best possible win rate of the row's layout, ghosts and ghost count (`pacman
    bound`), memoised for the rows that share them."""
    from pacman.chase.bound import GHOST_MODELS, ChaseBound, best_possible
    from pacman.errors import PacmanError
    from pacman.layout import load_layout

    group = dict(row.group)
    key = (group.get("layout"), group.get("ghost"), group.get("num_ghosts"),
           group.get("max_moves"))
    if key not in cache:
        name, ghost, ghosts, cap = key
        found: Bound = None
        if isinstance(name, str) and ghost in GHOST_MODELS and isinstance(ghosts, int):
            try:
                best = best_possible(load_layout(name), ghosts, str(ghost),
                                     max_moves=cap if isinstance(cap, int) and cap else 3000)
            except PacmanError:
                best = None
            if isinstance(best, ChaseBound):
                found = (best.chance, "at most" if best.holds else "about")
            elif best is not None:
                found = (best.chance, "exact")
        cache[key] = found
    return cache[key]


def _row_dict(row: TableRow, bound: Bound = None) -> dict[str, Setting]:
    """The row as one flat dict: its group's values, then its numbers (JSON and CSV), then
    its best possible win rate when asked for (`best_possible`, `best_possible_kind`)."""
    import dataclasses

    data = dict(row.group)
    data.update({k: v for k, v in dataclasses.asdict(row).items() if k != "group"})
    if bound is not None:
        data["best_possible"], data["best_possible_kind"] = bound
    return data


def _markdown(rows: Sequence[TableRow], hidden: set[str],
              bounds: Sequence[Bound] | None = None) -> str:
    def number(value: float | None, digits: int = 1) -> str:
        return "–" if value is None else f"{value:,.{digits}f}"

    def interval(low: float | None, high: float | None, digits: int = 1) -> str:
        return "" if low is None or high is None else (
            f" [{number(low, digits)}, {number(high, digits)}]")

    shown = [column for column, _ in rows[0].group if column not in hidden]
    header = [*shown, "games", "wins", "win rate [95% CI]", "avg score [95% CI]", "avg moves",
              "ms/move", "nodes/move", "faults"]
    if bounds is not None:
        header.insert(len(shown) + 3, "best possible")
    lines = []
    if hidden:
        lines.append("All games: " + ", ".join(f"{column} {value}" for column, value
                                                in rows[0].group if column in hidden) + "\n")
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join("---" if i < len(shown) else "---:"
                                for i in range(len(header))) + "|")
    for number_of_row, row in enumerate(rows):
        values = ["–" if value is None else str(value) for column, value in row.group
                  if column not in hidden]
        faults = ", ".join(f"{n} {name}" for name, n in (("crash", row.crashes),
                           ("timeout", row.timeouts), ("capped", row.capped)) if n) or "–"
        values += [str(row.games), str(row.wins),
                   f"{row.win_rate:.2f}{interval(row.win_low, row.win_high, 2)}",
                   number(row.score_mean) + interval(row.score_low, row.score_high),
                   number(row.moves_mean),
                   number(None if row.seconds_per_move is None else 1000 * row.seconds_per_move,
                          2),
                   number(row.nodes_per_move, 0), faults]
        if bounds is not None:
            bound = bounds[number_of_row]
            values.insert(len(shown) + 3, "–" if bound is None else f"{bound[0]:.3f}"
                          if bound[1] == "exact" else f"{bound[1]} {bound[0]:.3f}")
        lines.append("| " + " | ".join(values) + " |")
    lines.append("\nIntervals: Wilson score (win rate), Student t (average score); 95%.")
    if bounds is not None:
        lines.append("Best possible: the highest win rate any Pacman can have (pacman bound): "
                     "exact, or at most the chance of surviving the fewest moves that eat every "
                     "dot (about: the same without the layout's capsules, not a bound).")
    return "\n".join(lines)


def run_plot(args: argparse.Namespace) -> int:
    """`pacman plot`: win rate with 95% intervals and score distributions, as PNG files."""
    from pathlib import Path

    from pacman.experiments.plot import plot_results

    out = Path(args.out) if args.out else Path(args.results).parent / "plots"
    try:
        games = _games(args)
        by, _ = _columns(args.by, games)
        written = plot_results(games, out, by)
    except OSError as error:  # e.g. plots/ beside a results file in a read-only folder
        raise UsageError(f"cannot write the plots to {out}: {error.strerror or error}; "
                         "choose another folder with -o") from None
    for path in written:
        print(f"wrote {path}")
    return 0
