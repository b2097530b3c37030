"""Stored games as flat rows: for CSV, JSON Lines, Parquet files and pandas DataFrames.

One row per game, one column per fact: the configuration (agents and every setting as its own
column, `pacman.depth`, `ghost.prob_attack`, ...), the seeds, the outcome and the measures, and
the versions. CSV and JSON Lines need nothing beyond Python; a DataFrame and Parquet need the
`pandas` extra (pandas and pyarrow).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pacman.errors import ExportError, MissingExtra
from pacman.experiments.config import StoredGame

__all__ = ["FORMATS", "ExportError", "game_rows", "to_dataframe", "write_games"]

FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".parquet": "parquet"}
_FIRST = ["layout", "pacman", "ghost", "num_ghosts", "max_moves", "move_timeout", "paired"]
_LAST = ["base_seed", "index", "seed", "outcome", "complete", "score", "pacman_moves",
         "move_seconds", "nodes", "nodes_moves", "fault", "version", "code"]


def game_rows(games: Sequence[StoredGame]) -> list[dict[str, Any]]:
    """One dict per game, every dict with the same keys in the same order (a setting a game's
    agent does not have is None)."""
    pacman_settings = sorted({name for game in games for name, _ in game.config.pacman.settings})
    ghost_settings = sorted({name for game in games for name, _ in game.config.ghost.settings})
    rows = []
    for game in games:
        config = game.config
        stored = config.to_dict()  # the configuration's columns, by their stored names
        row: dict[str, Any] = {name: stored[name] for name in _FIRST[:6]}
        row["paired"] = config.paired
        mine = config.pacman.settings_dict()
        row.update({f"pacman.{name}": mine.get(name) for name in pacman_settings})
        theirs = config.ghost.settings_dict()
        row.update({f"ghost.{name}": theirs.get(name) for name in ghost_settings})
        row.update({
            "base_seed": game.base_seed, "index": game.index, "seed": game.seed,
            "outcome": game.outcome.value, "complete": game.complete, "score": game.score,
            "pacman_moves": game.pacman_moves, "move_seconds": game.move_seconds,
            "nodes": game.nodes, "nodes_moves": game.nodes_moves, "fault": game.fault,
            "version": game.version, "code": game.code or "unknown"})
        rows.append(row)
    return rows


def to_dataframe(games: Sequence[StoredGame]) -> Any:
    """The games as a pandas DataFrame (one row per game; see `game_rows`)."""
    try:
        import pandas
    except ImportError as error:
        raise MissingExtra("a DataFrame needs pandas", "pandas", error.name) from None
    rows = game_rows(games)
    columns = list(rows[0]) if rows else [*_FIRST, *_LAST]
    return pandas.DataFrame(rows, columns=columns)


def write_games(games: Sequence[StoredGame], path: str | Path) -> int:
    """Write the games to `path` as CSV, JSON Lines or Parquet (by its suffix); the number of
    rows written. ExportError for an unknown suffix or a missing extra; OSError as raised."""
    path = Path(path)
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise ExportError(f"{path}: unknown file type {path.suffix or '(none)'!r}: use "
                          f"{', '.join(FORMATS)}")
    rows = game_rows(games)
    if kind == "parquet":
        frame = to_dataframe(games)
        try:
            frame.to_parquet(path, index=False)
        except ImportError as error:
            raise MissingExtra("Parquet needs pyarrow", "pandas", error.name) from None
        return len(rows)
    with open(path, "w", encoding="utf-8", newline="") as file:
        if kind == "jsonl":
            for row in rows:
                file.write(json.dumps(row) + "\n")
        else:
            writer = csv.DictWriter(file, fieldnames=list(rows[0]) if rows else
                                    [*_FIRST, *_LAST], lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
    return len(rows)
