"""The headline experiment: the lecture table "Assumptions vs. Reality", reproduced.

Minimax Pacman and Expectimax Pacman, both depth 4 with one evaluation (`stakes` by default),
against an adversarial ghost (`AdversarialGhost`, depth 2, hunting Pacman) and a random ghost,
on every layout of a family (`LAYOUTS`): one table per layout, and the lecture's pattern checked
on each. Minimax rows are computed with alpha-beta (the same decisions, fewer nodes). Agents are
named, not imported: `pacman` never imports `agents` at module level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pacman.experiments.config import GameConfig, StoredGame
from pacman.experiments.grid import ResolvedConfig, resolve_config
from pacman.experiments.runner import BatchResult, ProgressCallback, run_batch
from pacman.experiments.store import ResultStore
from pacman.experiments.table import mean_interval, wilson_interval
from pacman.layout import SYMMETRIES
from pacman.record import Outcome
from pacman.specs import AgentSpec, Setting

#: The family of layouts the table is played on (`pacman/layouts/assumptions*.lay`): a food
#: dot at the bottom of a dead end that is fatal to eat early against a ghost that hunts,
#: other food on loops, and different shapes around that trap.
LAYOUTS = ("assumptions", "assumptions-chase", "assumptions-grid", "assumptions-two",
           "assumptions-capsules", "assumptions-big", "assumptions-side", "assumptions-corridor",
           "assumptions-pockets")
#: The layouts the default run also plays under the seven other symmetries of the grid
#: (`pacman.layout.SYMMETRIES`): turned and mirrored, the same game with its moves listed in
#: another order. `--symmetries` plays every layout's eight images.
MIRRORED = ("assumptions", "assumptions-chase")
#: Won and lost states worth their score (the game's own +/-500), the features of `cautious`.
EVALUATION = "stakes"
DEPTH = 4
GHOST_DEPTH = 2
MAX_MOVES = 300
DEFAULT_GAMES = 20
DEFAULT_STORE = Path("results") / "assumptions.db"
#: Both Pacmen's settings besides depth and evaluation (`-a` changes them). Random tie-breaks,
#: so that no result rests on the order in which moves are listed (it changes when the maze is
#: turned); and `repetition`, so that a Pacman whose every move keeps the ghost at the same
#: distance takes a new way instead of circling until the move cap (see docs/assumptions.md).
PACMAN_SETTINGS: Mapping[str, Setting] = {"tie_break": "random", "repetition": 5}

ROWS = (("Minimax Pacman", "AlphaBetaAgent"), ("Expectimax Pacman", "ExpectimaxAgent"))
COLUMNS = (("Adversarial ghost", AgentSpec.of("AdversarialGhost", {"depth": GHOST_DEPTH})),
           ("Random ghost", AgentSpec.of("RandomGhost")))
#: The lecture's numbers (5 games per cell): (wins, games, average score).
LECTURE = {
    ("Minimax Pacman", "Adversarial ghost"): (5, 5, 483),
    ("Minimax Pacman", "Random ghost"): (5, 5, 493),
    ("Expectimax Pacman", "Adversarial ghost"): (1, 5, -303),
    ("Expectimax Pacman", "Random ghost"): (5, 5, 503),
}


@dataclass(frozen=True)
class Cell:
    """One cell of the table: a Pacman against a ghost, over the games played."""

    row: str
    column: str
    games: int
    wins: int
    win_low: float
    win_high: float
    score_mean: float
    score_interval: tuple[float, float] | None
    won_score_mean: float | None
    moves_mean: float
    outcomes: dict[str, int]
    won_moves_mean: float | None = None

    @property
    def capped(self) -> int:
        """Games that ran to the move cap: neither won nor lost."""
        return self.outcomes.get(Outcome.CAPPED.value, 0)

    @property
    def decided(self) -> int:
        """Games that ended before the move cap (won, lost, or another end)."""
        return self.games - self.capped

    @property
    def win_rate(self) -> float:
        """Wins / decided games (a capped game is neither won nor lost); 0 when none is."""
        return self.wins / self.decided if self.decided else 0.0


@dataclass(frozen=True)
class LayoutTable:
    """The four cells of one layout, with how many ghosts played there."""

    layout: str
    ghosts: int
    cells: tuple[Cell, ...]

    def failures(self) -> list[str]:
        """What of the lecture's pattern does not hold on this layout (see `pattern_failures`)."""
        return pattern_failures(self.cells)


def configs(layout: str = LAYOUTS[0], evaluation: str = EVALUATION,
            max_moves: int = MAX_MOVES, settings: Mapping[str, Setting] | None = None,
            ) -> dict[tuple[str, str], GameConfig]:
    """The four configurations of one layout, by (row, column); every ghost of the layout
    plays, all of the column's kind. `settings` change both Pacmen's `PACMAN_SETTINGS`
    (`tie_break=first`, `repetition=0`) or add to them; `depth` and `evaluation` stay the
    experiment's."""
    pacman = {**PACMAN_SETTINGS, **(settings or {}), "depth": DEPTH, "evaluation": evaluation}
    return {(row, column): GameConfig(
        pacman=AgentSpec.of(agent, pacman), ghost=ghost,
        num_ghosts=None, layout=layout, max_moves=max_moves)
        for row, agent in ROWS for column, ghost in COLUMNS}


def images(layout: str) -> list[str]:
    """The eight images of `layout` under the grid's symmetries, the layout itself first:
    `NAME`, `NAME@rot90`, ..., `NAME@flip-rot270`."""
    return [f"{layout}@{symmetry}" if symmetry else layout for symmetry in SYMMETRIES]


def default_layouts() -> list[str]:
    """What `pacman assumptions` plays by default: every layout of the family, and the seven
    other images of each `MIRRORED` one."""
    return [*LAYOUTS, *(image for layout in MIRRORED for image in images(layout)[1:])]


def run(games: int = DEFAULT_GAMES, *, layouts: Sequence[str] = LAYOUTS,
        evaluation: str = EVALUATION, store: str | Path = DEFAULT_STORE, seed: int = 0,
        jobs: int | None = None, max_moves: int = MAX_MOVES,
        game_time_limit: float | None = 600.0,
        on_progress: ProgressCallback | None = None,
        settings: Mapping[str, Setting] | None = None) -> tuple[list[LayoutTable], BatchResult]:
    """Play what the store lacks of `games` games per cell on every layout (one batch, so the
    workers stay busy); return one table per layout, in the order given, and the batch.

    Raises LayoutError for a layout that cannot be loaded or played, RegistryError for an
    evaluation the agents refuse, BatchError and StoreError as `run_batch` does.
    """
    names = list(dict.fromkeys(layouts))
    resolved: dict[str, dict[tuple[str, str], ResolvedConfig]] = {
        layout: {cell: resolve_config(config)
                 for cell, config in configs(layout, evaluation, max_moves,
                                             settings).items()}
        for layout in names}
    batch = [entry for cells in resolved.values() for entry in cells.values()]
    result = run_batch(batch, games=games, store=store, seed=seed, jobs=jobs,
                       game_time_limit=game_time_limit, on_progress=on_progress)
    with ResultStore(store) as results:
        stored = [game for game in results.games() if game.base_seed == seed
                  and game.index < games]
    return [_layout_table(cells, stored) for cells in resolved.values()], result


def _layout_table(cells: dict[tuple[str, str], ResolvedConfig],
                  stored: Sequence[StoredGame]) -> LayoutTable:
    """One layout's four cells, from the stored games of its configurations."""
    first = next(iter(cells.values()))
    return LayoutTable(first.layout_name, first.config.num_ghosts or 0, tuple(
        summarize_cell(row, column, [game for game in stored if game.config == entry.config
                                     and game.code == entry.code])  # this code's games only
        for (row, column), entry in cells.items()))


def summarize_cell(row: str, column: str, games: Sequence[StoredGame]) -> Cell:
    """Counts, win rate with its Wilson interval, average score with its t interval."""
    wins = sum(game.outcome is Outcome.WIN for game in games)
    capped = sum(game.outcome is Outcome.CAPPED for game in games)
    low, high = wilson_interval(wins, len(games) - capped)
    scores = [float(game.score) for game in games if game.score is not None]
    won = [float(game.score) for game in games
           if game.outcome is Outcome.WIN and game.score is not None]
    interval = mean_interval(scores)
    outcomes: dict[str, int] = {}
    for game in games:
        outcomes[game.outcome.value] = outcomes.get(game.outcome.value, 0) + 1
    moves = [game.pacman_moves for game in games if game.pacman_moves is not None]
    won_moves = [game.pacman_moves for game in games
                 if game.outcome is Outcome.WIN and game.pacman_moves is not None]
    return Cell(row, column, len(games), wins, low, high,
                sum(scores) / len(scores) if scores else 0.0,
                (interval[1], interval[2]) if interval else None,
                sum(won) / len(won) if won else None,
                sum(moves) / len(moves) if moves else 0.0, outcomes,
                sum(won_moves) / len(won_moves) if won_moves else None)


def pattern_failures(cells: Sequence[Cell]) -> list[str]:
    """What of the lecture's pattern does not hold (empty when it all holds).

    Minimax wins >= 90% in both columns, and none of its games runs to the move cap (a game
    that stalls is neither the lecture's win nor its loss); Expectimax against the adversarial
    ghost wins <= 40% with a negative average score, and is caught (a lost game) in more than
    half of its games, so that its losses are the lecture's and not games run to the cap; a
    cell with no game ended is a failure of its own; Expectimax against the random ghost wins
    >= 90%, and faster: its won games take no more moves on average than Minimax's against the
    random ghost. (Moves, not scores: with capsules a score also counts the 200 points of each
    ghost eaten, which says nothing about speed; without them a won game's score is 510 + 10
    per dot - moves.)
    """
    by = {(cell.row, cell.column): cell for cell in cells}
    mm_adv = by["Minimax Pacman", "Adversarial ghost"]
    mm_rnd = by["Minimax Pacman", "Random ghost"]
    ex_adv = by["Expectimax Pacman", "Adversarial ghost"]
    ex_rnd = by["Expectimax Pacman", "Random ghost"]
    failures = []
    for cell in (mm_adv, mm_rnd):  # a game that ran to the cap is neither won nor lost
        if cell.capped:
            failures.append(f"{cell.row} vs {cell.column.lower()}: {cell.capped} of "
                            f"{cell.games} games ran to the move cap")
    for cell in (mm_adv, mm_rnd, ex_rnd):
        if not cell.decided:  # Minimax's capped games are said above
            if cell is ex_rnd:
                failures.append(f"{cell.row} vs {cell.column.lower()}: none of its "
                                f"{cell.games} games ended before the move cap")
        elif cell.win_rate < 0.9:
            failures.append(f"{cell.row} vs {cell.column.lower()} wins {cell.wins}/"
                            f"{cell.decided}, below 90%")
    caught = ex_adv.outcomes.get(Outcome.LOSS.value, 0)
    if 2 * caught <= ex_adv.games:
        failures.append(f"Expectimax vs adversarial ghost is caught in {caught} of its "
                        f"{ex_adv.games} games, not most")
    if ex_adv.win_rate > 0.4:
        failures.append(f"Expectimax vs adversarial ghost wins {ex_adv.wins}/{ex_adv.decided}, "
                        "above 40%")
    if ex_adv.score_mean >= 0:
        failures.append(f"Expectimax vs adversarial ghost averages {ex_adv.score_mean:.1f}, "
                        "not negative")
    if ex_rnd.won_moves_mean is not None and mm_rnd.won_moves_mean is not None and (
            ex_rnd.won_moves_mean > mm_rnd.won_moves_mean):
        failures.append(f"Expectimax's won games vs the random ghost take "
                        f"{ex_rnd.won_moves_mean:.1f} moves on average, more than Minimax's "
                        f"{mm_rnd.won_moves_mean:.1f}")
    return failures


def format_table(cells: Sequence[Cell]) -> str:
    """One layout's table in the lecture's format, then a line per cell with the details."""
    by = {(cell.row, cell.column): cell for cell in cells}
    lines = ["| | " + " | ".join(column for column, _ in COLUMNS) + " |",
             "|---|" + "---|" * len(COLUMNS)]
    for row, _ in ROWS:
        lines.append(f"| {row} | " + " | ".join(_cell_text(by[row, column])
                                               for column, _ in COLUMNS) + " |")
    lines.append("")
    lines += [f"- {cell.row} vs {cell.column.lower()}: win rate {cell.win_rate:.0%} "
              f"[95% {cell.win_low:.0%}-{cell.win_high:.0%}], won games average "
              + (f"{cell.won_score_mean:.1f} in {cell.won_moves_mean:.1f} moves"
                 if cell.won_score_mean is not None and cell.won_moves_mean is not None
                 else "-")
              + f", all games {cell.moves_mean:.1f} moves, "
              + ", ".join(f"{name} {count}" for name, count in sorted(cell.outcomes.items()))
              for cell in cells]
    return "\n".join(lines)


def format_lecture() -> str:
    """The lecture's table (5 games per cell)."""
    lines = ["| | " + " | ".join(column for column, _ in COLUMNS) + " |",
             "|---|" + "---|" * len(COLUMNS)]
    for row, _ in ROWS:
        lines.append(f"| {row} | " + " | ".join(
            "Won {}/{}, Avg. Score: {}".format(*LECTURE[row, column])
            for column, _ in COLUMNS) + " |")
    return "\n".join(lines)


def format_report(tables: Sequence[LayoutTable], evaluation: str = EVALUATION,
                  settings: Mapping[str, Setting] | None = None) -> str:
    """Every layout's table with its pattern verdict, then, for the layouts also played turned
    and mirrored, a line each (as `format_symmetries`), then the lecture's table. A layout's
    other images are not shown in full unless the pattern fails on them."""
    games = max((cell.games for table in tables for cell in table.cells), default=0)
    by_family = families(tables)
    shown = [table for table in tables
             if len(by_family[family(table)]) == 1 or "@" not in table.layout]
    parts = [f"Assumptions vs. Reality: Pacman depth {DEPTH} with the {evaluation} evaluation"
             f"{_settings_text(settings)}, "
             f"AdversarialGhost depth {GHOST_DEPTH}, {games} games per cell, on "
             f"{len(shown)} layout{'s' if len(shown) != 1 else ''}.\n"
             "Minimax rows are computed with alpha-beta (same decisions as minimax, fewer "
             "nodes). 95% intervals in brackets."]
    for table in shown:
        failures = table.failures()
        verdict = ("The lecture's pattern holds here." if not failures else
                   "The lecture's pattern does not hold here: " + "; ".join(failures) + ".")
        ghosts = f"{table.ghosts} ghost{'s' if table.ghosts != 1 else ''}"
        parts.append(f"Layout {table.layout} ({ghosts}):\n\n{format_table(table.cells)}\n\n"
                     f"{verdict}")
    mirrored = [table for table in tables if len(by_family[family(table)]) > 1]
    if mirrored:
        parts.append(_format_images(mirrored, "Turned and mirrored", shown))
    parts.append(f"The lecture (5 games per cell):\n\n{format_lecture()}")
    return "\n\n".join(parts)


def _settings_text(settings: Mapping[str, Setting] | None) -> str:
    chosen = {**PACMAN_SETTINGS, **(settings or {})}
    return "".join(f", {key}={value}" for key, value in sorted(chosen.items()))


def family(table: LayoutTable) -> str:
    """The layout a table's image is of: `assumptions` for `assumptions@rot90`."""
    return table.layout.rpartition("@")[0] or table.layout


def families(tables: Sequence[LayoutTable]) -> dict[str, list[LayoutTable]]:
    """The tables by the layout they are images of, in the order given."""
    grouped: dict[str, list[LayoutTable]] = {}
    for table in tables:
        grouped.setdefault(family(table), []).append(table)
    return grouped


def pattern_margin(cells: Sequence[Cell]) -> tuple[float, str]:
    """How far the lecture's pattern is from failing, and where: the smallest of its four
    win-rate margins, in win rate (Minimax's two win rates and Expectimax's against the random
    ghost minus 0.9, and 0.4 minus Expectimax's against the adversarial ghost), with the cell
    it comes from. Negative when that condition fails. Minimax's rates here are of all its
    games: a capped game, which breaks the pattern, counts against it."""
    margins = []
    for cell in cells:
        if cell.row == ROWS[0][0]:
            margins.append(((cell.wins / cell.games if cell.games else 0.0) - 0.9, cell))
        elif cell.column == COLUMNS[0][0]:
            margins.append((0.4 - cell.win_rate, cell))
        else:
            margins.append((cell.win_rate - 0.9, cell))
    margin, cell = min(margins, key=lambda pair: pair[0])
    return margin, f"{cell.row} vs {cell.column.lower()}"


def format_symmetries(tables: Sequence[LayoutTable], evaluation: str = EVALUATION,
                      settings: Mapping[str, Setting] | None = None) -> str:
    """The report of a run under the grid's symmetries (layouts named `NAME@SYMMETRY`): one
    line per layout, with the images on which the pattern holds and the weakest image (the
    smallest `pattern_margin`, the first such in the order of `pacman.layout.SYMMETRIES`),
    then the full table of every image that fails."""
    games = max((cell.games for table in tables for cell in table.cells), default=0)
    return (f"Assumptions vs. Reality under the eight symmetries of the grid: Pacman depth "
            f"{DEPTH} with the {evaluation} evaluation{_settings_text(settings)}, "
            f"AdversarialGhost depth {GHOST_DEPTH}, {games} games per cell.\n\n"
            + _format_images(tables))


def _format_images(tables: Sequence[LayoutTable], title: str = "",
                   shown: Sequence[LayoutTable] = ()) -> str:
    lines = [f"{title}:", ""] if title else []
    lines += ["| layout | images where the pattern holds | weakest image | its margin |",
              "|---|---|---|---|"]
    for name, images in families(tables).items():
        holding = sum(not image.failures() for image in images)
        weakest = min(images, key=lambda image: pattern_margin(image.cells)[0])
        margin, where = pattern_margin(weakest.cells)
        lines.append(f"| {name} | {holding} of {len(images)} | {weakest.layout} | "
                     f"{margin * 100:+.0f} points ({where}) |")
    for table in tables:
        failures = table.failures()
        if failures and table not in shown:
            lines += ["", f"Layout {table.layout}: the lecture's pattern does not hold: "
                      + "; ".join(failures) + ".", "", format_table(table.cells)]
    return "\n".join(lines)


def failing_layouts(tables: Sequence[LayoutTable]) -> list[LayoutTable]:
    """The layouts on which the lecture's pattern does not hold."""
    return [table for table in tables if table.failures()]


def _cell_text(cell: Cell) -> str:
    """`Won 18/19, 1 capped, Avg. Score: 450 [350, 550]`: wins of the decided games."""
    text = f"Won {cell.wins}/{cell.decided}, " + (
        f"{cell.capped} capped, " if cell.capped else "") + f"Avg. Score: {cell.score_mean:.0f}"
    if cell.score_interval is not None:
        text += f" [{cell.score_interval[0]:.0f}, {cell.score_interval[1]:.0f}]"
    return text
