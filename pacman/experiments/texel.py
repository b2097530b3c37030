"""Texel fitting: evaluation weights from game outcomes, by a penalized logistic regression.

Every position where Pacman is to move in a game is labelled with the game's outcome (1 for a
win, 0 otherwise); a logistic model `P(win) = sigmoid(b + w . f(position))` over the evaluation
features `f` is fitted by Newton's method (IRLS) with an L2 penalty that pulls the weights
towards those the games were played with, on features standardized for the fit and mapped back
to their own units. The fitted `w` in points (logits times the points one logit is worth) is a
weighted evaluation. `pacman.experiments.tuning` plays the games and calls this; docs/tuning.md
has the formulas.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pacman import GameState
from pacman.agents.evaluation import DEFAULT_RADIUS, FEATURES, WeightedEvaluation
from pacman.errors import TuningError
from pacman.layout import Layout
from pacman.record import GameRecord
from pacman.rules import Direction

__all__ = ["DEFAULT_L2", "DIGITS", "LogisticFit", "Matrix", "evaluation_weights",
           "feature_rows", "fit_logistic", "game_positions", "learned_evaluation",
           "logit_scale", "rounded"]

Matrix = npt.NDArray[np.float64]

#: Significant digits the learned weights keep (so a weights file and the `feature:w,...`
#: spelling the games are played with hold exactly the same numbers).
DIGITS = 4
DEFAULT_L2 = 10.0


@dataclass(frozen=True)
class LogisticFit:
    """A fitted `P(win) = sigmoid(intercept + sum(coefficients[f] * f))`, in the features'
    own units, with the penalized log-loss per position and Newton iterations it took."""

    coefficients: dict[str, float]
    intercept: float
    log_loss: float
    iterations: int
    positions: int


def game_positions(record: GameRecord, layout: Layout) -> list[GameState]:
    """The positions of a recorded game where Pacman is to move (not the end), in order:
    the record's actions played again from the start, as `pacman.replay` does."""
    state = GameState.initial(layout, len(record.agents) - 1)
    agents = state.num_agents
    positions = []
    for number, action in enumerate(record.actions):
        if state.is_terminal():
            break
        agent = number % agents
        if agent == 0:
            positions.append(state)
        state = state.successor(agent, Direction(action))
    return positions


def feature_rows(states: Iterable[GameState], names: Sequence[str] = tuple(FEATURES),
                 radius: int = DEFAULT_RADIUS) -> Matrix:
    """One row per state: the features `names`, in that order."""
    functions = [FEATURES[name] for name in names]
    rows = [[function(state, radius) for function in functions] for state in states]
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(functions))


def _sigmoid(z: Matrix) -> Matrix:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * z)), dtype=np.float64)  # stable both ways


def fit_logistic(x: Matrix, y: Sequence[float] | Matrix, names: Sequence[str],
                 l2: float = DEFAULT_L2, prior: Mapping[str, float] | None = None,
                 offset: Sequence[float] | Matrix | None = None,
                 max_iterations: int = 100, tolerance: float = 1e-10) -> LogisticFit:
    """Fit `P(y=1) = sigmoid(b + w . x)` by Newton's method (IRLS), minimizing the mean
    log-loss plus `l2/2 * |w_std - prior_std|^2` (the intercept is not penalized).

    Columns are standardized (`(x - mean) / sd`) for the fit and the coefficients mapped back
    (`w = w_std / sd`); `prior` (coefficients in the features' own units, 0 by default) is
    what the penalty pulls towards; `offset` is added to every row's logit as it is (the part
    of the value held fixed); a constant column gets weight 0. Raises TuningError when
    `y` holds one outcome only (nothing to learn) or there are no rows.
    """
    x = np.asarray(x, dtype=np.float64)
    target = np.asarray(y, dtype=np.float64)
    count, width = x.shape
    if count == 0:
        raise TuningError("no positions to fit")
    if width != len(names):
        raise ValueError(f"{width} feature columns but {len(names)} names")
    wins = float(target.sum())
    if wins in (0.0, float(count)):
        kind = "won" if wins else "lost"
        raise TuningError(f"every game was {kind}: there is nothing to learn from (play more "
                          "games, or on other layouts or a stronger or weaker setting)")
    mean = x.mean(axis=0)
    sd = x.std(axis=0)
    used = sd > 1e-12
    z = (x[:, used] - mean[used]) / sd[used]
    design = np.hstack([np.ones((count, 1)), z])
    penalty = np.full(design.shape[1], float(l2))
    penalty[0] = 0.0
    centre = np.zeros(design.shape[1])
    if prior is not None:
        centre[1:] = np.array([prior.get(name, 0.0) for name in names])[used] * sd[used]
    shift = np.zeros(count) if offset is None else np.asarray(offset, dtype=np.float64)
    beta = centre.copy()
    iterations = 0
    while iterations < max_iterations:
        iterations += 1
        p = _sigmoid(shift + design @ beta)
        gradient = design.T @ (p - target) / count + penalty * (beta - centre)
        curvature = p * (1.0 - p) / count
        hessian = design.T @ (design * curvature[:, None]) + np.diag(penalty)
        hessian += 1e-12 * np.eye(design.shape[1])  # keeps it invertible on separable data
        step = np.linalg.solve(hessian, gradient)
        beta = beta - step
        if float(np.max(np.abs(step))) < tolerance:
            break
    p = np.clip(_sigmoid(shift + design @ beta), 1e-15, 1 - 1e-15)
    loss = float(-np.mean(target * np.log(p) + (1 - target) * np.log(1 - p)))
    coefficients = np.zeros(width)
    coefficients[used] = beta[1:] / sd[used]
    intercept = float(beta[0] - np.sum(coefficients[used] * mean[used]))
    return LogisticFit({name: float(c) for name, c in zip(names, coefficients)}, intercept,
                       loss, iterations, count)


def rounded(value: float, digits: int = DIGITS) -> float:
    """`value` to `digits` significant digits (0 stays 0)."""
    return 0.0 if value == 0 else float(f"{value:.{digits}g}")


def logit_scale(values: Sequence[float] | Matrix, y: Sequence[float] | Matrix) -> float:
    """`K` of the one-feature fit `P(win) = sigmoid(a + K * value)`: how many logits one point
    of an evaluation's value is worth. TuningError if it is not positive (the evaluation does
    not predict wins, so it cannot set the unit)."""
    column = np.asarray(values, dtype=np.float64).reshape(-1, 1)
    k = fit_logistic(column, y, ("value",), l2=0.0).coefficients["value"]
    if not k > 0:
        raise TuningError(f"the evaluation the games were played with does not predict wins "
                          f"(K = {k:.3g}): it cannot set the unit of the weights; give --scale "
                          "POINTS (points per logit, e.g. 1000)")
    return k


def evaluation_weights(fit: LogisticFit, points_per_logit: float) -> dict[str, float]:
    """The fitted coefficients (logits per unit of each feature) as evaluation weights
    (points per unit): times `points_per_logit`, to `DIGITS` significant digits."""
    if not (math.isfinite(points_per_logit) and points_per_logit > 0):
        raise TuningError(f"the scale must be a positive number, got {points_per_logit}")
    return {name: rounded(value * points_per_logit)
            for name, value in fit.coefficients.items()}


def learned_evaluation(weights: dict[str, float], radius: int = DEFAULT_RADIUS,
                       name: str = "") -> WeightedEvaluation:
    """The weighted sum of the learned weights (zero weights left out)."""
    return WeightedEvaluation({k: v for k, v in weights.items() if v}, radius=radius, name=name)
