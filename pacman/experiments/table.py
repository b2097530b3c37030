"""Win-rate tables from a results store: games grouped by columns, with 95% intervals.

Win rate: Wilson score interval. Average score: Student t interval (mean +- t(0.975, n-1) *
s / sqrt(n)). Averages of score and moves use complete games only (a game killed by the
batch's time limit has no score); time and nodes per move are pooled over all Pacman moves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from pacman.errors import TableError
from pacman.experiments.config import StoredGame
from pacman.record import Outcome
from pacman.specs import Setting

CONFIDENCE = 0.95
STANDARD_COLUMNS = ("agent", "depth", "evaluation", "ghost", "num_ghosts", "layout")
#: columns every game has; any other name is a Pacman setting, `ghost.NAME` a ghost setting
FIXED_COLUMNS = ("agent", "settings", "ghost", "ghost_settings", "num_ghosts", "layout",
                 "max_moves", "move_timeout", "seed", "version", "code")


@dataclass(frozen=True)
class TableRow:
    """The games of one group and what they add up to."""

    group: tuple[tuple[str, Setting], ...]  # (column, value) in `by` order
    games: int
    wins: int
    losses: int
    crashes: int
    timeouts: int
    capped: int
    win_rate: float
    win_low: float  # Wilson 95% interval
    win_high: float
    score_mean: float | None  # complete games only; None if there are none
    score_low: float | None  # Student t 95% interval; None with fewer than two scores
    score_high: float | None
    moves_mean: float | None
    seconds_per_move: float | None  # pooled over every Pacman move
    nodes_per_move: float | None  # pooled over the moves that reported nodes

    def label(self) -> str:
        """The group's values, e.g. `AlphaBetaAgent depth=2 better`."""
        return " ".join(str(value) if column in ("agent", "ghost", "evaluation", "layout")
                        else f"{column}={value}" for column, value in self.group
                        if value is not None)


def wilson_interval(successes: int, trials: int,
                    confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) with no trials.

    Args:
        successes: how many of the trials succeeded, 0 to `trials`.
        trials: how many there were, 0 or more.
        confidence: the interval's confidence level.

    Returns:
        `(low, high)` with `0 <= low <= successes / trials <= high <= 1`: exactly 0 at no
        success and exactly 1 at all successes, as the formula says, where floating point
        alone gives 2.8e-17 (and a plot's error bar of negative length).
    """
    if trials == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else min(p, max(0.0, centre - half))
    high = 1.0 if successes >= trials else max(p, min(1.0, centre + half))
    return low, high


def mean_interval(values: Sequence[float],
                  confidence: float = CONFIDENCE) -> tuple[float, float, float] | None:
    """(mean, low, high) with the Student t interval; None for fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def t_quantile(p: float, df: int) -> float:
    """The `p` quantile of Student's t with `df` degrees of freedom (0.5 < p < 1)."""
    if not 0.5 < p < 1 or df < 1:
        raise ValueError(f"t_quantile needs 0.5 < p < 1 and df >= 1, got p={p}, df={df}")
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        high *= 2
    for _ in range(100):  # bisection to machine precision
        middle = (low + high) / 2
        if _t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _t_cdf(t: float, df: int) -> float:
    """P(T <= t) for t >= 0, through the regularized incomplete beta function."""
    return 1 - 0.5 * _incomplete_beta(df / 2, 0.5, df / (df + t * t))


def _incomplete_beta(a: float, b: float, x: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return result


def column_value(game: StoredGame, column: str) -> Setting:
    """The value of a grouping column for one game (None if the game does not have it)."""
    config = game.config
    stored = config.to_dict()  # the configuration's columns, by their stored names
    fixed: dict[str, Setting] = {
        "agent": config.pacman.name, "settings": config.pacman.settings_text(),
        "ghost": config.ghost.name, "ghost_settings": config.ghost.settings_text(),
        **{name: stored[name] for name in ("num_ghosts", "layout", "max_moves", "move_timeout")},
        "seed": game.base_seed, "version": game.version, "code": game.code or "unknown",
    }
    if column in fixed:
        return fixed[column]
    if column.startswith("ghost."):
        return config.ghost.settings_dict().get(column.removeprefix("ghost."))
    return config.pacman.settings_dict().get(column)


def _has_column(games: Sequence[StoredGame], column: str) -> bool:
    if column in FIXED_COLUMNS:
        return True
    if column.startswith("ghost."):
        name = column.removeprefix("ghost.")
        return any(name in game.config.ghost.settings_dict() for game in games)
    return any(column in game.config.pacman.settings_dict() for game in games)


def select_code(games: Sequence[StoredGame], which: str = "latest"
                ) -> tuple[list[StoredGame], int]:
    """The games of the code versions asked for, and how many others were left out.

    `latest`: for each configuration, the games of the code version of its most recently
    stored game (what a rerun of its batch plays now); `all`: every game; anything else: the
    code versions starting with that text (`unknown` for games stored before code versions).
    """
    if which == "all":
        return list(games), 0
    if which == "latest":
        latest = {game.config.key(): game.code for game in games}  # stored order: last wins
        kept = [game for game in games if game.code == latest[game.config.key()]]
    else:
        kept = [game for game in games if (game.code or "unknown").startswith(which)]
        if not kept:
            codes = sorted({game.code or "unknown" for game in games})
            raise TableError(f"no games of code version {which!r}: the file has "
                             f"{', '.join(codes) or 'none'}")
    return kept, len(games) - len(kept)


def default_columns(games: Sequence[StoredGame]) -> list[str]:
    """The columns a table of these games needs: the standard ones they have (a classic
    agent's `evalFn` stands in for `evaluation`), every other Pacman or ghost setting, move cap
    and time limit whose value differs between games, and `code` when the games come from more
    than one code version. So any store gets a table, and no setting that varies is averaged
    over unseen."""
    columns = []
    for column in STANDARD_COLUMNS:
        if column == "evaluation" and not _has_column(games, column) and _has_column(
                games, "evalFn"):
            column = "evalFn"
        if _has_column(games, column):
            columns.append(column)
    pacman_settings = sorted({name for game in games for name, _ in game.config.pacman.settings})
    ghost_settings = sorted({f"ghost.{name}" for game in games
                             for name, _ in game.config.ghost.settings})
    varying = [column for column in [*pacman_settings, *ghost_settings, "max_moves",
                                     "move_timeout", "code"]
               if column not in columns and _varies(games, column)]
    at = columns.index("ghost") if "ghost" in columns else len(columns)
    pacman_side = [c for c in varying if c in pacman_settings]
    return columns[:at] + pacman_side + columns[at:] + [c for c in varying
                                                        if c not in pacman_side]


def _varies(games: Sequence[StoredGame], column: str) -> bool:
    return len({column_value(game, column) for game in games}) > 1


def check_columns(games: Sequence[StoredGame], by: Sequence[str]) -> None:
    """Raise TableError for a column that no game has."""
    for column in by:
        if not _has_column(games, column):
            settings = sorted({key for game in games for key, _ in game.config.pacman.settings})
            raise TableError(f"no column {column!r}: use {', '.join(FIXED_COLUMNS)}, a Pacman "
                             f"setting ({', '.join(settings) or 'none stored'}) or ghost.NAME")


def group_games(games: Sequence[StoredGame],
                by: Sequence[str]) -> list[tuple[tuple[tuple[str, Setting], ...],
                                                 list[StoredGame]]]:
    """Games grouped by the values of `by`, groups sorted (numbers by value, code versions in
    the order they were first stored)."""
    check_columns(games, by)
    groups: dict[tuple[Setting, ...], list[StoredGame]] = {}
    for game in games:
        groups.setdefault(tuple(column_value(game, c) for c in by), []).append(game)
    stored_order: dict[Setting, int] = {}  # code versions sort oldest first, not by hash
    for game in games:
        stored_order.setdefault(column_value(game, "code"), len(stored_order))

    def sort_key(column: str, value: Setting) -> tuple[int, float, str]:
        return (1, float(stored_order[value]), "") if column == "code" else _sort_key(value)

    ordered = sorted(groups, key=lambda values: tuple(
        sort_key(column, value) for column, value in zip(by, values)))
    return [(tuple(zip(by, values)), groups[values]) for values in ordered]


def _sort_key(value: Setting) -> tuple[int, float, str]:
    if value is None:
        return (0, 0.0, "")
    if isinstance(value, (int, float)):
        return (1, float(value), "")
    return (2, 0.0, str(value))


def summarize(games: Sequence[StoredGame], by: Sequence[str] = STANDARD_COLUMNS
              ) -> list[TableRow]:
    """One row per group of `by`: counts, win rate and averages with 95% intervals."""
    return [_row(group, members) for group, members in group_games(games, by)]


def _row(group: tuple[tuple[str, Setting], ...], games: list[StoredGame]) -> TableRow:
    count = len(games)
    outcomes = [game.outcome for game in games]
    wins = outcomes.count(Outcome.WIN)
    low, high = wilson_interval(wins, count)
    complete = [game for game in games if game.complete]
    scores = [float(game.score) for game in complete if game.score is not None]
    moves = [game.pacman_moves for game in complete if game.pacman_moves is not None]
    interval = mean_interval(scores)
    total_moves = sum(moves)
    nodes_moves = sum(game.nodes_moves for game in games)
    return TableRow(
        group=group, games=count, wins=wins, losses=outcomes.count(Outcome.LOSS),
        crashes=outcomes.count(Outcome.CRASH), timeouts=outcomes.count(Outcome.TIMEOUT),
        capped=outcomes.count(Outcome.CAPPED), win_rate=wins / count, win_low=low,
        win_high=high, score_mean=sum(scores) / len(scores) if scores else None,
        score_low=interval[1] if interval else None,
        score_high=interval[2] if interval else None,
        moves_mean=total_moves / len(moves) if moves else None,
        seconds_per_move=(sum(game.move_seconds for game in complete) / total_moves
                          if total_moves else None),
        nodes_per_move=(sum(game.nodes or 0 for game in games) / nodes_moves
                        if nodes_moves else None))


def constant_columns(rows: Sequence[TableRow]) -> list[str]:
    """The grouping columns that have one value in every row (when there are two rows or more)."""
    if len(rows) < 2:
        return []
    columns = [column for column, _ in rows[0].group]
    return [column for i, column in enumerate(columns)
            if len({row.group[i][1] for row in rows}) == 1]
