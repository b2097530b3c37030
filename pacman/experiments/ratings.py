"""Tournament ratings: a Bradley-Terry model of pairwise paired games, as Elo-like numbers.

**Pairwise results.** In a tournament every Pacman agent plays every ghost agent on every
board with paired seeds, so game `i` on a board meets the same randomness whoever plays it.
Two Pacman agents meet in a *pair*: the same board, game index (seed) and ghost agent; the one
with the higher score wins the pair, equal scores count half to each. Two ghost agents meet on
the same board, game index and Pacman agent; the ghost that Pacman scores less against wins.

**Bradley-Terry.** Agent `i` has a strength `p_i > 0` and wins against `j` with probability
`p_i / (p_i + p_j)`. The maximum-likelihood strengths are found by the MM algorithm of Hunter
(2004), "MM algorithms for generalized Bradley-Terry models":

    p_i <- W_i / sum_{j != i} N_ij / (p_i + p_j)

where `W_i` is i's total wins and `N_ij` the number of pairs of i and j, repeated (the
strengths rescaled to a geometric mean of 1 each time) until no strength changes by more than
1e-10 relative. An agent that never wins (or never loses) has no finite maximum; `prior` adds
that many wins to each side of every pair of agents that met (the tournament uses 0.5, a
shrinkage negligible beside hundreds of pairs).

**Ratings.** `rating_i = 1500 + 400 * log10(p_i) - mean_j(400 * log10(p_j))`: a difference
of 400 points is a strength ratio of 10 (an expected 10:1 record), as in Elo; the mean is 1500.

**Intervals.** 95% bootstrap percentile intervals: the game indices of each board are
resampled with replacement (a pair of games stays a pair), the model fitted again, and the
2.5% and 97.5% quantiles of each rating taken; the random generator has a fixed seed, so the
same results give the same table.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["MatchRecord", "Rating", "bootstrap_ratings", "bradley_terry", "elo_ratings"]

Matrix = npt.NDArray[np.float64]
BASE_RATING = 1500.0
SCALE = 400.0  # rating points per factor of 10 in strength
TOLERANCE = 1e-10
MAX_ITERATIONS = 100_000


def bradley_terry(wins: Matrix, prior: float = 0.0) -> Matrix:
    """Bradley-Terry strengths (geometric mean 1) by Hunter's MM algorithm.

    `wins[i, j]` is how many pairs agent i won against agent j (halves for ties). `prior` is
    added to both sides of every pair of agents that met. ValueError when an agent never wins
    (its strength would be 0) or the agents do not all meet through a chain of games in which
    each side won at least once (a strength would be infinite): give a `prior` > 0.
    """
    wins = np.asarray(wins, dtype=np.float64)
    k = wins.shape[0]
    if wins.shape != (k, k) or np.any(wins < 0):
        raise ValueError("wins must be a square matrix of counts >= 0")
    met = (wins + wins.T) > 0
    np.fill_diagonal(met, False)
    wins = wins + prior * met
    np.fill_diagonal(wins, 0.0)
    games = wins + wins.T
    total = wins.sum(axis=1)
    if k == 1:
        return np.ones(1)
    if np.any(total <= 0):
        raise ValueError("an agent never wins: its strength would be 0 (use a prior)")
    if not _strongly_connected(wins > 0):
        raise ValueError("the agents cannot all be compared: some never beat the others "
                         "(use a prior)")
    strength = np.ones(k)
    for _ in range(MAX_ITERATIONS):
        denominator = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = total / denominator
        new /= math.exp(float(np.mean(np.log(new))))
        change = float(np.max(np.abs(new - strength) / strength))
        strength = new
        if change < TOLERANCE:
            break
    return strength


def _strongly_connected(beats: npt.NDArray[np.bool_]) -> bool:
    """Whether every agent reaches every other through 'i beat j at least once' edges."""
    k = beats.shape[0]
    for edges in (beats, beats.T):
        seen = {0}
        frontier = [0]
        while frontier:
            i = frontier.pop()
            for j in np.flatnonzero(edges[i]):
                if int(j) not in seen:
                    seen.add(int(j))
                    frontier.append(int(j))
        if len(seen) < k:
            return False
    return True


def elo_ratings(strength: Matrix) -> Matrix:
    """`1500 + 400 log10(strength)`, shifted so the mean rating is 1500."""
    points = SCALE * np.log10(strength)
    ratings: Matrix = BASE_RATING + points - points.mean()
    return ratings


@dataclass(frozen=True)
class MatchRecord:
    """The pairwise results of one game index on one board: `wins[i, j]` pairs i won
    against j there. A bootstrap resamples these within each board."""

    board: Hashable
    index: int
    wins: Matrix


@dataclass(frozen=True)
class Rating:
    """One agent's fitted rating with its bootstrap interval and its pairwise record."""

    name: str
    rating: float
    low: float
    high: float
    pairs_won: float  # halves for ties
    pairs: int


def bootstrap_ratings(names: Sequence[str], records: Sequence[MatchRecord], *,
                      resamples: int = 1000, seed: int = 0, prior: float = 0.5
                      ) -> list[Rating]:
    """Ratings of `names` fitted on all `records`, with 95% bootstrap intervals (game indices
    resampled with replacement within each board; a fixed `seed`), best first."""
    k = len(names)
    if not records:
        raise ValueError("no pairwise results to rate")
    total = np.sum([record.wins for record in records], axis=0).reshape(k, k)
    ratings = elo_ratings(bradley_terry(total, prior))
    boards: dict[Hashable, list[Matrix]] = {}
    for record in records:
        boards.setdefault(record.board, []).append(record.wins)
    stacks = [np.stack(matrices) for matrices in boards.values()]
    generator = np.random.default_rng(seed)
    samples = np.empty((resamples, k))
    for r in range(resamples):
        resampled = np.zeros((k, k))
        for stack in stacks:
            chosen = generator.integers(0, len(stack), size=len(stack))
            resampled += stack[chosen].sum(axis=0)
        samples[r] = elo_ratings(bradley_terry(resampled, prior))
    low, high = (np.percentile(samples, [2.5, 97.5], axis=0) if resamples
                 else (ratings, ratings))
    played = total + total.T
    result = [Rating(name, float(ratings[i]), float(low[i]), float(high[i]),
                     float(total[i].sum()), round(float(played[i].sum())))
              for i, name in enumerate(names)]
    return sorted(result, key=lambda rating: -rating.rating)


def pairwise_wins(scores: Mapping[int, float], k: int) -> Matrix:
    """`wins[i, j]` for one meeting of agents with these scores (agent index -> score, a
    higher score wins; a tie counts half to each); agents without a score are left out."""
    wins = np.zeros((k, k))
    for i, si in scores.items():
        for j, sj in scores.items():
            if i != j:
                wins[i, j] = 1.0 if si > sj else 0.5 if si == sj else 0.0
    return wins
