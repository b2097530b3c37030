"""`pacman store check` and `pacman store recover`: is a results file intact, and its intact
games copied into a new file when it is not."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from pacman.errors import UsageError

if TYPE_CHECKING:
    from pacman.cli.options import Commands


def add_parser(commands: Commands) -> None:
    """The `store` subcommand and its `check` and `recover` actions."""
    store = commands.add_parser(
        "store", help="check a results file, or recover its intact games into a new one")
    actions = store.add_subparsers(dest="action", metavar="ACTION",
                                   parser_class=type(store))
    check = actions.add_parser(
        "check", help="SQLite's integrity check and every game row: exit 0 intact, 1 damaged")
    check.add_argument("results", metavar="RESULTS.db", help="a file written by pacman batch")
    recover = actions.add_parser(
        "recover", help="copy every intact, valid game into a new results file")
    recover.add_argument("results", metavar="RESULTS.db", help="the damaged results file")
    recover.add_argument("-o", "--out", required=True, metavar="NEW.db",
                         help="the new results file (must not exist yet, or be empty)")


def run(args: argparse.Namespace) -> int:
    """`pacman store check|recover`."""
    if args.action == "check":
        return _check(args.results)
    if args.action == "recover":
        return _recover(args.results, args.out)
    raise UsageError("pacman store needs an action: check or recover")


def _check(path: str) -> int:
    from pacman.experiments.store import check_store

    found = check_store(path)
    if found.intact:
        print(f"{path}: intact (integrity check: ok; {found.rows} games, all valid)")
        return 0
    print(f"{path}: damaged ({found.problem_count} problem"
          f"{'s' if found.problem_count > 1 else ''}; integrity check: {found.integrity})")
    for problem in found.problems:
        print(f"  {problem}")
    if found.problem_count > len(found.problems):
        print(f"  ... and {found.problem_count - len(found.problems)} more problems")
    print(f"games: {found.rows} rows read, {found.valid} intact and valid")
    print(f"to copy the intact games into a new file: pacman store recover {path} -o NEW.db")
    return 1


def _recover(path: str, out: str) -> int:
    from pacman.experiments.store import recover_store

    done = recover_store(path, out)
    print(f"{done.copied} games copied from {path} into {out}; {done.skipped_count} left out"
          + (":" if done.skipped else ""))
    for problem in done.skipped:
        print(f"  {problem}")
    if done.skipped_count > len(done.skipped):
        print(f"  ... and {done.skipped_count - len(done.skipped)} more")
    print(f"see: pacman table {out}")
    return 0
