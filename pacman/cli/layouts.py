"""`pacman layouts`: the shipped layouts with their size, food, capsules and ghosts."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from pacman.layout import list_layouts

if TYPE_CHECKING:
    from pacman.cli.options import Commands


def add_parser(commands: Commands) -> None:
    """The `layouts` subcommand."""
    commands.add_parser("layouts", help="list the shipped layouts")


def run(args: argparse.Namespace) -> int:
    """`pacman layouts`: the shipped layouts with size, food, capsules and ghosts; a file that
    cannot be read is named, and the others are still listed."""
    layouts, broken = list_layouts()
    rows = [("layout", "size", "food", "capsules", "ghosts")]
    for layout in layouts:
        rows.append((layout.name, f"{layout.width}x{layout.height}", str(len(layout.food)),
                     str(len(layout.capsules)), str(len(layout.ghost_starts))))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(row, widths))))
    for path, problem in broken:
        print(f"pacman: note: {path.name} is not listed: {problem}", file=sys.stderr)
    return 0
