"""Paired comparisons of two Pacman agents: the statistics of `pacman compare`.

Both agents play the same boards with paired seeds (`GameConfig(paired=True)`), so game `i`
of A and game `i` of B on one board meet the same ghost randomness: a pair. Pairs are matched
by (board, game index). The tests use the differences within pairs, which removes the
variation the boards and seeds share:

- **Win rates.** With `n` pairs, `b` pairs where A won and B did not, and `c` the reverse,
  the paired difference of win rates is `d = (b - c) / n`, with the Wald interval of a paired
  difference of proportions, `d +- z * sqrt(b + c - (b - c)**2 / n) / n` (z = 1.96; clipped
  to [-1, 1]). The p-value is McNemar's exact test: under "no difference" each of the
  `m = b + c` discordant pairs goes to A or B with probability 1/2, so
  `p = min(1, 2 * sum(C(m, k) for k <= min(b, c)) / 2**m)` (1 when m = 0).
- **Scores.** With `d_i = score_A - score_B` over the pairs where both games are complete:
  mean `dbar`, standard deviation `s`, the Student t interval
  `dbar +- t(0.975, n - 1) * s / sqrt(n)` and the two-sided paired t-test
  `p = 2 * (1 - F_t(|dbar| / (s / sqrt(n)), n - 1))`. A pair with a game killed by the time
  limit (no score) is left out of the score test and counted in `incomplete`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any

from pacman.experiments.config import StoredGame
from pacman.experiments.table import CONFIDENCE, _t_cdf, t_quantile, wilson_interval
from pacman.record import Outcome

__all__ = ["Comparison", "compare_games", "format_p", "mcnemar_p", "pair_games", "paired_t",
           "paired_win_difference", "verdict"]


def mcnemar_p(b: int, c: int) -> float:
    """McNemar's exact two-sided p-value for `b` and `c` discordant pairs (binomial, p=1/2)."""
    if b < 0 or c < 0:
        raise ValueError(f"counts must be >= 0, got b={b}, c={c}")
    m = b + c
    if m == 0:
        return 1.0
    tail: int = sum(math.comb(m, k) for k in range(min(b, c) + 1))
    return min(1.0, 2 * tail / (1 << m))  # (exact integers until this division)


def paired_win_difference(n: int, b: int, c: int, confidence: float = CONFIDENCE
                          ) -> tuple[float, float, float]:
    """(difference, low, high): the paired difference of win rates `(b - c) / n` and its
    Wald interval `d +- z * sqrt(b + c - (b - c)**2 / n) / n`, clipped to [-1, 1]."""
    if n <= 0:
        raise ValueError(f"need at least one pair, got n={n}")
    if b < 0 or c < 0 or b + c > n:
        raise ValueError(f"need 0 <= b, c and b + c <= n, got n={n}, b={b}, c={c}")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    difference = (b - c) / n
    half = z * math.sqrt(max(0.0, b + c - (b - c) ** 2 / n)) / n
    return difference, max(-1.0, difference - half), min(1.0, difference + half)


def paired_t(differences: Sequence[float], confidence: float = CONFIDENCE
             ) -> tuple[float, float, float, float] | None:
    """(mean, low, high, p) of paired differences: Student t interval and two-sided paired
    t-test of mean 0; None with fewer than two differences. All differences equal: a zero-width
    interval, and p = 1 if they are 0, else 0."""
    n = len(differences)
    if n < 2:
        return None
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    error = math.sqrt(variance / n)
    if error == 0:
        return mean, mean, mean, 1.0 if mean == 0 else 0.0
    half = t_quantile(0.5 + confidence / 2, n - 1) * error
    p = 2 * (1 - _t_cdf(abs(mean) / error, n - 1))
    return mean, mean - half, mean + half, min(1.0, max(0.0, p))


def _board(game: StoredGame) -> tuple[str, int]:
    """What pairs games besides the index: the board (paired seed key) and the batch seed."""
    return game.config.seed_key(), game.base_seed


def pair_games(games_a: Sequence[StoredGame], games_b: Sequence[StoredGame]
               ) -> list[tuple[StoredGame, StoredGame]]:
    """The pairs (game of A, game of B) on the same board with the same index, in order of
    board then index; a game without its partner is left out."""
    by_key = {(_board(game), game.index): game for game in games_b}
    pairs = [(game, by_key[(_board(game), game.index)]) for game in games_a
             if (_board(game), game.index) in by_key]
    return sorted(pairs, key=lambda pair: (_board(pair[0]), pair[0].index))


@dataclass(frozen=True)
class Comparison:
    """What the pairs of A and B games add up to (see the module docstring for formulas)."""

    pairs: int
    boards: int
    a_wins: int
    b_wins: int
    a_win_low: float  # Wilson 95% interval of A's win rate
    a_win_high: float
    b_win_low: float
    b_win_high: float
    a_score: float | None  # average score over A's complete games of the pairs
    b_score: float | None
    only_a: int  # b: pairs A won and B did not
    only_b: int  # c: pairs B won and A did not
    win_difference: float  # (b - c) / n
    win_low: float
    win_high: float
    win_p: float  # McNemar exact
    scored_pairs: int  # pairs with both games complete
    incomplete: int  # pairs left out of the score test (a game killed)
    score_difference: float | None  # mean of score_A - score_B
    score_low: float | None
    score_high: float | None
    score_p: float | None  # paired t-test

    @property
    def a_win_rate(self) -> float:
        """A's win rate over the pairs."""
        return self.a_wins / self.pairs

    @property
    def b_win_rate(self) -> float:
        """B's win rate over the pairs."""
        return self.b_wins / self.pairs

    def significant(self, level: float) -> bool:
        """Whether the win-rate or the score difference has p < level."""
        return self.win_p < level or (self.score_p is not None and self.score_p < level)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {**asdict(self), "a_win_rate": self.a_win_rate, "b_win_rate": self.b_win_rate}


def compare_games(games_a: Sequence[StoredGame], games_b: Sequence[StoredGame]
                  ) -> Comparison:
    """The paired comparison of A's and B's games; ValueError if no game has a partner."""
    pairs = pair_games(games_a, games_b)
    n = len(pairs)
    if n == 0:
        raise ValueError("no pairs: A and B have no game on the same board with the same "
                         "index")
    won = [(a.outcome == Outcome.WIN, b.outcome == Outcome.WIN) for a, b in pairs]
    a_wins = sum(a for a, _ in won)
    b_wins = sum(b for _, b in won)
    only_a = sum(a and not b for a, b in won)
    only_b = sum(b and not a for a, b in won)
    difference, low, high = paired_win_difference(n, only_a, only_b)
    scored = [(a.score, b.score) for a, b in pairs if a.complete and b.complete
              and a.score is not None and b.score is not None]
    test = paired_t([float(sa - sb) for sa, sb in scored])
    a_scores = [a.score for a, _ in pairs if a.complete and a.score is not None]
    b_scores = [b.score for _, b in pairs if b.complete and b.score is not None]
    a_low, a_high = wilson_interval(a_wins, n)
    b_low, b_high = wilson_interval(b_wins, n)
    return Comparison(
        pairs=n, boards=len({_board(a) for a, _ in pairs}), a_wins=a_wins, b_wins=b_wins,
        a_win_low=a_low, a_win_high=a_high, b_win_low=b_low, b_win_high=b_high,
        a_score=sum(a_scores) / len(a_scores) if a_scores else None,
        b_score=sum(b_scores) / len(b_scores) if b_scores else None,
        only_a=only_a, only_b=only_b, win_difference=difference, win_low=low, win_high=high,
        win_p=mcnemar_p(only_a, only_b), scored_pairs=len(scored),
        incomplete=n - len(scored),
        score_difference=test[0] if test else None, score_low=test[1] if test else None,
        score_high=test[2] if test else None, score_p=test[3] if test else None)


def format_p(p: float) -> str:
    """A p-value for people: 4 significant digits, `< 0.0001` below that."""
    return "< 0.0001" if p < 0.0001 else f"{p:.4g}"


def _p_is(p: float) -> str:
    text = format_p(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def verdict(comparison: Comparison, level: float, a: str = "A", b: str = "B") -> str:
    """One line: what is significant at `level` (win rate first, then score), each difference
    and interval taken as the better agent's minus the other's; or that nothing is."""
    parts = []
    c = comparison
    if c.win_p < level and c.win_difference != 0:
        sign = 1 if c.win_difference > 0 else -1
        better, worse = (a, b) if sign > 0 else (b, a)
        low, high = sorted((sign * c.win_low, sign * c.win_high))
        parts.append(f"{better} wins more often than {worse}: {sign * c.win_difference:+.2f} "
                     f"[{low:+.2f}, {high:+.2f}], {_p_is(c.win_p)}")
    if (c.score_p is not None and c.score_p < level and c.score_difference
            and c.score_low is not None and c.score_high is not None):
        sign = 1 if c.score_difference > 0 else -1
        better, worse = (a, b) if sign > 0 else (b, a)
        low, high = sorted((sign * c.score_low, sign * c.score_high))
        parts.append(f"{better} scores more than {worse}: {sign * c.score_difference:+.1f} "
                     f"[{low:+.1f}, {high:+.1f}] points a game, {_p_is(c.score_p)}")
    return "; ".join(parts) or f"no significant difference at {level:g}"
