"""The headline experiment: the lecture table "Assumptions vs. Reality", reproduced.

Minimax Pacman and Expectimax Pacman, both depth 4 with the `cautious` evaluation, against an
adversarial ghost (`AdversarialGhost`, depth 2, hunting Pacman) and a random ghost, on the
`assumptions` layout. Minimax rows are computed with alpha-beta (the same decisions, fewer
nodes). Agents are named, not imported: `pacman` never imports `agents` at module level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pacman.experiments.grid import resolve_config
from pacman.experiments.runner import BatchResult, ProgressCallback, run_batch
from pacman.experiments.store import AgentSpec, GameConfig, ResultStore, StoredGame
from pacman.experiments.table import mean_interval, wilson_interval
from pacman.record import Outcome

LAYOUT = "assumptions"
EVALUATION = "cautious"
DEPTH = 4
GHOST_DEPTH = 2
MAX_MOVES = 300
DEFAULT_GAMES = 5
DEFAULT_STORE = Path("results") / "assumptions.db"

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

    @property
    def win_rate(self) -> float:
        """Wins / games."""
        return self.wins / self.games if self.games else 0.0


def configs(max_moves: int = MAX_MOVES) -> dict[tuple[str, str], GameConfig]:
    """The four configurations, by (row, column)."""
    return {(row, column): GameConfig(
        pacman=AgentSpec.of(agent, {"depth": DEPTH, "evaluation": EVALUATION}), ghost=ghost,
        num_ghosts=1, layout=LAYOUT, max_moves=max_moves)
        for row, agent in ROWS for column, ghost in COLUMNS}


def run(games: int = DEFAULT_GAMES, *, store: str | Path = DEFAULT_STORE, seed: int = 0,
        jobs: int | None = None, max_moves: int = MAX_MOVES,
        game_timeout: float | None = 600.0,
        on_progress: ProgressCallback | None = None) -> tuple[list[Cell], BatchResult]:
    """Play what the store lacks of `games` games per cell; return the cells and the batch."""
    cells = {cell: resolve_config(config).config
             for cell, config in configs(max_moves).items()}
    result = run_batch(list(cells.values()), games=games, store=store, seed=seed, jobs=jobs,
                       game_timeout=game_timeout, on_progress=on_progress)
    with ResultStore(store) as results:
        stored = [game for game in results.games() if game.base_seed == seed
                  and game.index < games]
    return [summarize_cell(row, column, [game for game in stored if game.config == config])
            for (row, column), config in cells.items()], result


def summarize_cell(row: str, column: str, games: Sequence[StoredGame]) -> Cell:
    """Counts, win rate with its Wilson interval, average score with its t interval."""
    wins = sum(game.outcome is Outcome.WIN for game in games)
    low, high = wilson_interval(wins, len(games))
    scores = [float(game.score) for game in games if game.score is not None]
    won = [float(game.score) for game in games
           if game.outcome is Outcome.WIN and game.score is not None]
    interval = mean_interval(scores)
    outcomes: dict[str, int] = {}
    for game in games:
        outcomes[game.outcome.value] = outcomes.get(game.outcome.value, 0) + 1
    moves = [game.pacman_moves for game in games if game.pacman_moves is not None]
    return Cell(row, column, len(games), wins, low, high,
                sum(scores) / len(scores) if scores else 0.0,
                (interval[1], interval[2]) if interval else None,
                sum(won) / len(won) if won else None,
                sum(moves) / len(moves) if moves else 0.0, outcomes)


def pattern_failures(cells: Sequence[Cell]) -> list[str]:
    """What of the lecture's pattern does not hold (empty when it all holds).

    Minimax wins >= 90% in both columns; Expectimax against the adversarial ghost wins <= 40%
    with a negative average score; Expectimax against the random ghost wins >= 90% and its
    average over won games is at least Minimax's against the random ghost.
    """
    by = {(cell.row, cell.column): cell for cell in cells}
    mm_adv = by["Minimax Pacman", "Adversarial ghost"]
    mm_rnd = by["Minimax Pacman", "Random ghost"]
    ex_adv = by["Expectimax Pacman", "Adversarial ghost"]
    ex_rnd = by["Expectimax Pacman", "Random ghost"]
    failures = []
    for cell in (mm_adv, mm_rnd, ex_rnd):
        if cell.win_rate < 0.9:
            failures.append(f"{cell.row} vs {cell.column.lower()} wins {cell.wins}/"
                            f"{cell.games}, below 90%")
    if ex_adv.win_rate > 0.4:
        failures.append(f"Expectimax vs adversarial ghost wins {ex_adv.wins}/{ex_adv.games}, "
                        "above 40%")
    if ex_adv.score_mean >= 0:
        failures.append(f"Expectimax vs adversarial ghost averages {ex_adv.score_mean:.1f}, "
                        "not negative")
    if (ex_rnd.won_score_mean or 0) < (mm_rnd.won_score_mean or 0):
        failures.append(f"Expectimax's won games vs the random ghost average "
                        f"{ex_rnd.won_score_mean:.1f}, below Minimax's "
                        f"{mm_rnd.won_score_mean:.1f}")
    return failures


def format_table(cells: Sequence[Cell]) -> str:
    """The table in the lecture's format, ours above the lecture's numbers."""
    by = {(cell.row, cell.column): cell for cell in cells}
    header = "| | " + " | ".join(column for column, _ in COLUMNS) + " |"
    rule = "|---|" + "---|" * len(COLUMNS)
    ours = [header, rule]
    lecture = [header, rule]
    for row, _ in ROWS:
        ours.append(f"| {row} | " + " | ".join(_cell_text(by[row, column])
                                              for column, _ in COLUMNS) + " |")
        lecture.append(f"| {row} | " + " | ".join(
            "Won {}/{}, Avg. Score: {}".format(*LECTURE[row, column])
            for column, _ in COLUMNS) + " |")
    games = max(cell.games for cell in cells)
    details = [f"- {cell.row} vs {cell.column.lower()}: win rate {cell.win_rate:.0%} "
               f"[95% {cell.win_low:.0%}-{cell.win_high:.0%}], average over won games "
               + (f"{cell.won_score_mean:.1f}" if cell.won_score_mean is not None else "-")
               + f", {cell.moves_mean:.1f} moves, "
               + ", ".join(f"{name} {count}" for name, count in sorted(cell.outcomes.items()))
               for cell in cells]
    return "\n".join([
        f"Assumptions vs. Reality: layout {LAYOUT}, Pacman depth {DEPTH} with the "
        f"{EVALUATION} evaluation, AdversarialGhost depth {GHOST_DEPTH}, {games} games per "
        "cell.",
        "Minimax rows are computed with alpha-beta (same decisions as minimax, fewer nodes).",
        "", "Ours (95% intervals in brackets):", "", *ours, "", *details, "",
        "The lecture (5 games per cell):", "", *lecture])


def _cell_text(cell: Cell) -> str:
    text = f"Won {cell.wins}/{cell.games}, Avg. Score: {cell.score_mean:.0f}"
    if cell.score_interval is not None:
        text += f" [{cell.score_interval[0]:.0f}, {cell.score_interval[1]:.0f}]"
    return text
