"""Plots of a results store: win rate with 95% intervals, and score distributions (PNG).

Needs the optional extra `plots` (matplotlib); drawn with the Agg backend, no window.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pacman.errors import MissingExtra, PlotError
from pacman.experiments.config import StoredGame
from pacman.experiments.table import (
    STANDARD_COLUMNS,
    TableRow,
    constant_columns,
    group_games,
    summarize,
)

WIN_RATE_FILE = "win_rate.png"
SCORES_FILE = "scores.png"

#: the characters of a title line at 11 points on a 9-inch-wide figure, of a row's label and of
#: the axis label (a longer one is wrapped)
TITLE_CHARACTERS, ROW_CHARACTERS, LABEL_CHARACTERS = 95, 56, 40


def _wrapped(labels: Sequence[str]) -> list[str]:
    """Row labels wrapped onto lines of `ROW_CHARACTERS`, so the bars keep their room."""
    return ["\n".join(textwrap.wrap(label, width=ROW_CHARACTERS)) or label for label in labels]


def _pyplot() -> Any:
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError as error:
        raise MissingExtra("plots need matplotlib", "plots", error.name) from None
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def plot_results(games: Sequence[StoredGame], out_dir: str | Path,
                 by: Sequence[str] = STANDARD_COLUMNS) -> list[Path]:
    """Write `win_rate.png` and `scores.png` for the groups of `by`; return their paths.

    Columns with one value across all groups are left out of the labels and named in the
    title instead.
    """
    if not games:
        raise PlotError("no games to plot")
    plt = _pyplot()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = summarize(games, by)
    constant = set(constant_columns(rows)) if len(by) > 1 else set()
    labels = [_label(row, constant) for row in rows]
    common = ", ".join(f"{column} {value}" for column, value in rows[0].group
                       if column in constant)
    scores = [[g.score for g in members if g.complete and g.score is not None]
              for _, members in group_games(games, by)]
    return [_win_rate(plt, rows, labels, common, out / WIN_RATE_FILE),
            _scores(plt, scores, labels, common, out / SCORES_FILE)]


def _label(row: TableRow, constant: set[str]) -> str:
    parts = [str(value) if column in ("agent", "ghost", "evaluation", "layout")
             else f"{column}={value}" for column, value in row.group
             if column not in constant and value is not None]
    return " ".join(parts) or "all games"


def _height(groups: int) -> float:
    return 1.6 + 0.45 * groups


def _win_rate(plt: Any, rows: Sequence[TableRow], labels: Sequence[str], common: str,
              path: Path) -> Path:
    figure, axes = plt.subplots(figsize=(9, _height(len(rows))), layout="constrained")
    positions = list(range(len(rows)))[::-1]  # first group on top
    rates = [row.win_rate for row in rows]
    errors = [[row.win_rate - row.win_low for row in rows],
              [row.win_high - row.win_rate for row in rows]]
    axes.barh(positions, rates, xerr=errors, color="#4c72b0", height=0.6,
              error_kw={"ecolor": "#222222", "capsize": 4, "linewidth": 1.2})
    axes.set_yticks(positions, _wrapped(labels))
    axes.set_xlim(0, 1)
    return _finish(plt, figure, axes, [f"{row.wins}/{row.games}" for row in rows],
                   "win rate (error bars: 95% Wilson interval)", "Win rate", common, path)


def _finish(plt: Any, figure: Any, axes: Any, counts: Sequence[str], xlabel: str, title: str,
            common: str, path: Path) -> Path:
    """What both plots end with: the rows' counts on the right, the labels, the file."""
    axes.set_ylim(-0.7, len(counts) - 0.3)
    _label_right(axes, list(range(len(counts)))[::-1], counts)
    axes.grid(axis="x", alpha=0.3)
    # over the whole figure, wrapped to its width: a title over the axes alone (which the long
    # row labels push to the right) was cut off, as was a long axis label
    text = title + (f" — {common}" if common else "")
    figure.suptitle("\n".join(textwrap.wrap(text, width=TITLE_CHARACTERS)) or text,
                    fontsize=11)
    axes.set_xlabel("\n".join(textwrap.wrap(xlabel, width=LABEL_CHARACTERS)) or xlabel)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def _label_right(axes: Any, positions: Sequence[int], labels: Sequence[str]) -> None:
    """Counts beside each row on the right-hand axis, clear of bars and error bars."""
    counts = axes.twinx()
    counts.set_ylim(axes.get_ylim())
    counts.set_yticks(positions, labels)
    counts.tick_params(axis="y", length=0, labelsize=9)


def _scores(plt: Any, scores: Sequence[Sequence[int]], labels: Sequence[str], common: str,
            path: Path) -> Path:
    figure, axes = plt.subplots(figsize=(9, _height(len(scores))), layout="constrained")
    positions = list(range(len(scores)))[::-1]
    drawn = [(list(values), y) for values, y in zip(scores, positions) if values]
    if drawn:
        version = tuple(int(part) for part in plt.matplotlib.__version__.split(".")[:2])
        # `vert` is deprecated from matplotlib 3.11; `orientation` exists from 3.10
        sideways = {"orientation": "horizontal"} if version >= (3, 10) else {"vert": False}
        axes.boxplot([values for values, _ in drawn], positions=[y for _, y in drawn],
                     **sideways, widths=0.6, patch_artist=True, showmeans=True,
                     boxprops={"facecolor": "#dd8452", "alpha": 0.7},
                     medianprops={"color": "#222222"},
                     meanprops={"marker": "D", "markerfacecolor": "white",
                                "markeredgecolor": "#222222", "markersize": 5},
                     flierprops={"marker": ".", "markersize": 4, "alpha": 0.5})
    axes.set_yticks(positions, _wrapped(labels))
    axes.axvline(0, color="#888888", linewidth=0.8)
    return _finish(plt, figure, axes, [f"n={len(values)}" for values in scores],
                   "final score (box: quartiles, line: median, diamond: mean)", "Scores", common,
                   path)
